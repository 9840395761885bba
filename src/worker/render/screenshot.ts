// ScreenRenderer (capture → hash → parse → paint → PNG off the event loop) and ScreenshotLoop, which runs it as the FrameGate allows.
import { performance } from 'node:perf_hooks';
import type { TmuxCommandRunner } from '../backend/tmux-control.js';
import { capturePane, screenHash } from './capture.js';
import { FrameGate, FRAME_GATE_DEFAULTS } from './frame-gate.js';
import { loadFonts, type LoadedFonts } from './fonts.js';
import { RunPainter } from './painter.js';
import { encodeRgbaPng } from './png-writer.js';
import { ScreenModel, type CapturedScreen } from './screen-model.js';

export interface RenderTimings {
  captureMs: number;
  parseMs: number;
  paintMs: number;
  encodeMs: number;
  totalMs: number;
}

export type RenderResult =
  | { ok: true; changed: true; png: Buffer; hash: string; cols: number; rows: number; timings: RenderTimings }
  | { ok: true; changed: false; hash: string; cols: number; rows: number; timings: RenderTimings }
  | { ok: false; code: 'pane-gone' | 'tmux-failed' | 'bad-reply'; message: string };

export class ScreenRenderer {
  readonly fonts: LoadedFonts;
  private readonly model = new ScreenModel();
  private readonly painter: RunPainter;

  constructor(private readonly opts: { runner: TmuxCommandRunner; home: string }) {
    this.fonts = loadFonts(opts.home);
    this.painter = new RunPainter();
  }

  /** Captures `target`; when its hash equals `previousHash` nothing is painted (`changed: false`). */
  async render(target: string, previousHash?: string | null): Promise<RenderResult> {
    const t0 = performance.now();
    const cap = await capturePane(this.opts.runner, target);
    if (!cap.ok) return cap;
    const captureMs = performance.now() - t0;
    const hash = screenHash(cap.screen);
    const { cols, rows } = cap.screen;
    if (hash === previousHash) {
      return { ok: true, changed: false, hash, cols, rows, timings: { captureMs, parseMs: 0, paintMs: 0, encodeMs: 0, totalMs: captureMs } };
    }
    const r = await this.renderScreen(cap.screen);
    return { ok: true, changed: true, png: r.png, hash, cols, rows, timings: { captureMs, ...r.timings, totalMs: performance.now() - t0 } };
  }

  /** Parses, paints and encodes an already captured screen (fixtures, tests). */
  async renderScreen(screen: CapturedScreen): Promise<{ png: Buffer; timings: Omit<RenderTimings, 'captureMs' | 'totalMs'> }> {
    const t0 = performance.now();
    const grid = await this.model.load(screen);
    const t1 = performance.now();
    const canvas = this.painter.paint(grid);
    const pixels = canvas.data(); // a copy: the canvas may be repainted while the PNG is being deflated
    const t2 = performance.now();
    const png = await encodeRgbaPng(pixels, canvas.width, canvas.height);
    const t3 = performance.now();
    return { png, timings: { parseMs: t1 - t0, paintMs: t2 - t1, encodeMs: t3 - t2 } };
  }

  dispose(): void {
    this.model.dispose();
  }
}

export interface ScreenshotFrame {
  png: Buffer;
  hash: string;
  cols: number;
  rows: number;
}

/** Drives a ScreenRenderer for one pane with a FrameGate and real timers; frames go to `onFrame`, failures to `onError`. */
export class ScreenshotLoop {
  readonly gate: FrameGate;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    private readonly renderer: Pick<ScreenRenderer, 'render'>,
    private readonly target: string,
    private readonly onFrame: (f: ScreenshotFrame) => void,
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
    void this.renderer.render(this.target, this.gate.skipHash).then(
      (r) => {
        let sent: string | null = null;
        if (!r.ok) this.onError(r);
        else if (r.changed && this.gate.wantsFrame(r.hash) && !this.disposed) {
          this.onFrame({ png: r.png, hash: r.hash, cols: r.cols, rows: r.rows });
          sent = r.hash;
        }
        this.gate.finish(sent);
        this.pump();
      },
      (err: unknown) => {
        this.gate.finish(null);
        this.onError({ code: 'render-failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
