// /repo [name]: pick a project — a picker card of configured projects and git repos under workingDir, or switch by name.
import { z } from 'zod';
import { defineCommand } from './types.js';

export const repoCommand = defineCommand({
  name: 'repo',
  aliases: ['project', 'projects'],
  usage: '/repo [name]',
  summary: 'cmd.summary.repo',
  level: 'operate',
  args: z.string().trim(),
  async run(ctx, name) {
    const projects = await ctx.listProjects();
    if (projects.length === 0) {
      return ctx.reply(ctx.t('cmd.repo.none', { dir: ctx.bot.workingDir }));
    }
    if (name) {
      const wanted = name.toLowerCase();
      const match = projects.find((p) => p.label.toLowerCase() === wanted || p.path === name);
      if (!match) return ctx.reply(ctx.t('cmd.repo.unknown', { name, known: projects.map((p) => p.label).join(', ') }));
      const res = await ctx.setWorkingDir(match.path);
      if (!res.ok) return ctx.reply(ctx.t('cmd.repo.failed', { project: match.label, reason: res.message }));
      return ctx.reply(ctx.t(res.appliesTo === 'restarted' ? 'cmd.repo.restarted' : 'cmd.repo.next', { project: match.label, path: match.path }));
    }
    const current = ctx.currentSession()?.cwd;
    const sent = await ctx.sendCard({
      kind: 'picker',
      anchorKey: ctx.anchor.sessionKey,
      title: ctx.t('cmd.repo.pickerTitle'),
      projects: projects.map((p) => ({ label: p.label, path: p.path })),
      ...(current && projects.some((p) => p.path === current) ? { chosen: current } : {}),
    });
    if (!sent.ok) await ctx.reply(ctx.t('cmd.repo.pickerFailed', { reason: sent.message, known: projects.map((p) => p.label).join(', ') }));
  },
});
