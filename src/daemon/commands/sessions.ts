// /sessions: the bot's open sessions, most recently active first.
import { z } from 'zod';
import { STATUS_LOOK } from '../../shared/card-model.js';
import { ago } from './status.js';
import { defineCommand } from './types.js';

/** A chat message longer than this scrolls off a phone screen; `larkmux sessions` shows everything. */
export const SESSIONS_LIST_MAX = 20;

export const sessionsCommand = defineCommand({
  name: 'sessions',
  aliases: ['ls'],
  usage: '/sessions',
  summary: "list this bot's open sessions",
  level: 'operate',
  args: z.string(),
  async run(ctx) {
    const open = ctx.listSessions().filter((s) => s.lifecycle !== 'closed').sort((a, b) => b.lastActivityAt - a.lastActivityAt);
    if (open.length === 0) return ctx.reply('No open sessions.');
    const here = ctx.currentSession()?.id;
    const lines = open.slice(0, SESSIONS_LIST_MAX).map((s) => {
      const mark = s.id === here ? ' ← here' : '';
      return `${s.id.slice(0, 8)} ${STATUS_LOOK[s.status].label} · ${s.lifecycle} · ${s.cwd} · ${ago(ctx.now - s.lastActivityAt)}${mark}`;
    });
    if (open.length > SESSIONS_LIST_MAX) lines.push(`… and ${open.length - SESSIONS_LIST_MAX} more (larkmux sessions on the host lists all).`);
    await ctx.reply(`${open.length} open session${open.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
  },
});
