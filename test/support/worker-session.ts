// Test helper: one real worker forked through the real WorkerPool, on a private tmux server, with its messages recorded.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool, type WorkerExit } from '../../src/daemon/workers/worker-pool.js';
import { IPC_PROTOCOL_VERSION, type DaemonToWorker, type WorkerToDaemon } from '../../src/shared/ipc.js';
import type { CliSpec } from '../../src/shared/config.js';
import { createLogger } from '../../src/platform/log.js';
import type { FrameRenderer } from '../../src/platform/render-process.js';
import { makeTestHome, type TestHome } from './home.js';
import { makeTmuxServer, type TestTmuxServer } from './tmux.js';

type InitMsg = Extract<DaemonToWorker, { type: 'init' }>;

export interface WorkerSessionOptions {
  cli: CliSpec;
  cwd: string;
  env: Record<string, string>;
  resume?: InitMsg['resume'];
  display?: InitMsg['display'];
  /** The daemon's screenshot pace (init.frameIntervalMs); absent = the worker's default. */
  frameIntervalMs?: number;
  cols?: number;
  rows?: number;
  /** Reuse a tmux server (a second worker taking over). */
  tmux?: TestTmuxServer;
  home?: TestHome;
  sessionId?: string;
  /** Extra environment for the worker process itself (e.g. a PATH with a tmux shim). */
  workerEnv?: NodeJS.ProcessEnv;
  /** Worker entry file (benchmarks run the built dist/worker/bundle/main.js); default: the source under tsx. */
  workerEntry?: string;
  /** Draws every screen the worker sends in this render process, as the daemon's cards do (into `drawn`). */
  renderer?: FrameRenderer;
  /** The daemon's proxy secret: the worker starts its web terminal (absent = none, as without a web port). */
  webSecret?: string;
}

export interface DrawnScreen {
  hash: string;
  png: Buffer;
  cols: number;
  rows: number;
}

export interface WorkerSession {
  sessionId: string;
  tmuxName: string;
  tmux: TestTmuxServer;
  home: TestHome;
  pool: WorkerPool;
  messages: WorkerToDaemon[];
  /** The screens drawn by `renderer`, in order of arrival (empty without one). */
  drawn: DrawnScreen[];
  /** Arrival time (Date.now()) of each message, same index as `messages`. */
  arrivals: number[];
  exits: WorkerExit[];
  send(msg: DaemonToWorker): boolean;
  input(turnId: string, text: string): boolean;
  /** Resolves with the first recorded message (from `from` on) matching; rejects after `ms`. */
  waitFor<T extends WorkerToDaemon>(pred: (m: WorkerToDaemon) => m is T, ms?: number, from?: number): Promise<T>;
  waitFor(pred: (m: WorkerToDaemon) => boolean, ms?: number, from?: number): Promise<WorkerToDaemon>;
  of<K extends WorkerToDaemon['type']>(type: K): Extract<WorkerToDaemon, { type: K }>[];
  panePid(): Promise<number | null>;
  capture(): Promise<string>;
  logText(): string;
  /** Detaches the worker (the CLI stays) and waits for it to exit. */
  stopWorker(mode?: 'kill' | 'detach'): Promise<void>;
  /** Stops the worker, kills the tmux server (unless shared) and removes the home. */
  cleanup(): Promise<void>;
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startWorkerSession(opts: WorkerSessionOptions): WorkerSession {
  const home = opts.home ?? makeTestHome();
  const tmux = opts.tmux ?? makeTmuxServer();
  const sessionId = opts.sessionId ?? randomBytes(16).toString('hex');
  const tmuxName = `lmx-${sessionId.slice(0, 8)}`;
  const messages: WorkerToDaemon[] = [];
  const arrivals: number[] = [];
  const exits: WorkerExit[] = [];
  const drawn: DrawnScreen[] = [];
  const draw = (m: WorkerToDaemon) => {
    if (m.type !== 'screen' || !opts.renderer) return;
    void opts.renderer.render(m.screen, 'card').then((r) => {
      if (r.ok) drawn.push({ hash: m.hash, png: r.png, cols: m.screen.cols, rows: m.screen.rows });
    });
  };
  const pool = new WorkerPool({
    log: createLogger({ file: home.paths.logFile, name: 'daemon' }),
    env: { LARKMUX_HOME: home.dir, ...opts.workerEnv },
    ...(opts.workerEntry ? { entry: opts.workerEntry } : {}),
    events: { onMessage: (_id, m) => { messages.push(m); arrivals.push(Date.now()); draw(m); }, onExit: (e) => exits.push(e) },
  });
  const init: InitMsg = {
    type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId, sessionKey: `oc_test${sessionId.slice(0, 6)}::cli_a1b2c3d4e5f60718`,
    home: home.dir, cli: opts.cli, cwd: opts.cwd, env: opts.env, backend: 'tmux', tmuxSocket: tmux.socket, tmuxName,
    resume: opts.resume ?? { mode: 'new' }, display: opts.display ?? 'hidden', cols: opts.cols ?? 120, rows: opts.rows ?? 40,
    ...(opts.frameIntervalMs !== undefined ? { frameIntervalMs: opts.frameIntervalMs } : {}),
    ...(opts.webSecret !== undefined ? { webSecret: opts.webSecret } : {}),
  };
  pool.start(sessionId, init);
  const waitFor = (pred: (m: WorkerToDaemon) => boolean, ms = 30_000, from = 0): Promise<WorkerToDaemon> =>
    new Promise((resolve, reject) => {
      const t0 = Date.now();
      const tick = () => {
        const hit = messages.slice(from).find(pred);
        if (hit) return resolve(hit);
        if (Date.now() - t0 > ms) {
          const logTail = process.env.LMX_TEST_DEBUG ? `\nworker log:\n${readLog(home.paths.logFile).split('\n').slice(-60).join('\n')}` : '';
          return reject(new Error(`timed out; last messages: ${JSON.stringify(messages.slice(-6).map((m) => ({ ...m, ...('screenText' in m ? { screenText: m.screenText?.slice(-600) } : {}) })))}${logTail}`));
        }
        setTimeout(tick, 50);
      };
      tick();
    });
  return {
    sessionId, tmuxName, tmux, home, pool, messages, drawn, arrivals, exits,
    send: (msg) => pool.send(sessionId, msg),
    input: (turnId, text) => pool.send(sessionId, { type: 'input', turnId, text, requester: { userId: 'ou_tester' } }),
    waitFor: waitFor as WorkerSession['waitFor'],
    of: <K extends WorkerToDaemon['type']>(type: K) => messages.filter((m) => m.type === type) as Extract<WorkerToDaemon, { type: K }>[],
    async panePid() {
      const r = await tmux.run(['list-panes', '-t', `=${tmuxName}:`, '-F', '#{pane_pid}']);
      return r.code === 0 && /^\d+/.test(r.stdout) ? Number.parseInt(r.stdout, 10) : null;
    },
    async capture() {
      return (await tmux.run(['capture-pane', '-p', '-t', `=${tmuxName}:`])).stdout;
    },
    logText: () => {
      try {
        return readFileSync(home.paths.logFile, 'utf8');
      } catch {
        return '';
      }
    },
    async stopWorker(mode = 'detach') {
      await pool.stop(sessionId, mode);
    },
    async cleanup() {
      await pool.dispose();
      if (!opts.tmux) await tmux.kill();
      if (!opts.home) home.cleanup();
    },
  };
}
