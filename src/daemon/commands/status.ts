// /status: what the session at this anchor is doing, and how many sessions the bot has.
import { z } from 'zod';
import { STATUS_LOOK } from '../../shared/card-model.js';
import { defineCommand, type CommandContext } from './types.js';

function cliName(ctx: CommandContext, cli: CommandContext['bot']['cli']): string {
  return typeof cli === 'string' ? cli : cli.command;
}

export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}

export const statusCommand = defineCommand({
  name: 'status',
  aliases: ['st'],
  usage: '/status',
  summary: "this session's CLI, folder and state",
  level: 'talk',
  args: z.string(),
  async run(ctx) {
    const open = ctx.listSessions().filter((s) => s.lifecycle !== 'closed').length;
    const s = ctx.currentSession();
    const footer = `Bot ${ctx.bot.name}: ${open} open session${open === 1 ? '' : 's'}.`;
    if (!s) return ctx.reply(`No session here yet; the next message starts ${cliName(ctx, ctx.bot.cli)} in ${ctx.bot.workingDir}.\n${footer}`);
    const rt = ctx.sessionRuntime(s.id);
    const lines = [
      `Session ${s.id.slice(0, 8)} — ${STATUS_LOOK[s.status].label}`,
      `CLI: ${cliName(ctx, s.cli)}${s.nativeSessionId ? ` (conversation ${s.nativeSessionId})` : ''}`,
      `Folder: ${s.cwd}`,
      `Process: ${s.lifecycle}${rt ? (rt.workerLive ? ', observed' : ', not observed') : ''}`,
      `Last activity: ${ago(ctx.now - s.lastActivityAt)}`,
    ];
    if (rt?.viewUrl) lines.push(`Watch: ${rt.viewUrl}`);
    lines.push(footer);
    await ctx.reply(lines.join('\n'));
  },
});
