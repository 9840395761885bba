// The argument of /grant and /revoke: a user's open id, or `chat` for everyone in this chat.
import { z } from 'zod';
import type { MessageKey } from '../../shared/i18n.js';

export type GrantArg = { kind: 'user'; userId: string } | { kind: 'chat' };

export const GrantArgSchema = z
  .string()
  .trim()
  .regex(/^(chat|ou_[A-Za-z0-9_-]{4,128})$/, 'cmd.grant.badTarget' satisfies MessageKey)
  .transform((s): GrantArg => (s === 'chat' ? { kind: 'chat' } : { kind: 'user', userId: s }));
