// /revoke-term: ends every web-terminal write grant of this session (open links and connected writers);
// /revoke-term --view: gives the session a new view token instead, so a leaked card link stops working.
import { z } from 'zod';
import { plural } from '../../shared/i18n.js';
import { defineSessionCommand } from './types.js';

export const revokeTermCommand = defineSessionCommand({
  name: 'revoke-term',
  usage: '/revoke-term [--view]',
  summary: 'cmd.summary.revokeTerm',
  level: 'operate',
  args: z.string(),
  async run(ctx, s, args) {
    if (args.trim() === '--view') {
      const res = await ctx.rotateViewToken(s.id);
      return ctx.reply(res ? ctx.t('webTerm.viewRotated', { connections: res.connections }) : ctx.t('webTerm.off'));
    }
    const n = await ctx.revokeWriteGrants(s.id);
    await ctx.reply(n === 0 ? ctx.t('cmd.revokeTerm.none') : ctx.t(plural('cmd.revokeTerm.done', n), { count: n }));
  },
});
