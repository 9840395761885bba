// /cd <dir>: changes the folder the CLI works in (restarting it there on the next message).
import { z } from 'zod';
import { resolveDir } from './projects.js';
import { defineCommand } from './types.js';

export const cdCommand = defineCommand({
  name: 'cd',
  aliases: [],
  usage: '/cd <folder>',
  summary: 'work in another folder (absolute, ~/…, or relative to the current one)',
  level: 'operate',
  args: z.string().trim().min(1, 'a folder is required'),
  async run(ctx, dir) {
    const base = ctx.currentSession()?.cwd ?? ctx.bot.workingDir;
    const target = resolveDir(dir, base);
    if (!(await ctx.isDirectory(target))) return ctx.reply(`${target} is not a folder on this machine.`);
    const res = await ctx.setWorkingDir(target);
    if (!res.ok) return ctx.reply(`Could not change folder: ${res.message}`);
    await ctx.reply(
      res.appliesTo === 'restarted'
        ? `Folder set to ${target}. The CLI was stopped; your next message starts it there.`
        : `Folder set to ${target}. Your next message starts the CLI there.`,
    );
  },
});
