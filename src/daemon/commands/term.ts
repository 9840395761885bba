// /term: DMs the invoker a single-use link that lets them type into this session's web terminal.
import { defineSessionCommand } from './types.js';

export const termCommand = defineSessionCommand({
  name: 'term',
  aliases: ['terminal'],
  usage: '/term',
  summary: 'cmd.summary.term',
  level: 'operate',
  // The terminal button: the link goes to the tapper's direct messages, never into the topic.
  taps: { write_link: (ctx, v) => ctx.issueWriteLink(v.sessionId, ctx.invoker.userId) },
  async run(ctx, s) {
    const res = await ctx.issueWriteLink(s.id, ctx.invoker.userId);
    if (!res.ok) return ctx.reply(ctx.t('cmd.term.failed', { reason: res.message }));
    // The link itself never goes into the conversation: only the invoker's direct messages see it.
    await ctx.reply(ctx.t('cmd.term.sent', { minutes: res.expiresInMinutes }));
  },
});
