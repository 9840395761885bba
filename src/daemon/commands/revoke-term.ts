// /revoke-term: ends every web-terminal write grant of this session (open links and connected writers).
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const revokeTermCommand = defineCommand({
  name: 'revoke-term',
  aliases: [],
  usage: '/revoke-term',
  summary: 'end all write access to the web terminal',
  level: 'operate',
  args: z.string(),
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    const n = await ctx.revokeWriteGrants(s.id);
    await ctx.reply(n === 0 ? 'Nobody had write access to this terminal.' : `Revoked ${n} write grant${n === 1 ? '' : 's'}; the web terminal is read-only again.`);
  },
});
