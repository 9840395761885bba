// /resume (or `/lmx resume` where the CLI has its own /resume, as Claude Code and Codex do): a session held by a usage
// limit or the daily budget tries its waiting prompts now instead of at the reset time (issue 30 item 3).
import { defineSessionCommand } from './types.js';

export const resumeCommand = defineSessionCommand({
  name: 'resume',
  usage: '/resume',
  summary: 'cmd.summary.resume',
  level: 'operate',
  async run(ctx, s) {
    const res = await ctx.resumeHeld(s.id);
    if (res.kind === 'not_held') return ctx.reply(ctx.t('hold.notHeld'));
    if (res.kind === 'over_budget') return ctx.reply(res.text);
    await ctx.reply(ctx.t('hold.resumeTrying'));
  },
});
