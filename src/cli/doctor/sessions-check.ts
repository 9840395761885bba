// Doctor lines about sessions: orphaned tmux sessions, kept diagnostic panes, damaged stores moved aside.
import { controlCall } from '../../platform/control-client.js';
import { classifyTmuxSessions, damagedStoreFiles, listTmuxSessions, ownedTmuxNamesOnDisk, type OrphanReport } from '../../platform/tmux-sessions.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { legacyTmuxSocket, sessionsOnLegacyServer, tmuxAttachHint, tmuxSocketName } from '../../shared/tmux-socket.js';
import type { Translate } from '../../shared/i18n.js';
import type { DoctorCheck, DoctorLine } from './types.js';

export const sessionsCheck: DoctorCheck = async ({ paths, env, config, t }) => {
  const lines: DoctorLine[] = [];
  for (const f of damagedStoreFiles(paths.home)) {
    lines.push({ level: 'WARN', label: 'store', detail: t('doctor.store.damaged', { file: f }), fix: t('doctor.store.damagedFix') });
  }
  let report: OrphanReport | null = null;
  const viaDaemon = await controlCall(paths.controlSocket, { cmd: 'orphans' }, 5000);
  if (viaDaemon.ok) report = viaDaemon.data as OrphanReport;
  else if (config) {
    const listed = await listTmuxSessions(tmuxSocketName(config.tmux.socket, paths.home));
    const owned = ownedTmuxNamesOnDisk(paths.home);
    if (listed.ok && owned.complete) report = classifyTmuxSessions(listed.names, owned.names);
  }
  if (report) {
    if (report.orphans.length) lines.push({ level: 'WARN', label: 'tmux orphans', detail: t('doctor.sessions.orphans', { names: report.orphans.join(', ') }), fix: `${larkmuxCommand(env)} sessions prune` });
    if (report.diag.length) lines.push({ level: 'WARN', label: 'tmux diagnostics', detail: t('doctor.sessions.diag', { names: report.diag.join(', ') }), fix: t('doctor.sessions.diagFix', { attach: tmuxAttachHint(tmuxSocketName(config?.tmux.socket, paths.home)), cmd: larkmuxCommand(env) }) });
    if (!report.orphans.length && !report.diag.length) lines.push({ level: 'OK', label: 'tmux sessions', detail: t('doctor.sessions.ok') });
  }
  if (config) lines.push(...(await legacyServerLines(tmuxSocketName(config.tmux.socket, paths.home), legacyTmuxSocket(config.tmux.socket, env), paths.home, t)));
  if (!lines.some((l) => l.label === 'store')) lines.push({ level: 'OK', label: 'stores', detail: t('doctor.store.ok') });
  return lines;
};

/**
 * This home's open sessions that still run on the default tmux server (from before a server per home): the daemon
 * serves them there; doctor names them and how to look at them, since `tmux ls` on the home's server never shows them.
 */
async function legacyServerLines(homeSocket: string, legacySocket: string | null, home: string, t: Translate): Promise<DoctorLine[]> {
  if (!legacySocket) return [];
  const owned = ownedTmuxNamesOnDisk(home);
  if (owned.names.size === 0) return [];
  const [onHome, onLegacy] = await Promise.all([listTmuxSessions(homeSocket), listTmuxSessions(legacySocket)]);
  if (!onHome.ok || !onLegacy.ok) return [];
  const names = sessionsOnLegacyServer(owned.names, onHome.names, onLegacy.names);
  if (!names.length) return [];
  return [{
    level: 'WARN',
    label: 'old tmux server',
    detail: t('doctor.sessions.legacy', { count: names.length, names: names.join(', ') }),
    fix: t('doctor.sessions.legacyFix', { attach: tmuxAttachHint(legacySocket, names[0]) }),
  }];
}
