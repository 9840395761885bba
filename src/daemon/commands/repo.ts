// /repo [name]: pick a project — a picker card of configured projects and git repos under workingDir, or switch by name.
import { z } from 'zod';
import { defineCommand } from './types.js';

export const repoCommand = defineCommand({
  name: 'repo',
  aliases: ['project', 'projects'],
  usage: '/repo [name]',
  summary: 'choose a project folder',
  level: 'operate',
  args: z.string().trim(),
  async run(ctx, name) {
    const projects = await ctx.listProjects();
    if (projects.length === 0) {
      return ctx.reply(`No projects found: list folders under "projects" in config.json, or put git repositories in ${ctx.bot.workingDir}. /cd <folder> works for any folder.`);
    }
    if (name) {
      const wanted = name.toLowerCase();
      const match = projects.find((p) => p.label.toLowerCase() === wanted || p.path === name);
      if (!match) return ctx.reply(`No project named "${name}". Known: ${projects.map((p) => p.label).join(', ')}`);
      const res = await ctx.setWorkingDir(match.path);
      if (!res.ok) return ctx.reply(`Could not switch to ${match.label}: ${res.message}`);
      return ctx.reply(`Project ${match.label} (${match.path}). ${res.appliesTo === 'restarted' ? 'The CLI was stopped; your next message starts it there.' : 'Your next message starts the CLI there.'}`);
    }
    const current = ctx.currentSession()?.cwd;
    const sent = await ctx.sendCard({
      kind: 'picker',
      anchorKey: ctx.anchor.sessionKey,
      title: 'Choose a project',
      projects: projects.map((p) => ({ label: p.label, path: p.path })),
      ...(current && projects.some((p) => p.path === current) ? { chosen: current } : {}),
    });
    if (!sent.ok) await ctx.reply(`Could not show the project list: ${sent.message}. Use /repo <name>: ${projects.map((p) => p.label).join(', ')}`);
  },
});
