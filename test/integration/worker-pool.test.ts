// The worker pool with real forked processes: a good worker talks, a broken one is logged and contained.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkerPool, type WorkerExit } from '../../src/daemon/workers/worker-pool.js';
import { IPC_PROTOCOL_VERSION, type DaemonToWorker, type WorkerToDaemon } from '../../src/shared/ipc.js';
import { createLogger } from '../../src/platform/log.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT } from '../support/larkmux-cli.js';

const sid = (n: number) => `${String(n).padStart(8, '0')}${'a'.repeat(24)}`;

function init(home: string, sessionId: string): Extract<DaemonToWorker, { type: 'init' }> {
  return {
    type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId, sessionKey: `chat${sessionId}::cli_a1b2c3d4e5f60718`, home,
    cli: 'shell', cwd: home, env: {}, backend: 'tmux', tmuxSocket: null, tmuxName: `lmx-${sessionId.slice(0, 8)}`,
    resume: { mode: 'new' }, display: 'screenshot', cols: 120, rows: 40,
  };
}

function waitFor<T>(get: () => T | undefined, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => {
      const v = get();
      if (v !== undefined) return resolve(v);
      if (Date.now() - t0 > ms) return reject(new Error('timed out'));
      setTimeout(tick, 50);
    };
    tick();
  });
}

describe('WorkerPool', () => {
  let home: TestHome;
  let pool: WorkerPool;
  const messages: [string, WorkerToDaemon][] = [];
  const exits: WorkerExit[] = [];

  beforeEach(() => {
    home = makeTestHome();
    messages.length = 0;
    exits.length = 0;
  });
  afterEach(async () => {
    await pool?.dispose();
    home.cleanup();
  });

  function makePool(entry?: string) {
    const log = createLogger({ file: home.paths.logFile, name: 'daemon' });
    pool = new WorkerPool({
      log,
      entry,
      env: { LARKMUX_HOME: home.dir },
      events: { onMessage: (id, m) => messages.push([id, m]), onExit: (e) => exits.push(e) },
    });
    return pool;
  }

  it('a session placed on a host that is not configured is refused, never forked here; local is this machine', async () => {
    const p = makePool();
    expect(p.placementProblem({ host: 'gpu1' })).toBe('remote_unavailable');
    expect(p.placementProblem({ host: 'local' })).toBeUndefined();
    expect(p.placementProblem()).toBeUndefined();
    expect(p.start(sid(9), init(home.dir, sid(9)), undefined, { host: 'gpu1' })).toBe(false);
    expect(p.has(sid(9))).toBe(false);
    const said = 'no such host configured; worker not started';
    await waitFor(() => (existsSync(home.paths.logFile) && readFileSync(home.paths.logFile, 'utf8').includes(said) ? true : undefined));
  });

  it('forks the real worker, which answers init, and detaches it on close', async () => {
    makePool();
    expect(pool.start(sid(1), init(home.dir, sid(1)))).toBe(true);
    expect(pool.start(sid(1), init(home.dir, sid(1)))).toBe(false);
    const first = await waitFor(() => messages.find(([id]) => id === sid(1)));
    expect(first[1]).toEqual({ type: 'status', status: 'starting' });
    // Lite mode and glibc's malloc tuning (memory, see WORKER_V8_FLAGS, SMALL_PROCESS_MALLOC_ENV); reads /proc (Linux).
    const pid = pool.pid(sid(1))!;
    if (existsSync(`/proc/${pid}/cmdline`)) {
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--lite-mode', '--no-expose-wasm', '--max-semi-space-size=1']));
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072']));
    }
    await pool.stop(sid(1), 'detach');
    expect(exits).toEqual([{ sessionId: sid(1), code: 0, signal: null, expected: true }]);
    expect(pool.has(sid(1))).toBe(false);
  });

  it('a worker that sends invalid messages and crashes is logged; the pool and other workers carry on', async () => {
    makePool();
    pool.start(sid(2), init(home.dir, sid(2)));
    await waitFor(() => messages.find(([id]) => id === sid(2)));

    const bad = new WorkerPool({
      log: createLogger({ file: home.paths.logFile, name: 'daemon' }),
      entry: join(ROOT, 'test', 'support', 'workers', 'garbage-worker.ts'),
      events: { onMessage: (id, m) => messages.push([id, m]), onExit: (e) => exits.push(e) },
    });
    bad.start(sid(3), init(home.dir, sid(3)));
    const crash = await waitFor(() => exits.find((e) => e.sessionId === sid(3)));
    expect(crash.expected).toBe(false);
    expect(crash.code).not.toBe(0);
    // Nothing invalid got through to the daemon.
    expect(messages.filter(([id]) => id === sid(3))).toEqual([]);

    const log = readFileSync(home.paths.logFile, 'utf8');
    expect(log.match(/invalid message from worker dropped/g)?.length).toBe(4);
    expect(log).toContain('worker exited unexpectedly');
    expect(log).toContain('worker crashed on purpose');

    // The good worker is untouched and still answers; a new worker can be started.
    expect(pool.has(sid(2))).toBe(true);
    expect(pool.send(sid(2), { type: 'capture_now' })).toBe(true);
    expect(bad.start(sid(4), init(home.dir, sid(4)))).toBe(true);
    await waitFor(() => exits.find((e) => e.sessionId === sid(4)));
    await bad.dispose();
  });

  it('a worker that hangs (no heartbeat) is killed by the pool and reported as an unexpected exit', async () => {
    const hung = new WorkerPool({
      log: createLogger({ file: home.paths.logFile, name: 'daemon' }),
      entry: join(ROOT, 'test', 'support', 'workers', 'hanging-worker.ts'),
      heartbeatTimeoutMs: 1500,
      events: { onMessage: (id, m) => messages.push([id, m]), onExit: (e) => exits.push(e) },
    });
    hung.start(sid(5), init(home.dir, sid(5)));
    await waitFor(() => messages.find(([id]) => id === sid(5)));
    const exit = await waitFor(() => exits.find((e) => e.sessionId === sid(5)));
    expect(exit).toMatchObject({ expected: false, signal: 'SIGKILL' });
    expect(readFileSync(home.paths.logFile, 'utf8')).toContain('worker sent no heartbeat; killing it');
    expect(hung.has(sid(5))).toBe(false);
    await hung.dispose();
  });
});
