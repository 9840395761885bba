// The renderer's entry, run as a child process of its host (src/platform/render-process.ts: a worker, or the daemon): parses, paints and
// PNG-encodes captured screens off the worker's event loop, one at a time. Init comes as argv[2] (JSON).
import { performance } from 'node:perf_hooks';
import { loadFonts } from './fonts.js';
import { canvasSize, framePixelsOf, RunPainter } from './painter.js';
import { PngEncoder } from './png-writer.js';
import { BandedPngEncoder } from './banded-png.js';
import { frameBands, type FrameBand } from './frame-bands.js';
import type { RowReach } from './ink-reach.js';
import { ScreenModel } from './screen-model.js';
import type { CapturedScreen, FrameBandCounts, FrameKind, FrameLayout, FromRenderProcess, RenderProcessInit, ToRenderProcess } from '../../shared/render-protocol.js';
import type { LoadedFonts } from './fonts.js';
import { cardFrame, fullFrame, phoneCardFrame } from './card-frame.js';
import type { ScreenGrid } from './screen-grid.js';

if (!process.send) throw new Error('render-thread.ts must run as a child process with an IPC channel');
const init = JSON.parse(process.argv[2] ?? '{}') as RenderProcessInit;
/**
 * Sends `m`; resolves once it is written out (or could not be: Node calls back either way). A PNG is 0.1-0.4 MB, more
 * than the socket takes at once: its tail goes out from the event loop, so work done right after a send (the frame's
 * garbage collection) would hold the daemon's copy back by as long (bench render's handoffMs for a CJK card: 1.6-2.0
 * → 1.0 ms). Callers that need not wait write `void send(…)`.
 */
const send = (m: FromRenderProcess<LoadedFonts>): Promise<void> =>
  new Promise((resolve) => {
    if (process.send) process.send(m, undefined, undefined, () => resolve());
    else resolve();
  });
// The worker went away (stopped, crashed, killed): nobody wants frames any more.
process.on('disconnect', () => process.exit(0));

// Fonts are registered in this thread: GlobalFonts is process-wide, so the main thread need not load @napi-rs/canvas at all.
const fonts = loadFonts(init.home);
const model = new ScreenModel();
const painter = new RunPainter();
const encoder = new PngEncoder();
const banded = new BandedPngEncoder();

/** The grid to paint and its frame for a frame kind (see FrameKind). */
function layout(grid: ScreenGrid, screen: CapturedScreen, kind: FrameKind): { paint: ScreenGrid; frame: FrameLayout } {
  if (kind === 'card') {
    const phone = phoneCardFrame(grid, screen.cursor, painter.metrics);
    return { paint: phone.grid, frame: phone.frame };
  }
  return { paint: grid, frame: kind === 'wide' ? cardFrame(grid, screen.cursor, painter.metrics) : fullFrame(grid) };
}

/** The frame's bands, keyed on the rows whose ink reaches each (frame-bands.ts, ink-reach.ts). */
function bandsOf(grid: ScreenGrid, frame: FrameLayout): { bands: FrameBand[]; reach: RowReach } {
  const size = canvasSize(painter.metrics, frame);
  const reach = painter.inkReach(grid, frame);
  return { bands: frameBands(grid, frame, painter.metrics.cellHeight, size.width, size.height, reach), reach };
}

async function render(id: number, screen: CapturedScreen, kind: FrameKind, stream: string | undefined): Promise<void> {
  const t0 = performance.now();
  const grid = await model.load(screen);
  const t1 = performance.now();
  const { paint, frame } = layout(grid, screen, kind);
  // A stream's frame is painted and encoded band by band: only the bands its last frame lacks are painted (each alone
  // on a small strip, while earlier ones deflate: RunPainter.paintBand) and deflated (banded-png.ts); a lone frame is
  // painted whole, deflated at once.
  let encoded: { png: Buffer; bands?: FrameBandCounts };
  let paintMs: number;
  let encodeMs: number;
  if (stream === undefined) {
    const painted = painter.paintKept(paint, frame);
    const t2 = performance.now();
    // Reading the pixels back is part of encoding (canvas.data() copies them: ~1-2 ms at 120x40, 3-9 ms at 200x60).
    encoded = { png: await encoder.encode(framePixelsOf(painted), painted.width, painted.height) };
    [paintMs, encodeMs] = [t2 - t1, performance.now() - t2];
  } else {
    const { width, height } = canvasSize(painter.metrics, frame);
    const cut = bandsOf(paint, frame);
    const t2 = performance.now();
    let bandPaintMs = 0;
    encoded = await banded.encode(stream, (band) => {
      const at = performance.now();
      const strip = painter.paintBand(paint, frame, band, cut.reach);
      bandPaintMs += performance.now() - at;
      return framePixelsOf(strip);
    }, width, height, cut.bands);
    [paintMs, encodeMs] = [t2 - t1 + bandPaintMs, performance.now() - t2 - bandPaintMs];
  }
  await send({ type: 'rendered', id, png: encoded.png, frame, timings: { parseMs: t1 - t0, paintMs, encodeMs }, ...(encoded.bands ? { bands: encoded.bands } : {}) });
  collectFrameGarbage();
}

/**
 * The frame's pixel copy and PNG (several MB outside V8's small heap) are garbage once sent, but V8 counts them
 * lightly and would keep dozens of them until a collection comes by itself (+60 MB over 60 frames, measured). A
 * young-generation collection (~1 ms) frees them now. `gc` exists only when started with --expose-gc (the host does).
 */
function collectFrameGarbage(): void {
  (globalThis as { gc?: (options: { type: 'minor'; execution: 'sync' }) => void }).gc?.({ type: 'minor', execution: 'sync' });
}

// One frame at a time: the model's terminal, the painter's canvas and the encoder's buffers are reused between frames.
let queue: Promise<void> = Promise.resolve();
process.on('message', (m: ToRenderProcess) => {
  if (m.type === 'forget') {
    // In the queue's order: a frame of the stream already queued still finds its bands, later ones start afresh.
    queue = queue.then(() => banded.forget(m.stream));
    return;
  }
  queue = queue.then(() => render(m.id, m.screen, m.frame, m.stream)).catch((err: unknown) => send({ type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) }));
});
void send({ type: 'ready', fonts });
