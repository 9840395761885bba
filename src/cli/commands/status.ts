// `larkmux status`: daemon pid and uptime, bots and their connections, sessions (`--json` for scripts).
import { readConfigFile } from '../../platform/config-file.js';
import { tmuxSocketName } from '../../shared/tmux-socket.js';
import { daemonState } from '../daemon-process.js';
import type { DaemonStatus } from '../../shared/control-protocol.js';
import { webProblemReason } from '../../shared/web-port-problem.js';
import { EXIT, type CliCommand } from '../types.js';

function duration(sec: number): string {
  const d = Math.floor(sec / 86400);
  const h = Math.floor((sec % 86400) / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  return d ? `${d}d ${h}h` : h ? `${h}h ${m}m` : m ? `${m}m ${s}s` : `${s}s`;
}

/** The web port's truth: listening where, or not and why (issue 31 item 12). */
export function webPortLine(st: Pick<DaemonStatus, 'webUrl' | 'webProblem'>): string {
  if (st.webUrl) return `web port: listening on ${st.webUrl}`;
  if (st.webProblem) return `web port: not listening because ${webProblemReason(st.webProblem)}`;
  return 'web port: starting';
}

export const status: CliCommand = {
  name: 'status',
  summary: 'Show the daemon, its bots and sessions',
  flags: [{ name: 'json', description: 'Print machine-readable JSON' }],
  async run({ flags, paths, env, cmd, t, out }) {
    const state = await daemonState(paths);
    if (!state.running) {
      if (flags.json) out(JSON.stringify({ running: false, home: paths.home }));
      else out(state.stalePid ? t('cli.notRunningStale', { pid: state.stalePid, cmd }) : t('cli.notRunning', { cmd }));
      return EXIT.notRunning;
    }
    const st = state.status;
    if (flags.json) {
      out(JSON.stringify(st, null, 2));
      return EXIT.ok;
    }
    out(t('cli.running', { version: st.version, pid: st.pid, uptime: duration(st.uptimeSec), home: st.home }));
    const cfg = readConfigFile(paths.config, env);
    if (cfg.ok) out(`tmux server: ${tmuxSocketName(cfg.config.tmux.socket, paths.home)} (look with: tmux -L ${tmuxSocketName(cfg.config.tmux.socket, paths.home)} ls)`);
    out(webPortLine(st));
    // The web problem has its own line above; the notice repeats it for `larkmux` versions that read only the notice.
    const notice = (st.webProblem ? st.notice?.replace(st.webProblem, '') : st.notice)?.replace(/^(; )+|(; )+$/g, '');
    if (notice) out(`note: ${notice}`);
    if (st.restore?.state === 'restoring') out(`restoring stored sessions: ${st.restore.sessions} registered so far (${st.restore.bots}/${st.restore.botsTotal} bots)`);
    out(`bots (${st.bots.length}):`);
    for (const b of st.bots) {
      out(`  ${b.name.padEnd(16)} ${b.appId}  ${b.state}${b.detail ? ` (${b.detail})` : ''}  workers ${b.liveWorkers}/${b.maxLiveWorkers}  clis ${b.liveClis}/${b.maxLiveClis}`);
    }
    if (st.console) out(`console: ${st.console.state}${st.console.state === 'unavailable' ? ' (nobody can open it until the web port listens)' : ''}  workers ${st.console.liveWorkers}/${st.console.maxLiveWorkers}  clis ${st.console.liveClis}/${st.console.maxLiveClis}  (${cmd} start prints its link)`);
    out(`sessions (${st.sessions.length}), live workers ${st.workers}:`);
    for (const s of st.sessions) {
      out(`  ${s.id.slice(0, 8)}  ${s.bot.padEnd(12)} ${s.cli.padEnd(12)} ${s.status.padEnd(8)} ${s.lifecycle.padEnd(9)} ${s.host ? `${s.host}:` : ''}${s.cwd}`);
    }
    return EXIT.ok;
  },
};
