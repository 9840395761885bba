// /revoke-term: ends every web-terminal write grant of this session (open links and connected writers);
// /revoke-term --view: gives the session a new view token instead, so a leaked card link stops working.
import { z } from 'zod';
import { plural } from '../../shared/i18n.js';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const revokeTermCommand = defineCommand({
  name: 'revoke-term',
  aliases: [],
  usage: '/revoke-term [--view]',
  summary: 'cmd.summary.revokeTerm',
  level: 'operate',
  args: z.string(),
  async run(ctx, args) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(ctx.t(NO_SESSION_REPLY));
    if (args.trim() === '--view') {
      const res = await ctx.rotateViewToken(s.id);
      return ctx.reply(res ? ctx.t('webTerm.viewRotated', { connections: res.connections }) : ctx.t('webTerm.off'));
    }
    const n = await ctx.revokeWriteGrants(s.id);
    await ctx.reply(n === 0 ? ctx.t('cmd.revokeTerm.none') : ctx.t(plural('cmd.revokeTerm.done', n), { count: n }));
  },
});
