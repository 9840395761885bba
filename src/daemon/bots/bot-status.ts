// The status line of one bot, as the control socket reports it.
import type { z } from 'zod';
import type { BotStatusSchema } from '../../shared/control-protocol.js';

export type BotStatus = z.infer<typeof BotStatusSchema>;
