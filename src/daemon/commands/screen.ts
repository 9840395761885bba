// /screen: posts the current screen once, whatever the card's display mode.
import { defineSessionCommand } from './types.js';

export const screenCommand = defineSessionCommand({
  name: 'screen',
  aliases: ['screenshot'],
  usage: '/screen',
  summary: 'cmd.summary.screen',
  level: 'talk',
  taps: { screen: (ctx, v) => ctx.postScreen(v.sessionId) },
  async run(ctx, s) {
    if (s.lifecycle === 'stopped') return ctx.reply(ctx.t('cmd.screen.stopped'));
    const res = await ctx.postScreen(s.id);
    if (!res.ok) await ctx.reply(ctx.t('cmd.screen.failed', { reason: res.message }));
  },
});
