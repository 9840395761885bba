// The choices on a message that waits behind a working CLI (issue 30 item 4): steer it in now, or interrupt the turn and
// send it next. Operators only, like the key row: both act on the CLI's running turn.
import { TAP_REFUSAL } from '../sessions/busy-message.js';
import type { ButtonCommand } from './types.js';

export const busyButtons: ButtonCommand = {
  name: 'hurry',
  level: 'operate',
  taps: {
    hurry: async (ctx, v) => {
      const outcome = await ctx.hurryMessage(v.sessionId, v.turnId, v.how);
      // Passed on: the worker's answer changes the card (live-session.ts). Refused here: said at once, nothing sent.
      if (outcome.kind !== 'act') await ctx.reply(ctx.t(TAP_REFUSAL[outcome.kind]));
    },
  },
};
