// /cd <dir>: changes the folder the CLI works in (restarting it there on the next message).
import { z } from 'zod';
import type { MessageKey } from '../../shared/i18n.js';
import { resolveDir } from './projects.js';
import { defineCommand } from './types.js';

export const cdCommand = defineCommand({
  name: 'cd',
  usage: '/cd <folder>',
  summary: 'cmd.summary.cd',
  level: 'operate',
  args: z.string().trim().min(1, 'cmd.cd.folderRequired' satisfies MessageKey),
  // A project picked on the picker card: the card says which, and the message that waited for it starts there.
  taps: {
    project: async (ctx, v, tap) => {
      await ctx.updateCard(tap.cardMessageId, { kind: 'picker', anchorKey: v.anchorKey, title: ctx.t('session.projectChosen'), projects: [], chosen: v.path });
      await ctx.answerPicker(v.path);
    },
  },
  async run(ctx, dir) {
    const base = ctx.currentSession()?.cwd ?? ctx.bot.workingDir;
    const target = resolveDir(dir, base);
    if (!(await ctx.isDirectory(target))) return ctx.reply(ctx.t('cmd.cd.notFolder', { path: target }));
    const res = await ctx.setWorkingDir(target);
    if (!res.ok) return ctx.reply(ctx.t('cmd.cd.failed', { reason: res.message }));
    await ctx.reply(
      ctx.t(res.appliesTo === 'restarted' ? 'cmd.cd.restarted' : 'cmd.cd.next', { path: target }),
    );
  },
});
