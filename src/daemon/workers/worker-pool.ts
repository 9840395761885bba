// Forks one worker process per live session, parses everything it says, and reports exits; it restarts nothing itself.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../platform/log.js';
import { HEARTBEAT_TIMING, parseWorkerToDaemon, type DaemonToWorker, type WorkerToDaemon } from '../../shared/ipc.js';
import { SMALL_PROCESS_MALLOC_ENV } from '../../platform/render-process.js';
import { workerEnv } from '../../shared/env-policy.js';
import { LOCAL_HOST } from '../../shared/host-config.js';

export const WORKER_TIMING = {
  /** A worker asked to close gets this long to exit before SIGTERM, then SIGKILL after as long again. */
  closeGraceMs: 5_000,
  /** After this many invalid messages in a row a worker is considered broken and killed. */
  maxConsecutiveInvalid: 50,
  /** How often the supervisor looks at the workers' last signs of life. */
  livenessCheckMs: 5_000,
} as const;

/**
 * V8 settings of every worker. A worker moves bytes and runs small decisions; it does no hot JavaScript (the render
 * process draws), so V8's optimizing tiers only cost memory: measured with the built worker and a shell, lite mode
 * takes an idle worker from 64.5 to 54.2 MB RSS and one after 50 rendered turns from 80.3 to 56.6 MB, with the same
 * CPU per turn (0.06–0.13 s for 50 to 400 000 lines of output). Lite mode turns WebAssembly off, which no worker
 * code uses; saying so explicitly keeps V8's "conflicting flags" warning out of the worker's stderr.
 * --max-semi-space-size=1 (MB) keeps the young generation at its smallest: a burst of screenshots grew it, and an idle
 * worker after 50 frames kept those pages (V8's 256 KB pages 6.4–7.9 MB, RSS 49.2–52.4 MB over nine runs); with the
 * cap 6.5–6.8 MB and 49.2–50.0 MB over five, and the same CPU per turn (0.74–0.82 s for 400 000 lines either way).
 */
export const WORKER_V8_FLAGS = ['--lite-mode', '--no-expose-wasm', '--max-semi-space-size=1'] as const;

export interface WorkerExit {
  sessionId: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the daemon asked the worker to go (close/detach/shutdown). */
  expected: boolean;
}

export interface WorkerPoolEvents {
  /** Everything a worker says, parsed, for its session: the pool only supervises. */
  onMessage(sessionId: string, msg: WorkerToDaemon): void;
  onExit(exit: WorkerExit): void;
}

/** Where a worker runs (DESIGN §12): a configured host's name, or `local`; absent = this machine. */
export interface WorkerPlacement {
  host: string;
}

export interface WorkerPoolOptions {
  log: Logger;
  /** Where the events of a worker go when its start names no receiver (the daemon's starts always name the session's owner). */
  events?: WorkerPoolEvents;
  /** Worker entry file; defaults to defaultWorkerEntry() (the bundle when built, the .ts source under tsx/vitest). */
  entry?: string;
  /** Extra environment for every worker (never app secrets). */
  env?: NodeJS.ProcessEnv;
  /** Overrides HEARTBEAT_TIMING.timeoutMs (tests). */
  heartbeatTimeoutMs?: number;
}

interface LiveWorker {
  child: ChildProcess;
  expectedExit: boolean;
  invalidInARow: number;
  startedAt: number;
  /** Last time the worker said anything valid: the supervisor kills a worker that stays silent too long. */
  lastSignOfLife: number;
}

/**
 * A worker-side entry found by path, never imported: when built, the bundle (dist/worker/bundle, see
 * scripts/build-worker.mjs: an idle worker is smaller bundled), else tsc's own output, else the source under tsx.
 */
function workerSideEntry(bundled: string, ...parts: string[]): string {
  const worker = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'worker');
  const candidates = [join(worker, 'bundle', bundled), join(worker, ...parts) + '.js'];
  return candidates.find((c) => existsSync(c)) ?? join(worker, ...parts) + '.ts';
}

/** The worker's entry (worker/main). */
export function defaultWorkerEntry(): { entry: string } {
  return { entry: workerSideEntry('main.js', 'main') };
}

/** The render process's entry (worker/render/render-thread). */
export function defaultRenderEntry(): string {
  return workerSideEntry('render-thread.js', 'render', 'render-thread');
}

export class WorkerPool {
  private readonly workers = new Map<string, LiveWorker>();
  private disposed = false;
  private readonly supervisor: NodeJS.Timeout;

  constructor(private readonly opts: WorkerPoolOptions) {
    // The parent owns liveness: a worker that hangs (alive but silent) is killed; the next message forks a new one.
    this.supervisor = setInterval(() => this.checkLiveness(), Math.min(WORKER_TIMING.livenessCheckMs, opts.heartbeatTimeoutMs ?? Infinity));
    this.supervisor.unref();
  }

  private checkLiveness(): void {
    const limit = this.opts.heartbeatTimeoutMs ?? HEARTBEAT_TIMING.timeoutMs;
    const now = Date.now();
    for (const [sessionId, w] of this.workers) {
      if (w.expectedExit || now - w.lastSignOfLife <= limit) continue;
      this.opts.log.error({ session: sessionId.slice(0, 8), workerPid: w.child.pid, silentMs: now - w.lastSignOfLife }, 'worker sent no heartbeat; killing it (the CLI keeps running in tmux)');
      w.lastSignOfLife = now;
      w.child.kill('SIGKILL');
    }
  }

  has(sessionId: string): boolean {
    return this.workers.has(sessionId);
  }

  ids(): string[] {
    return [...this.workers.keys()];
  }

  size(): number {
    return this.workers.size;
  }

  pid(sessionId: string): number | undefined {
    return this.workers.get(sessionId)?.child.pid;
  }

  /**
   * Forks a worker for a session and sends it `init` first; what it says and its exit go to `events` (the session's
   * owner), so nothing looks up whose session it is. Returns false if one is already live.
   */
  start(sessionId: string, init: Extract<DaemonToWorker, { type: 'init' }>, events: WorkerPoolEvents | undefined = this.opts.events, placement?: WorkerPlacement): boolean {
    if (this.disposed) return false;
    if (this.workers.has(sessionId)) return false;
    const refused = this.placementProblem(placement);
    if (refused) {
      // Never a silent local run of a session placed elsewhere: the session's owner tells the topic (placementProblem).
      this.opts.log.warn({ session: sessionId.slice(0, 8), host: placement?.host, reason: refused }, 'worker not started: its host cannot be reached from this build');
      return false;
    }
    const entry = this.opts.entry ?? defaultWorkerEntry().entry;
    // A .ts entry runs under tsx (tests, development); the built .js runs on plain node.
    const execArgv = [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), ...WORKER_V8_FLAGS];
    const child = fork(entry, [], {
      serialization: 'advanced',
      execArgv,
      // The allowlist (env-policy.ts), never the daemon's whole environment: a worker needs no secret. The malloc
      // tuning gives each frame's PNG back once passed on (an idle worker after 50 frames: 51-52 → 49 MB RSS).
      env: { ...workerEnv(process.env), ...SMALL_PROCESS_MALLOC_ENV, ...this.opts.env, LARKMUX_SESSION_ID: sessionId },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const live: LiveWorker = { child, expectedExit: false, invalidInARow: 0, startedAt: Date.now(), lastSignOfLife: Date.now() };
    this.workers.set(sessionId, live);
    const log = this.opts.log.child({ session: sessionId.slice(0, 8), workerPid: child.pid });
    log.info('worker started');

    // Keep the last lines of stderr for the crash report; never let the pipe fill.
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      stderrTail = (stderrTail + d).slice(-4000);
    });

    child.on('message', (raw: unknown) => {
      const parsed = parseWorkerToDaemon(raw);
      if (!parsed.ok) {
        live.invalidInARow += 1;
        log.warn({ reason: parsed.reason }, 'invalid message from worker dropped');
        if (live.invalidInARow >= WORKER_TIMING.maxConsecutiveInvalid) {
          log.error('worker keeps sending invalid messages; killing it');
          child.kill('SIGKILL');
        }
        return;
      }
      live.invalidInARow = 0;
      live.lastSignOfLife = Date.now();
      try {
        events?.onMessage(sessionId, parsed.msg);
      } catch (err) {
        log.error({ err }, 'handling a worker message failed');
      }
    });
    child.on('error', (err) => log.error({ err }, 'worker process error'));
    child.on('exit', (code, signal) => {
      if (this.workers.get(sessionId) === live) this.workers.delete(sessionId);
      const expected = live.expectedExit;
      const fields = { code, signal, expected, stderrTail: expected ? undefined : stderrTail.slice(-1000) || undefined };
      if (expected) log.info(fields, 'worker exited');
      else log.error(fields, 'worker exited unexpectedly');
      try {
        events?.onExit({ sessionId, code, signal, expected });
      } catch (err) {
        log.error({ err }, 'handling a worker exit failed');
      }
    });
    this.send(sessionId, init);
    return true;
  }

  /**
   * Why a worker cannot start at `placement` (undefined: it can). This build runs workers on this machine only: a
   * session placed on another host is refused, and its topic is told so.
   */
  placementProblem(placement?: WorkerPlacement): 'remote_unavailable' | undefined {
    return placement && placement.host !== LOCAL_HOST ? 'remote_unavailable' : undefined;
  }

  /** Sends a message; false when the worker is gone or its channel is closed (the caller decides what to do). */
  send(sessionId: string, msg: DaemonToWorker): boolean {
    const w = this.workers.get(sessionId);
    if (!w || !w.child.connected) return false;
    try {
      w.child.send(msg, (err) => {
        if (err) this.opts.log.warn({ session: sessionId.slice(0, 8), err: err.message }, 'send to worker failed');
      });
      return true;
    } catch (err) {
      this.opts.log.warn({ session: sessionId.slice(0, 8), err: (err as Error).message }, 'send to worker failed');
      return false;
    }
  }

  /** Asks a worker to close (kill the CLI or just detach) and waits for it to exit, escalating to signals. */
  async stop(sessionId: string, mode: 'kill' | 'detach'): Promise<void> {
    const w = this.workers.get(sessionId);
    if (!w) return;
    w.expectedExit = true;
    const exited = new Promise<void>((resolve) => {
      if (w.child.exitCode !== null || w.child.signalCode !== null) resolve();
      else w.child.once('exit', () => resolve());
    });
    if (!this.send(sessionId, { type: 'close', mode })) w.child.kill('SIGTERM');
    const grace = WORKER_TIMING.closeGraceMs;
    const t1 = setTimeout(() => w.child.kill('SIGTERM'), grace);
    const t2 = setTimeout(() => w.child.kill('SIGKILL'), grace * 2);
    await exited;
    clearTimeout(t1);
    clearTimeout(t2);
  }

  /** Detaches every worker (the CLIs keep running in tmux) and waits for them to exit. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearInterval(this.supervisor);
    await Promise.all(this.ids().map((id) => this.stop(id, 'detach')));
  }
}
