// /status: what the session at this anchor is doing, and how many sessions the bot has.
import { statusLabel } from '../../shared/card-model.js';
import { plural, type Translate } from '../../shared/i18n.js';
import { sessionHost, type SessionLifecycle } from '../ground/session-core.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { formatPlace } from '../../shared/session-place.js';
import { defineCommand, type CommandContext } from './types.js';

function cliName(ctx: CommandContext, cli: CommandContext['bot']['cli']): string {
  return typeof cli === 'string' ? cli : cli.command;
}

export function ago(ms: number, t: Translate): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return t('cmd.ago.s', { n: s });
  if (s < 3600) return t('cmd.ago.m', { n: Math.round(s / 60) });
  if (s < 86_400) return t('cmd.ago.h', { n: Math.round(s / 3600) });
  return t('cmd.ago.d', { n: Math.round(s / 86_400) });
}

/** A session's process state (live, detached, stopped, closed) as a user reads it. */
export function lifecycleLabel(lifecycle: SessionLifecycle, t: Translate): string {
  return t(`cmd.lifecycle.${lifecycle}`);
}

export const statusCommand = defineCommand({
  name: 'status',
  aliases: ['st'],
  usage: '/status',
  summary: 'cmd.summary.status',
  level: 'talk',
  async run(ctx) {
    const open = ctx.listSessions().filter((s) => s.lifecycle !== 'closed').length;
    const s = ctx.currentSession();
    const { t } = ctx;
    const footer = t(plural('cmd.status.footer', open), { bot: ctx.bot.name, count: open });
    if (!s) return ctx.reply(`${t('cmd.status.noSession', { cli: cliName(ctx, ctx.bot.cli), dir: formatPlace(ctx.bot.defaultPlace) })}\n${footer}`);
    const rt = ctx.sessionRuntime(s.id);
    const cli = cliName(ctx, s.cli);
    const lines = [
      t('cmd.status.session', { id: s.id.slice(0, 8), status: statusLabel(s.status, t) }),
      s.nativeSessionId ? t('cmd.status.cliConversation', { cli, conversation: s.nativeSessionId }) : t('cmd.status.cli', { cli }),
      ...(sessionHost(s) === LOCAL_HOST ? [] : [t('cmd.status.host', { host: sessionHost(s) })]),
      t('cmd.status.folder', { path: s.cwd }),
      t(rt ? (rt.workerLive ? 'cmd.status.processObserved' : 'cmd.status.processNotObserved') : 'cmd.status.process', { lifecycle: lifecycleLabel(s.lifecycle, t) }),
      t('cmd.status.lastActivity', { ago: ago(ctx.now - s.lastActivityAt, t) }),
    ];
    if (rt?.viewUrl) lines.push(t('cmd.status.watch', { url: rt.viewUrl }));
    lines.push(footer);
    await ctx.reply(lines.join('\n'));
  },
});
