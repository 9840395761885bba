// Runs render-thread.ts in a worker thread and hands it screens: parsing, painting and PNG encoding never block the worker's event loop.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { LoadedFonts } from './fonts.js';
import type { CapturedScreen } from './screen-model.js';
import type { FrameLayout } from './card-frame.js';
import type { FrameKind, FromRenderThread, RenderThreadInit, ThreadTimings, ToRenderThread } from './render-thread-protocol.js';

export const RENDER_THREAD_LIMITS = {
  /** A 200x60 frame takes ~50-100 ms on a busy 2-core box; a frame this late means the thread is stuck: fail it and restart. */
  frameTimeoutMs: 15_000,
  /**
   * An idle render thread is ended after this long without a frame (its isolate, terminal model, canvas and encoder
   * buffers go with it); the next frame starts a new one, which costs ~0.3-0.6 s here (fonts, canvas). A card that
   * is being watched renders at least every few seconds while output flows, so a minute of silence means nobody is
   * waiting on a frame. LARKMUX_RENDER_IDLE_MS overrides it (tests, operators short on memory).
   */
  idleReleaseMs: 60_000,
} as const;

/** The idle release time: the environment's override when it is a whole number of milliseconds, else the default. */
export function renderIdleReleaseMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.LARKMUX_RENDER_IDLE_MS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : RENDER_THREAD_LIMITS.idleReleaseMs;
}

export type ThreadRenderResult =
  | { ok: true; png: Buffer; timings: ThreadTimings; frame: FrameLayout }
  | { ok: false; code: 'render-failed' | 'render-thread-failed' | 'closed'; message: string };

interface Pending {
  resolve(r: ThreadRenderResult): void;
  timer: NodeJS.Timeout;
}

/**
 * From compiled code the thread is render-thread.js beside this file. From source (tsx, vitest) the thread first
 * registers tsx's loader, since a worker thread does not inherit the parent's module hooks.
 */
function startWorker(init: RenderThreadInit): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./render-thread.js', self), { workerData: init });
  // require.resolve gives the CommonJS build (index.cjs); its ESM twin beside it registers the hooks for import().
  const api = pathToFileURL(createRequire(self).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./render-thread.ts', self).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: init });
}

export class RenderThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  private fontsPromise: Promise<LoadedFonts> | null = null;
  private fontsResolve: ((f: LoadedFonts) => void) | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Threads started and ended for idleness (tests and the benchmark read them). */
  readonly counts = { started: 0, released: 0 };

  constructor(
    private readonly home: string,
    private readonly idleReleaseMs: number = renderIdleReleaseMs(),
    /** Told when a thread starts or is released for idleness (the worker logs it). */
    private readonly onLifecycle?: (event: 'started' | 'released') => void,
  ) {}

  /** A thread is running now (started by a frame or fonts(), not yet released). */
  get loaded(): boolean {
    return this.worker !== null;
  }

  /** The fonts the thread registered (starts the thread if needed). */
  fonts(): Promise<LoadedFonts> {
    this.ensureWorker();
    return this.fontsPromise!;
  }

  render(screen: CapturedScreen, frame: FrameKind = 'card'): Promise<ThreadRenderResult> {
    if (this.disposed) return Promise.resolve({ ok: false, code: 'closed', message: 'render thread disposed' });
    const worker = this.ensureWorker();
    this.stopIdleTimer();
    const id = this.nextId++;
    return new Promise<ThreadRenderResult>((resolve) => {
      const timer = setTimeout(() => this.fail(`frame ${id} took longer than ${RENDER_THREAD_LIMITS.frameTimeoutMs} ms`), RENDER_THREAD_LIMITS.frameTimeoutMs);
      this.pending.set(id, { resolve, timer });
      worker.postMessage({ type: 'render', id, screen, frame } satisfies ToRenderThread);
    }).finally(() => this.armIdleTimer());
  }

  /** After the last pending frame, the thread gets idleReleaseMs before it is ended. */
  private armIdleTimer(): void {
    if (this.pending.size > 0 || !this.worker || this.disposed) return;
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => this.release(), this.idleReleaseMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Ends an idle thread; nothing is pending, so nobody is told. The next frame or fonts() starts a new one. */
  private release(): void {
    this.idleTimer = null;
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = null;
    this.fontsPromise = null;
    this.fontsResolve = null;
    this.counts.released += 1;
    void worker.terminate();
    this.onLifecycle?.('released');
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker({ home: this.home });
    worker.unref(); // an idle render thread never keeps the process alive; dispose() ends it
    this.counts.started += 1;
    this.onLifecycle?.('started');
    this.fontsPromise ??= new Promise((r) => (this.fontsResolve = r));
    this.armIdleTimer();
    worker.on('message', (m: FromRenderThread) => this.onMessage(m));
    worker.on('error', (err) => this.fail(`render thread crashed: ${err.message}`));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(`render thread exited with code ${code}`);
    });
    this.worker = worker;
    return worker;
  }

  private onMessage(m: FromRenderThread): void {
    if (m.type === 'ready') {
      this.fontsResolve?.(m.fonts);
      this.fontsResolve = null;
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === 'failed') p.resolve({ ok: false, code: 'render-failed', message: m.message });
    else p.resolve({ ok: true, png: Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength), timings: m.timings, frame: m.frame });
  }

  /** Fails every pending frame and drops the thread; the next render starts a new one. */
  private fail(message: string): void {
    this.stopIdleTimer();
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
    const code = this.disposed ? 'closed' : 'render-thread-failed';
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, code, message });
      this.pending.delete(id);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.fail('render thread disposed');
  }
}
