// /diff: what changed in the working folder's git tree since the session's last turn began, as a change card.
import { z } from 'zod';
import type { MessageKey } from '../../shared/i18n.js';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

const WHY_NOT: Record<'none' | 'not_git' | 'no_turn', MessageKey> = { none: 'changes.none', not_git: 'changes.notGit', no_turn: 'changes.noTurn' };

export const diffCommand = defineCommand({
  name: 'diff',
  aliases: ['changes'],
  usage: '/diff',
  summary: 'cmd.summary.diff',
  level: 'talk',
  args: z.string(),
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(ctx.t(NO_SESSION_REPLY));
    const r = await ctx.postChanges(s.id);
    if (r !== 'posted') await ctx.reply(ctx.t(WHY_NOT[r]));
  },
});
