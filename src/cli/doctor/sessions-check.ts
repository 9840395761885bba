// Doctor lines about sessions: orphaned tmux sessions, kept diagnostic panes, damaged stores moved aside.
import { controlCall } from '../../platform/control-client.js';
import { classifyTmuxSessions, damagedStoreFiles, listTmuxSessions, ownedTmuxNamesOnDisk, type OrphanReport } from '../../platform/tmux-sessions.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { legacyTmuxSocket, sessionsOnLegacyServer, tmuxAttachHint, tmuxSocketName } from '../../shared/tmux-socket.js';
import type { DoctorCheck, DoctorLine } from './types.js';

export const sessionsCheck: DoctorCheck = async ({ paths, env, config }) => {
  const lines: DoctorLine[] = [];
  for (const f of damagedStoreFiles(paths.home)) {
    lines.push({ level: 'WARN', label: 'store', detail: `a damaged store was kept aside: ${f}`, fix: 'inspect it; sessions it held were not restored (delete it once you no longer need it)' });
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
    if (report.orphans.length) lines.push({ level: 'WARN', label: 'tmux orphans', detail: `no session owns ${report.orphans.join(', ')}`, fix: `${larkmuxCommand(env)} sessions prune` });
    if (report.diag.length) lines.push({ level: 'WARN', label: 'tmux diagnostics', detail: `failed launches kept for inspection: ${report.diag.join(', ')}`, fix: `look with \`${tmuxAttachHint(tmuxSocketName(config?.tmux.socket, paths.home))}\`, then ${larkmuxCommand(env)} sessions prune` });
    if (!report.orphans.length && !report.diag.length) lines.push({ level: 'OK', label: 'tmux sessions', detail: 'no orphaned larkmux sessions' });
  }
  if (config) lines.push(...(await legacyServerLines(tmuxSocketName(config.tmux.socket, paths.home), legacyTmuxSocket(config.tmux.socket, env), paths.home)));
  if (!lines.some((l) => l.label === 'store')) lines.push({ level: 'OK', label: 'stores', detail: 'no damaged store files' });
  return lines;
};

/**
 * This home's open sessions that still run on the default tmux server (from before a server per home): the daemon
 * serves them there; doctor names them and how to look at them, since `tmux ls` on the home's server never shows them.
 */
async function legacyServerLines(homeSocket: string, legacySocket: string | null, home: string): Promise<DoctorLine[]> {
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
    detail: `${names.length} session(s) of this home still run on the default tmux server, from before larkmux used a server per home: ${names.join(', ')}; larkmux serves them there (nothing is killed)`,
    fix: `look with \`${tmuxAttachHint(legacySocket, names[0])}\`; close one (/close in its topic) when its work is done, and its chat starts the next CLI on this home's server`,
  }];
}
