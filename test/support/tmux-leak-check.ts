// vitest global setup (both projects): every tmux server a test starts is ended by that test. The run records the
// servers' names (test/support/tmux-registry.ts); at its end, any of them that still answers is named on stderr with
// its sessions, killed, and the run fails. Only recorded names are looked at, so a server that is not this run's (the
// developer's own, CI's, another run's next to this one) is never touched.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registeredTestTmuxSockets, TMUX_REGISTRY_ENV } from './tmux-registry.js';
import { alive, tmuxSocketPath } from './tmux.js';

/** A server that got kill-server is given this long to exit before SIGKILL. */
const SERVER_EXIT_WAIT_MS = 2_000;

interface RunState {
  dir: string;
  /** Projects of this vitest process whose teardown has not run yet: the last one removes the directory. */
  users: number;
}

/** Shared by the projects of one vitest process (each loads this file on its own). */
const STATE_KEY = Symbol.for('larkmux.test.tmuxRegistry');
type WithState = typeof globalThis & { [STATE_KEY]?: RunState };

function tmux(socket: string, args: readonly string[]): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return new Promise((resolve) => {
    execFile('tmux', ['-L', socket, ...args], { env, timeout: 10_000 }, (err, stdout) => resolve({ code: err ? 1 : 0, stdout }));
  });
}

/** The server on `socket` if one answers: its pid and sessions. */
async function liveServer(socket: string): Promise<{ pid: number; sessions: string[] } | null> {
  const res = await tmux(socket, ['list-sessions', '-F', '#{pid} #{session_name}']);
  if (res.code !== 0) return null;
  const lines = res.stdout.split('\n').filter(Boolean);
  const pid = Number(lines[0]?.split(' ')[0]);
  return { pid: Number.isInteger(pid) ? pid : 0, sessions: lines.map((l) => l.slice(l.indexOf(' ') + 1)) };
}

async function killServer(socket: string, pid: number): Promise<void> {
  await tmux(socket, ['kill-server']);
  for (let waited = 0; pid > 0 && alive(pid) && waited < SERVER_EXIT_WAIT_MS; waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(tmuxSocketPath(socket), { force: true });
}

/** Finds, reports and kills the recorded servers that still run; true when there were any. */
export async function endSurvivors(dir: string, report: (text: string) => void): Promise<boolean> {
  const survivors: string[] = [];
  for (const socket of registeredTestTmuxSockets(dir)) {
    const server = await liveServer(socket);
    if (!server) continue;
    survivors.push(`  tmux -L ${socket} (pid ${server.pid}; sessions: ${server.sessions.join(', ') || 'none'})`);
    await killServer(socket, server.pid);
  }
  if (survivors.length === 0) return false;
  report([
    '',
    `FAIL: ${survivors.length} tmux server(s) started by this test run were still running after it (every test ends what it started):`,
    ...survivors,
    'They have been killed now. Find the test by the session names and end the server in its cleanup.',
    '',
  ].join('\n'));
  return true;
}

export default function setup(): () => Promise<void> {
  const g = globalThis as WithState;
  const state = (g[STATE_KEY] ??= { dir: mkdtempSync(join(tmpdir(), 'lmx-test-tmux-servers-')), users: 0 });
  state.users++;
  process.env[TMUX_REGISTRY_ENV] = state.dir;
  return async () => {
    if (await endSurvivors(state.dir, (t) => process.stderr.write(t))) process.exitCode = 1;
    if (--state.users > 0) return;
    rmSync(state.dir, { recursive: true, force: true });
    delete g[STATE_KEY];
    delete process.env[TMUX_REGISTRY_ENV];
  };
}
