// Starting, finding and stopping the background daemon from the `larkmux` command.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { controlCall } from '../platform/control-client.js';
import { DaemonStatusSchema, type DaemonStatus } from '../shared/control-protocol.js';
import type { LarkmuxPaths } from '../platform/paths.js';
import { isAlive, readPid } from '../platform/pid-lock.js';

export const DAEMON_TIMING = {
  /** The daemon answers on its socket within a second normally; allow for a slow first start. */
  startTimeoutMs: 20_000,
  /** A graceful stop detaches every worker (each gets a few seconds), then exits. */
  stopTimeoutMs: 15_000,
  pollMs: 100,
} as const;

export function daemonEntry(): { entry: string; execArgv: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const js = join(here, '..', 'daemon', 'main.js');
  if (existsSync(js)) return { entry: js, execArgv: [] };
  return { entry: join(here, '..', 'daemon', 'main.ts'), execArgv: ['--import', 'tsx'] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type RunningState = { running: true; status: DaemonStatus } | { running: false; stalePid?: number };

export async function daemonState(paths: LarkmuxPaths): Promise<RunningState> {
  const res = await controlCall(paths.controlSocket, { cmd: 'status' }, 3000);
  if (res.ok) {
    const st = DaemonStatusSchema.safeParse(res.data);
    if (st.success) return { running: true, status: st.data };
  }
  const pid = readPid(paths.pidFile);
  return pid && !isAlive(pid) ? { running: false, stalePid: pid } : { running: false };
}

export type StartResult = { ok: true; pid: number } | { ok: false; code: 'already_running'; pid: number } | { ok: false; code: 'failed'; message: string };

/** Spawns the daemon detached (its stdio appended to the log) and waits until it answers on the control socket. */
export async function startDetached(paths: LarkmuxPaths, env: NodeJS.ProcessEnv): Promise<StartResult> {
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const { entry, execArgv } = daemonEntry();
  const outFd = openSync(join(paths.logs, 'daemon.out'), 'a', 0o600);
  const child = spawn(process.execPath, [...execArgv, entry], {
    detached: true,
    stdio: ['ignore', outFd, outFd],
    env: { ...env, LARKMUX_HOME: paths.home },
  });
  closeSync(outFd);
  let exitCode: number | null = null;
  child.on('exit', (code) => {
    exitCode = code ?? 1;
  });
  child.unref();
  const deadline = Date.now() + DAEMON_TIMING.startTimeoutMs;
  while (Date.now() < deadline) {
    const res = await controlCall(paths.controlSocket, { cmd: 'ping' }, 1000);
    if (res.ok) {
      const pid = (res.data as { pid?: number }).pid ?? child.pid ?? 0;
      if (pid !== child.pid) return { ok: false, code: 'already_running', pid };
      return { ok: true, pid };
    }
    if (exitCode !== null) {
      if (exitCode === 3) {
        const pid = readPid(paths.pidFile) ?? 0;
        return { ok: false, code: 'already_running', pid };
      }
      return { ok: false, code: 'failed', message: `the daemon exited with code ${exitCode}` };
    }
    await sleep(DAEMON_TIMING.pollMs);
  }
  return { ok: false, code: 'failed', message: 'the daemon did not answer within 20 s' };
}

export type StopResult = { ok: true; pid: number | null } | { ok: false; message: string };

/** Asks the daemon to stop (workers detach; tmux sessions stay) and waits for its pid to go. */
export async function stopDaemon(paths: LarkmuxPaths): Promise<StopResult> {
  const pid = readPid(paths.pidFile);
  const res = await controlCall(paths.controlSocket, { cmd: 'stop' }, 3000);
  if (!res.ok && res.code === 'not_running') {
    if (pid && isAlive(pid)) process.kill(pid, 'SIGTERM');
    else return { ok: true, pid: null };
  }
  const deadline = Date.now() + DAEMON_TIMING.stopTimeoutMs;
  while (pid && isAlive(pid) && Date.now() < deadline) await sleep(DAEMON_TIMING.pollMs);
  if (pid && isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    await sleep(2000);
    if (isAlive(pid)) return { ok: false, message: `the daemon (pid ${pid}) did not stop; kill it with: kill ${pid}` };
  }
  return { ok: true, pid };
}
