// /revoke-term: ends every web-terminal write grant of this session (open links and connected writers);
// /revoke-term --view: gives the session a new view token instead, so a leaked card link stops working.
import { z } from 'zod';
import { t } from '../../shared/i18n.js';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const revokeTermCommand = defineCommand({
  name: 'revoke-term',
  aliases: [],
  usage: '/revoke-term [--view]',
  summary: 'end all write access to the web terminal (--view: new view link)',
  level: 'operate',
  args: z.string(),
  async run(ctx, args) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    if (args.trim() === '--view') {
      const res = await ctx.rotateViewToken(s.id);
      const locale = ctx.bot.locale ?? 'en';
      return ctx.reply(res ? t(locale, 'webTerm.viewRotated', { connections: res.connections }) : t(locale, 'webTerm.off'));
    }
    const n = await ctx.revokeWriteGrants(s.id);
    await ctx.reply(n === 0 ? 'Nobody had write access to this terminal.' : `Revoked ${n} write grant${n === 1 ? '' : 's'}; the web terminal is read-only again.`);
  },
});
