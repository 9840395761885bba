// Forks one worker process per live session, parses everything it says, and reports exits; it restarts nothing itself.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../platform/log.js';
import { HEARTBEAT_TIMING, parseWorkerToDaemon, type DaemonToWorker, type WorkerToDaemon } from '../../shared/ipc.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { forkLocalWorker, type WebUpstream, type WorkerGoneCause, type WorkerLink, type WorkerLinkExit } from './worker-link.js';
import { WORKER_V8_FLAGS } from '../../shared/worker-flags.js';
import { localTreeGit, noTreeGit, type TreeGit } from '../changes/tree-git.js';

export const WORKER_TIMING = {
  /** A worker asked to close gets this long to exit before SIGTERM, then SIGKILL after as long again. */
  closeGraceMs: 5_000,
  /** After this many invalid messages in a row a worker is considered broken and killed. */
  maxConsecutiveInvalid: 50,
  /** How often the supervisor looks at the workers' last signs of life. */
  livenessCheckMs: 5_000,
} as const;

// V8 settings of every worker, local or on a host (its agent forks with the same): the reasons are in worker-flags.ts.
export { WORKER_V8_FLAGS };

export interface WorkerExit {
  sessionId: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the daemon asked the worker to go (close/detach/shutdown). */
  expected: boolean;
  /** Set when the worker is gone because its host's link dropped (its CLI is not known to have ended): not a crash. */
  cause?: WorkerGoneCause;
  /** With `link_lost`: the messages that never reached the host (worker-link.ts); the session decides about them. */
  unsent?: readonly DaemonToWorker[];
  /** With `link_lost`: prompts in flight on the host (worker-link.ts). */
  inFlight?: WorkerLinkExit['inFlight'];
  /** With `link_lost`: why, when ssh said (worker-link.ts). */
  linkFailure?: WorkerLinkExit['linkFailure'];
}

/** Where a session's worker runs: `local` (the default) or a configured host. */
export interface WorkerPlacement {
  host: string;
}

/** Starts workers on one other host (RemoteHost): the same link the pool holds for a local one. */
export interface RemoteWorkerStarter {
  startWorker(sessionId: string, env: Record<string, string>): WorkerLink;
}

export interface WorkerPoolEvents {
  /** Everything a worker says, parsed, for its session: the pool only supervises. */
  onMessage(sessionId: string, msg: WorkerToDaemon): void;
  onExit(exit: WorkerExit): void;
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
  /** The starter for a host other than `local` (undefined: not configured, the start is refused). */
  remoteHost?: (name: string) => RemoteWorkerStarter | undefined;
  /** The git of a session's folder on a host other than `local` (undefined: not configured). */
  remoteGit?: (name: string) => TreeGit | undefined;
}

interface LiveWorker {
  child: WorkerLink;
  expectedExit: boolean;
  invalidInARow: number;
  startedAt: number;
  /** Last time the worker said anything valid: the supervisor kills a worker that stays silent too long. */
  lastSignOfLife: number;
  /** Resolves a stop() waiting for the exit. */
  onGone?: () => void;
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
    const child = this.link(sessionId, placement);
    if (!child) return false;
    const live: LiveWorker = { child, expectedExit: false, invalidInARow: 0, startedAt: Date.now(), lastSignOfLife: Date.now() };
    this.workers.set(sessionId, live);
    const log = this.opts.log.child({ session: sessionId.slice(0, 8), workerPid: child.pid, ...(placement && placement.host !== LOCAL_HOST ? { host: placement.host } : {}) });
    log.info('worker started');

    child.listen({ message: (raw: unknown) => {
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
    }, error: (err) => log.error({ err }, 'worker process error'), exit: ({ code, signal, cause, stderrTail, unsent, inFlight, linkFailure }) => {
      if (this.workers.get(sessionId) === live) this.workers.delete(sessionId);
      live.onGone?.();
      const expected = live.expectedExit;
      const fields = { code, signal, expected, cause, stderrTail: expected ? undefined : stderrTail?.slice(-1000) || undefined };
      if (expected) log.info(fields, 'worker exited');
      else if (cause === 'link_lost') log.warn(fields, 'worker gone with the link to its host (its CLI keeps running there)');
      else log.error(fields, 'worker exited unexpectedly');
      try {
        events?.onExit({ sessionId, code, signal, expected, ...(cause ? { cause } : {}), ...(unsent ? { unsent } : {}), ...(inFlight?.length ? { inFlight } : {}), ...(linkFailure ? { linkFailure } : {}) });
      } catch (err) {
        log.error({ err }, 'handling a worker exit failed');
      }
    } });
    this.send(sessionId, init);
    return true;
  }

  /** The worker's link: forked here, or started by its host's agent; undefined for a host that is not configured. */
  private link(sessionId: string, placement: WorkerPlacement | undefined): WorkerLink | undefined {
    if (placement && placement.host !== LOCAL_HOST) {
      const remote = this.opts.remoteHost?.(placement.host);
      if (!remote) {
        this.opts.log.error({ session: sessionId.slice(0, 8), host: placement.host }, 'no such host configured; worker not started');
        return undefined;
      }
      // Nothing of this machine's environment: the host's agent gives the worker its own allowlisted one (PATH, HOME
      // there), the malloc tuning, and LARKMUX_HOME on the host.
      return remote.startWorker(sessionId, {});
    }
    return forkLocalWorker(this.opts.entry ?? defaultWorkerEntry().entry, this.opts.env ?? {}, sessionId);
  }

  /**
   * Why a worker cannot start at `placement` (undefined: it can): a host that is not configured here (its sessions' topic
   * is told so by the session's owner). A configured host that is down is not a problem decided here: its agent's
   * start reports the link as lost, and the session waits for it.
   */
  placementProblem(placement?: WorkerPlacement): 'remote_unavailable' | undefined {
    if (!placement || placement.host === LOCAL_HOST) return undefined;
    return this.opts.remoteHost?.(placement.host) ? undefined : 'remote_unavailable';
  }

  /** The git of a session's folder at `host`: this machine's, a configured host's over its ControlMaster, else none. */
  treeGit(host: string): TreeGit {
    if (host === LOCAL_HOST) return localTreeGit;
    return this.opts.remoteGit?.(host) ?? noTreeGit;
  }

  /** Where this machine reaches the web terminal the worker said it serves (a socket on a host: through its forward). */
  async webUpstream(sessionId: string, said: WebUpstream): Promise<WebUpstream | null> {
    const link = this.workers.get(sessionId)?.child;
    if (!link || 'port' in said || !link.reachSocket) return link ? said : null;
    const here = await link.reachSocket(said.socketPath);
    return here ? { socketPath: here } : null;
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
      if (w.child.exited || this.workers.get(sessionId) !== w) resolve();
      else w.onGone = resolve;
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
