// /close: ends the session here — the CLI is killed; the next message starts a new one.
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const closeCommand = defineCommand({
  name: 'close',
  aliases: [],
  usage: '/close',
  summary: 'end this session and stop its CLI',
  level: 'operate',
  args: z.string(),
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    const res = await ctx.closeSession(s.id);
    if (!res.ok) return ctx.reply(`Could not close session ${s.id.slice(0, 8)}: ${res.message}`);
    await ctx.reply(`Closed session ${s.id.slice(0, 8)}; its CLI was stopped. Your next message here starts a new session.`);
  },
});
