// /screen: posts the current screen once, whatever the card's display mode.
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const screenCommand = defineCommand({
  name: 'screen',
  aliases: ['screenshot'],
  usage: '/screen',
  summary: 'cmd.summary.screen',
  level: 'talk',
  args: z.string(),
  taps: { screen: (ctx, v) => ctx.postScreen(v.sessionId) },
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(ctx.t(NO_SESSION_REPLY));
    if (s.lifecycle === 'stopped') return ctx.reply(ctx.t('cmd.screen.stopped'));
    const res = await ctx.postScreen(s.id);
    if (!res.ok) await ctx.reply(ctx.t('cmd.screen.failed', { reason: res.message }));
  },
});
