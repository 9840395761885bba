// Test helper: an isolated tmux server per test (`tmux -L lmx-t-<random>`) that is always killed afterwards.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { registerTestTmuxSocket } from './tmux-registry.js';

export interface TmuxRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestTmuxServer {
  /** The `-L` socket name; pass it to code under test. */
  socket: string;
  /** Runs `tmux -L <socket> ...args` (argv, no shell); never rejects. */
  run(args: readonly string[]): Promise<TmuxRunResult>;
  /** Kills the server (and every session on it). Safe to call twice. */
  kill(): Promise<void>;
}

/** Whether process `pid` still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file of the `-L <socket>` server, where tmux puts it: $TMUX_TMPDIR (when set and not empty) or /tmp, then
 * tmux-<uid>. tmux leaves it behind when its server is killed; a `-S` path reaches that server from anywhere.
 */
export function tmuxSocketPath(socket: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket);
}

/** A fresh random test socket name, recorded for the end-of-run check that no test server survives (tmux-leak-check.ts). */
export function testTmuxSocket(): string {
  return registerTestTmuxSocket(`lmx-t-${randomBytes(5).toString('hex')}`);
}

/** A fresh server on a random socket, or on `socket` (e.g. the one a test LARKMUX_HOME derives) so the test can kill it. */
export function makeTmuxServer(socket = testTmuxSocket()): TestTmuxServer {
  registerTestTmuxSocket(socket);
  const env = { ...process.env };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const run = (args: readonly string[]): Promise<TmuxRunResult> =>
    new Promise((resolve) => {
      execFile('tmux', ['-L', socket, ...args], { env, timeout: 10_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  const kill = async (): Promise<void> => {
    // The socket file goes only once the server is gone: removing it first would leave a server nobody can reach.
    const pid = Number((await run(['display-message', '-p', '#{pid}'])).stdout.trim());
    await run(['kill-server']);
    if (Number.isInteger(pid) && pid > 0) {
      for (let i = 0; i < 20 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(tmuxSocketPath(socket, env), { force: true });
  };
  return { socket, run, kill };
}
