// Runs the render process (worker/render/render-thread.ts, by path) and hands it screens: parsing, painting and PNG
// encoding never block the host's event loop, and ending the process when idle gives every byte back. The host is a
// daemon (one render process for every session, where the cards are: DESIGN §12), or a bench or test drawing fixtures.
import { fork, type ChildProcess } from 'node:child_process';
import { cliBaseEnv } from '../shared/env-policy.js';
import type { CapturedScreen, FrameBandCounts, FrameKind, FrameLayout, FromRenderProcess, RenderFailureCode, RenderProcessInit, ThreadTimings, ToRenderProcess } from '../shared/render-protocol.js';

/** A frame, or why there is none (the shared contract's failure codes). */
export type ThreadRenderResult =
  | { ok: true; png: Buffer; timings: ThreadTimings; frame: FrameLayout; bands?: FrameBandCounts }
  | { ok: false; code: RenderFailureCode; message: string };

/**
 * What turns a captured screen into a PNG: the daemon's one render process for every session (workers send screens,
 * never pictures), or a render process of a bench's or test's own.
 */
export interface FrameRenderer {
  /** `stream` (a session id) lets the renderer reuse the compressed bands of that stream's previous frame. */
  render(screen: CapturedScreen, frame?: FrameKind, stream?: string): Promise<ThreadRenderResult>;
  /** Drops what the renderer keeps for a stream (the session ended). */
  forget(stream: string): void;
  dispose(): void;
}

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

interface Pending {
  resolve(r: ThreadRenderResult): void;
  timer: NodeJS.Timeout;
}

/**
 * glibc's malloc tuning for the render process and the workers (other C libraries ignore these; tmux and the CLIs
 * never get them: not in the inherited names). Each frame copies its pixels out of the canvas (3-7 MB), and a worker
 * passes each frame's PNG (100-400 KB) on; glibc raises its mmap threshold after the first such block is freed, so
 * later ones come from the heap and stay in RSS as fragments. A fixed threshold gives every freed frame back; two
 * arenas instead of one per thread (zlib runs on the libuv pool). Measured with 60 phone-card frames of 120x40 CJK
 * text: render process RSS 190 → 128 MB together with the per-frame young-generation collection.
 */
export const SMALL_PROCESS_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' } as const;

/**
 * The render process's own tuning. At the 128 KB mmap threshold each frame's pixel copy (3-7 MB) and zlib's deflate
 * state (~270 KB per call) were mapped and unmapped every frame: 1,100-1,500 page faults per frame. With 8 MB they
 * come from the heap and are reused (measured, 8 card frames at once, 8 rounds: 1,290 → 180 faults per frame; render
 * process RSS 164 → 169-174 MB); the trim threshold keeps one frame's worth at the heap's top; one arena, since zlib's
 * pool threads only ever hold one deflate at a time here. (Since card frames are painted band by band on a strip, a
 * stream's pixel copies are one band each; 1 MB thresholds instead measured the same RSS, 118 against 119-120 MB.)
 */
export const RENDER_PROCESS_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(8 * 2 ** 20), MALLOC_TRIM_THRESHOLD_: String(8 * 2 ** 20), MALLOC_ARENA_MAX: '1' } as const;

/**
 * @napi-rs/canvas, when loaded, maps every installed font so CSS family names can find them (enableSystemFonts);
 * the painter names only the families fonts.ts registers, and a glyph none of them has is still found on demand
 * (Skia asks fontconfig then, and maps that one file). Measured: with the scan, 45 font files stayed mapped (Serif
 * CJK collections, every JetBrains Mono and DejaVu weight), 21 MB of the render process's RSS against 11.5 MB
 * without, and 8 sessions rendering 119-123 MB against 111-112; the 63 fixture screens and lines of Arabic, Thai,
 * Devanagari and glyphs only unregistered fonts have (DejaVu Serif's ⤀, DejaVu Math's ⏜) drew the same pixels.
 */
export const RENDER_PROCESS_FONT_ENV = { DISABLE_SYSTEM_FONTS_LOAD: '1' } as const;

/**
 * A process, not a worker thread (issue 14, measured): the canvas library, its font data and glibc's arenas stay in
 * a process for good once loaded, so a terminated thread gave back only ~25 of ~130 MB and an idle worker stayed
 * near 170 MB. A process that exits gives it all back. A .ts entry (tsx, vitest) runs under tsx like the worker.
 */
function startRenderer(entry: string, init: RenderProcessInit): ChildProcess {
  const fromSource = entry.endsWith('.ts');
  return fork(entry, [JSON.stringify(init)], {
    serialization: 'advanced', // PNG bytes travel as a Uint8Array, not as JSON
    // --expose-gc: render-thread.ts drops each frame's pixel copy at once (see collectFrameGarbage there).
    execArgv: [...(fromSource ? ['--import', 'tsx'] : []), '--expose-gc'],
    // The allowlist, never the host's whole environment: the daemon's holds the app secrets' variables.
    env: { ...cliBaseEnv(process.env), ...RENDER_PROCESS_MALLOC_ENV, ...RENDER_PROCESS_FONT_ENV },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** A renderer with frames in flight keeps the event loop alive (a script awaiting a frame); an idle one does not. */
function hold(child: ChildProcess, on: boolean): void {
  if (on) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

export interface RenderProcessOptions {
  /** The render process's entry file (worker/render/render-thread.js, or .ts under tsx). */
  entry: string;
  /** LARKMUX_HOME: fonts are looked up (and a CJK face extracted) there. */
  home: string;
  idleReleaseMs?: number;
  /** Told when a process starts or is released for idleness (the host logs it). */
  onLifecycle?: (event: 'started' | 'released') => void;
}

/** The renderer's host (one render process at a time, started on demand, ended when idle). */
export class RenderProcessHost<Fonts = unknown> {
  private worker: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  private fontsPromise: Promise<Fonts> | null = null;
  private fontsResolve: ((f: Fonts) => void) | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly idleReleaseMs: number;
  /** Processes started and ended for idleness (tests and the benchmark read them). */
  readonly counts = { started: 0, released: 0 };

  constructor(private readonly opts: RenderProcessOptions) {
    this.idleReleaseMs = opts.idleReleaseMs ?? renderIdleReleaseMs();
  }

  /** Frames asked for and not answered yet (the daemon bounds them per session). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** A render process is running now (started by a frame or fonts(), not yet released). */
  get loaded(): boolean {
    return this.worker !== null;
  }

  /** The running render process's pid (tests, the benchmark), or null. */
  get pid(): number | null {
    return this.worker?.pid ?? null;
  }

  /** The fonts the thread registered (starts the thread if needed). */
  fonts(): Promise<Fonts> {
    this.ensureWorker();
    return this.fontsPromise!;
  }

  render(screen: CapturedScreen, frame: FrameKind = 'card', stream?: string): Promise<ThreadRenderResult> {
    if (this.disposed) return Promise.resolve({ ok: false, code: 'closed', message: 'render thread disposed' });
    const worker = this.ensureWorker();
    this.stopIdleTimer();
    hold(worker, true);
    const id = this.nextId++;
    return new Promise<ThreadRenderResult>((resolve) => {
      const timer = setTimeout(() => this.fail(`frame ${id} took longer than ${RENDER_THREAD_LIMITS.frameTimeoutMs} ms`), RENDER_THREAD_LIMITS.frameTimeoutMs);
      this.pending.set(id, { resolve, timer });
      worker.send({ type: 'render', id, screen, frame, ...(stream !== undefined ? { stream } : {}) } satisfies ToRenderProcess);
    }).finally(() => this.armIdleTimer());
  }

  /** A stopped render process keeps nothing, so there is nothing to tell one that is not running. */
  forget(stream: string): void {
    if (this.worker && !this.disposed) this.worker.send({ type: 'forget', stream } satisfies ToRenderProcess);
  }

  /** After the last pending frame, the thread gets idleReleaseMs before it is ended. */
  private armIdleTimer(): void {
    if (this.pending.size > 0 || !this.worker || this.disposed) return;
    hold(this.worker, false);
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
    worker.kill();
    this.opts.onLifecycle?.('released');
  }

  private ensureWorker(): ChildProcess {
    if (this.worker) return this.worker;
    const worker = startRenderer(this.opts.entry, { home: this.opts.home });
    // An idle renderer never keeps the worker alive; dispose() ends it, and it exits itself when the worker dies.
    hold(worker, false);
    this.counts.started += 1;
    this.opts.onLifecycle?.('started');
    this.fontsPromise ??= new Promise((r) => (this.fontsResolve = r));
    this.armIdleTimer();
    worker.on('message', (m: FromRenderProcess<Fonts>) => this.onMessage(m));
    worker.on('error', (err) => this.fail(`render process failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail(`render process exited with code ${code}`);
    });
    this.worker = worker;
    return worker;
  }

  private onMessage(m: FromRenderProcess<Fonts>): void {
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
    else p.resolve({ ok: true, png: Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength), timings: m.timings, frame: m.frame, ...(m.bands ? { bands: m.bands } : {}) });
  }

  /** Fails every pending frame and drops the thread; the next render starts a new one. */
  private fail(message: string): void {
    this.stopIdleTimer();
    const worker = this.worker;
    this.worker = null;
    if (worker) worker.kill();
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
