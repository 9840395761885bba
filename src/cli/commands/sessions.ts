// `larkmux sessions [list|close <id>|prune]`: the sessions the daemon knows, closing one, removing orphaned tmux sessions.
import { controlCall } from '../../platform/control-client.js';
import { readConfigFile } from '../../platform/config-file.js';
import type { SessionSummary } from '../../shared/control-protocol.js';
import { classifyTmuxSessions, killTmuxSessions, listTmuxSessions, ownedTmuxNamesOnDisk } from '../../platform/tmux-sessions.js';
import { tmuxSocketName } from '../../shared/tmux-socket.js';
import { EXIT, type CliCommand, type CliContext } from '../types.js';

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : s < 86400 ? `${Math.round(s / 3600)}h ago` : `${Math.round(s / 86400)}d ago`;
}

async function list({ paths, flags, cmd, out, err }: CliContext): Promise<number> {
  const res = await controlCall(paths.controlSocket, { cmd: 'sessions' });
  if (!res.ok) {
    err(res.code === 'not_running' ? `larkmux is not running. Start it with: ${cmd} start` : res.message);
    return res.code === 'not_running' ? EXIT.notRunning : EXIT.failure;
  }
  const sessions = res.data as SessionSummary[];
  if (flags.json) {
    out(JSON.stringify(sessions, null, 2));
    return EXIT.ok;
  }
  if (!sessions.length) out('no sessions yet');
  for (const s of sessions) {
    const state = s.lifecycle === 'live' && !s.worker ? 'detached' : s.lifecycle;
    out(`${s.id.slice(0, 8)}  ${s.bot.padEnd(10)} ${s.cli.padEnd(12)} ${s.status.padEnd(8)} ${state.padEnd(9)} ${ago(s.lastActivityAt).padEnd(8)} ${s.key.split('::')[0]}  ${s.host ? `${s.host}:` : ''}${s.cwd}`);
  }
  return EXIT.ok;
}

async function close({ paths, args, cmd, out, err }: CliContext): Promise<number> {
  const id = args[1];
  if (!id || !/^[0-9a-f]{4,32}$/.test(id)) {
    err(`usage: ${cmd} sessions close <session id (or its first characters)>`);
    return EXIT.usage;
  }
  const res = await controlCall(paths.controlSocket, { cmd: 'session_close', sessionId: id }, 30_000);
  if (!res.ok) {
    err(res.code === 'not_running' ? `larkmux is not running; start it first (${cmd} start)` : res.message);
    return EXIT.failure;
  }
  out(`closed session ${id}: its CLI was ended.`);
  return EXIT.ok;
}

async function prune({ paths, env, cmd, out, err }: CliContext): Promise<number> {
  const viaDaemon = await controlCall(paths.controlSocket, { cmd: 'prune' }, 30_000);
  let removed: string[];
  if (viaDaemon.ok) removed = (viaDaemon.data as { removed: string[] }).removed;
  else if (viaDaemon.code === 'not_running') {
    const cfg = readConfigFile(paths.config, env);
    if (!cfg.ok) {
      err(`${paths.config} is invalid; fix it first (${cmd} doctor)`);
      return EXIT.failure;
    }
    const owned = ownedTmuxNamesOnDisk(paths.home);
    if (!owned.complete) {
      err(`a session store could not be read, so nothing was pruned (${cmd} doctor shows which)`);
      return EXIT.failure;
    }
    const socket = tmuxSocketName(cfg.config.tmux.socket, paths.home);
    const listed = await listTmuxSessions(socket);
    if (!listed.ok) {
      err(listed.message);
      return EXIT.failure;
    }
    const report = classifyTmuxSessions(listed.names, owned.names);
    removed = await killTmuxSessions(socket, [...report.orphans, ...report.diag]);
  } else {
    err(viaDaemon.message);
    return EXIT.failure;
  }
  out(removed.length ? `removed ${removed.length} tmux session(s): ${removed.join(', ')}` : 'nothing to prune');
  return EXIT.ok;
}

const ACTIONS: Record<string, (ctx: CliContext) => Promise<number>> = { list, close, prune };

export const sessions: CliCommand = {
  name: 'sessions',
  summary: 'List sessions; `close <id>` ends one; `prune` removes orphaned tmux sessions',
  params: '[list | close <id> | prune]',
  flags: [{ name: 'json', description: 'Print machine-readable JSON (list)' }],
  async run(ctx) {
    const action = ACTIONS[ctx.args[0] ?? 'list'];
    if (!action) {
      ctx.err(`larkmux sessions: unknown action "${ctx.args[0]}" (list, close <id>, prune)`);
      return EXIT.usage;
    }
    return action(ctx);
  },
};
