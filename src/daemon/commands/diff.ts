// /diff: what changed in the working folder's git tree since the session's last turn began, as a change card.
import type { MessageKey } from '../../shared/i18n.js';
import { defineSessionCommand } from './types.js';

const WHY_NOT: Record<'none' | 'not_git' | 'no_turn', MessageKey> = { none: 'changes.none', not_git: 'changes.notGit', no_turn: 'changes.noTurn' };

export const diffCommand = defineSessionCommand({
  name: 'diff',
  aliases: ['changes'],
  usage: '/diff',
  summary: 'cmd.summary.diff',
  level: 'talk',
  async run(ctx, s) {
    const r = await ctx.postChanges(s.id);
    if (r !== 'posted') await ctx.reply(ctx.t(WHY_NOT[r]));
  },
});
