// /sessions: the bot's open sessions, most recently active first.
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { statusLabel } from '../../shared/card-model.js';
import { plural } from '../../shared/i18n.js';
import { ago, lifecycleLabel } from './status.js';
import { defineCommand } from './types.js';
import { formatPlace } from '../../shared/session-place.js';
import { sessionHost } from '../ground/session-core.js';

/** A chat message longer than this scrolls off a phone screen; `larkmux sessions` shows everything. */
export const SESSIONS_LIST_MAX = 20;

export const sessionsCommand = defineCommand({
  name: 'sessions',
  aliases: ['ls'],
  usage: '/sessions',
  summary: 'cmd.summary.sessions',
  level: 'operate',
  async run(ctx) {
    const open = ctx.listSessions().filter((s) => s.lifecycle !== 'closed').sort((a, b) => b.lastActivityAt - a.lastActivityAt);
    if (open.length === 0) return ctx.reply(ctx.t('cmd.sessions.none'));
    const here = ctx.currentSession()?.id;
    const lines = open.slice(0, SESSIONS_LIST_MAX).map((s) => {
      const mark = s.id === here ? ctx.t('cmd.sessions.here') : '';
      return `${s.id.slice(0, 8)} ${statusLabel(s.status, ctx.t)} · ${lifecycleLabel(s.lifecycle, ctx.t)} · ${formatPlace({ host: sessionHost(s), dir: s.cwd })} · ${ago(ctx.now - s.lastActivityAt, ctx.t)}${mark}`;
    });
    if (open.length > SESSIONS_LIST_MAX) lines.push(ctx.t('cmd.sessions.more', { count: open.length - SESSIONS_LIST_MAX, cmd: larkmuxCommand() }));
    await ctx.reply(`${ctx.t(plural('cmd.sessions.header', open.length), { count: open.length })}\n${lines.join('\n')}`);
  },
});
