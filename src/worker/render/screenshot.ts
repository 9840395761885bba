// ScreenCapturer (capture → hash) and ScreenshotLoop, which runs it as the FrameGate allows and hands changed screens
// on: in production the worker sends them to the daemon, which draws them where the card is (one crossing per frame).
// ScreenRenderer (capture → hash → render process: parse, paint, PNG) draws in-process, for benches, goldens and tests.
import { performance } from 'node:perf_hooks';
import type { TmuxCommandRunner } from '../backend/tmux-control.js';
import { capturePane, screenHash } from './capture.js';
import { FrameGate, FRAME_GATE_DEFAULTS } from './frame-gate.js';
import { RenderThread } from './render-thread-host.js';
import type { CapturedScreen, FrameKind, FrameLayout, RenderFailureCode } from '../../shared/render-protocol.js';

export interface RenderTimings {
  captureMs: number;
  parseMs: number;
  paintMs: number;
  encodeMs: number;
  totalMs: number;
  /** Synchronous work of this call on the calling (event loop) thread after the capture (hashed in captureMs): the hand-off to the render thread. */
  mainThreadMs?: number;
}

export type RenderResult =
  | { ok: true; changed: true; png: Buffer; hash: string; cols: number; rows: number; timings: RenderTimings; frame: FrameLayout }
  | { ok: true; changed: false; hash: string; cols: number; rows: number; timings: RenderTimings }
  | { ok: false; code: 'pane-gone' | 'tmux-failed' | 'bad-reply' | RenderFailureCode; message: string };

export type ScreenCaptureResult =
  | { ok: true; changed: true; screen: CapturedScreen; hash: string }
  | { ok: true; changed: false; hash: string }
  | { ok: false; code: 'pane-gone' | 'tmux-failed' | 'bad-reply'; message: string };

/** Captures a pane and names its content; a screen equal to the previous one is not passed on (`changed: false`). */
export class ScreenCapturer {
  constructor(private readonly runner: TmuxCommandRunner) {}

  async capture(target: string, previousHash?: string | null): Promise<ScreenCaptureResult> {
    const cap = await this.captureHashed(target);
    if (!cap.ok) return cap;
    return cap.hash === previousHash ? { ok: true, changed: false, hash: cap.hash } : { ok: true, changed: true, screen: cap.screen, hash: cap.hash };
  }

  /** The pane's screen and its name, whatever came before (ScreenRenderer reports an unchanged screen's size too). */
  async captureHashed(target: string): Promise<{ ok: true; screen: CapturedScreen; hash: string } | Extract<ScreenCaptureResult, { ok: false }>> {
    const cap = await capturePane(this.runner, target);
    if (!cap.ok) return cap;
    return { ok: true, screen: cap.screen, hash: screenHash(cap.screen) };
  }
}

export class ScreenRenderer {
  private readonly capturer: ScreenCapturer;
  private readonly thread: RenderThread;

  constructor(opts: {
    runner: TmuxCommandRunner;
    home: string;
    idleReleaseMs?: number;
    onThread?: (event: 'started' | 'released') => void;
  }) {
    this.capturer = new ScreenCapturer(opts.runner);
    this.thread = new RenderThread(opts.home, opts.idleReleaseMs, opts.onThread);
  }

  /** Captures `target`; when its hash equals `previousHash` nothing is painted (`changed: false`). */
  async render(target: string, previousHash?: string | null, kind: FrameKind = 'card'): Promise<RenderResult> {
    const t0 = performance.now();
    const cap = await this.capturer.captureHashed(target);
    if (!cap.ok) return cap;
    const t1 = performance.now();
    const captureMs = t1 - t0;
    const { hash, screen } = cap;
    const { cols, rows } = screen;
    if (hash === previousHash) {
      const mainThreadMs = performance.now() - t1;
      return { ok: true, changed: false, hash, cols, rows, timings: { captureMs, parseMs: 0, paintMs: 0, encodeMs: 0, totalMs: captureMs, mainThreadMs } };
    }
    const pending = this.thread.render(screen, kind);
    let mainThreadMs = performance.now() - t1;
    const r = await pending;
    const t2 = performance.now();
    if (!r.ok) return r;
    mainThreadMs += performance.now() - t2;
    return { ok: true, changed: true, png: r.png, hash, cols, rows, frame: r.frame, timings: { captureMs, ...r.timings, totalMs: performance.now() - t0, mainThreadMs } };
  }

  /** Parses, paints and encodes an already captured screen (fixtures, tests); `full` paints every cell unframed (goldens). */
  async renderScreen(screen: CapturedScreen, frame: FrameKind = 'card'): Promise<{ png: Buffer; frame: FrameLayout; timings: Omit<RenderTimings, 'captureMs' | 'totalMs'> }> {
    const r = await this.thread.render(screen, frame);
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    return { png: r.png, frame: r.frame, timings: r.timings };
  }

  dispose(): void {
    this.thread.dispose();
  }
}

/** A changed screen, ready to be drawn wherever the card is. */
export interface ScreenFrame {
  screen: CapturedScreen;
  hash: string;
}

/** Drives a ScreenCapturer for one pane with a FrameGate and real timers; frames go to `onFrame`, failures to `onError`. */
export class ScreenshotLoop {
  readonly gate: FrameGate;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    private readonly capturer: Pick<ScreenCapturer, 'capture'>,
    private readonly target: string,
    private readonly onFrame: (f: ScreenFrame) => void,
    private readonly onError: (e: { code: string; message: string }) => void,
    opts: { minIntervalMs: number } = FRAME_GATE_DEFAULTS,
  ) {
    this.gate = new FrameGate(() => performance.now(), opts);
  }

  notePaneOutput(): void {
    this.gate.notePaneOutput();
    this.pump();
  }

  setDisplaying(on: boolean): void {
    this.gate.setDisplaying(on);
    this.pump();
  }

  requestFrame(): void {
    this.gate.requestFrame();
    this.pump();
  }

  private pump(): void {
    if (this.disposed || this.timer) return;
    const d = this.gate.decide();
    if (d.action === 'wait') {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, Math.ceil(d.ms));
      return;
    }
    if (d.action !== 'render') return;
    this.gate.begin();
    void this.capturer.capture(this.target, this.gate.skipHash).then(
      (r) => {
        let sent: string | null = null;
        if (!r.ok) this.onError(r);
        else if (r.changed && this.gate.wantsFrame(r.hash) && !this.disposed) {
          this.onFrame({ screen: r.screen, hash: r.hash });
          sent = r.hash;
        }
        this.gate.finish(sent);
        this.pump();
      },
      (err: unknown) => {
        this.gate.finish(null);
        this.onError({ code: 'capture-failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
