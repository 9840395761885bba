// /close: ends the session here — the CLI is killed; the next message starts a new one.
import { defineSessionCommand } from './types.js';

export const closeCommand = defineSessionCommand({
  name: 'close',
  usage: '/close',
  summary: 'cmd.summary.close',
  level: 'operate',
  taps: { close: (ctx, v) => ctx.closeSession(v.sessionId) },
  async run(ctx, s) {
    const res = await ctx.closeSession(s.id);
    if (!res.ok) return ctx.reply(ctx.t('cmd.close.failed', { id: s.id.slice(0, 8), reason: res.message }));
    await ctx.reply(ctx.t('cmd.close.done', { id: s.id.slice(0, 8) }));
  },
});
