// /close: ends the session here — the CLI is killed; the next message starts a new one.
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const closeCommand = defineCommand({
  name: 'close',
  aliases: [],
  usage: '/close',
  summary: 'cmd.summary.close',
  level: 'operate',
  args: z.string(),
  taps: { close: (ctx, v) => ctx.closeSession(v.sessionId) },
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(ctx.t(NO_SESSION_REPLY));
    const res = await ctx.closeSession(s.id);
    if (!res.ok) return ctx.reply(ctx.t('cmd.close.failed', { id: s.id.slice(0, 8), reason: res.message }));
    await ctx.reply(ctx.t('cmd.close.done', { id: s.id.slice(0, 8) }));
  },
});
