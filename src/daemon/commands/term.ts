// /term: DMs the invoker a single-use link that lets them type into this session's web terminal.
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const termCommand = defineCommand({
  name: 'term',
  aliases: ['terminal'],
  usage: '/term',
  summary: 'get a private link to type in the web terminal',
  level: 'operate',
  args: z.string(),
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    const res = await ctx.issueWriteLink(s.id, ctx.invoker.userId);
    if (!res.ok) return ctx.reply(`Could not make a terminal link: ${res.message}`);
    // The link itself never goes into the conversation: only the invoker's direct messages see it.
    await ctx.reply(`I sent you a private link in a direct message. It works once and expires in ${res.expiresInMinutes} minutes.`);
  },
});
