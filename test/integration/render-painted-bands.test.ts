// Each band of a frame painted alone on its strip (its rows and the rows whose ink reaches it) must hold exactly the
// pixels of those rows of the same frame painted whole: checked over every fixture screen as phone card frames, with
// rows ticking, tall glyphs appearing and going, and lone whole paints in between on the same painter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFonts } from '../../src/worker/render/fonts.js';
import { canvasSize, framePixelsOf, RunPainter } from '../../src/worker/render/painter.js';
import { ScreenModel } from '../../src/worker/render/screen-model.js';
import { phoneCardFrame } from '../../src/worker/render/card-frame.js';
import { frameBands } from '../../src/worker/render/frame-bands.js';
import type { ScreenGrid } from '../../src/worker/render/screen-grid.js';
import type { FrameLayout } from '../../src/shared/render-protocol.js';
import { allScreenNames, loadScreen } from '../support/reference-painter.js';

let home: string;
const model = new ScreenModel();

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-painted-bands-'));
  loadFonts(home);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The grid with row `row` rewritten as `text` (one cell per code point, default colours). */
function withRow(g: ScreenGrid, row: number, cells: string[]): ScreenGrid {
  const v: ScreenGrid = { ...g, chars: [...g.chars], widths: g.widths.slice(), fg: g.fg.slice(), bg: g.bg.slice(), flags: g.flags.slice() };
  for (let col = 0; col < g.cols; col++) {
    const i = row * g.cols + col;
    v.chars[i] = cells[col] ?? '';
    v.widths[i] = 1;
    v.bg[i] = g.defaultBg;
    v.flags[i] = 0;
  }
  return v;
}

const TALL = [`a${'\u0301'.repeat(6)}`, `q${'\u0323'.repeat(6)}`, 'x'];

describe('painting a band alone on a strip', () => {
  it('gives the pixels of those rows of the whole frame painted at once, for every band', async () => {
    const banded = new RunPainter();
    const whole = new RunPainter();
    const frames: { name: string; grid: ScreenGrid; frame: FrameLayout; lone: boolean }[] = [];
    for (const [n, name] of allScreenNames().entries()) {
      const screen = loadScreen(name);
      const phone = phoneCardFrame(await model.load(screen), screen.cursor, banded.metrics);
      const last = Math.min(phone.frame.rows, phone.grid.rows) - 1;
      frames.push({ name, grid: phone.grid, frame: phone.frame, lone: false });
      // A status row ticks; tall glyphs come into a row and reach the rows around it while those change.
      frames.push({ name: `${name} tick`, grid: withRow(phone.grid, last, [...'✻ Thinking… 3s']), frame: phone.frame, lone: false });
      // A lone frame (painted whole on the same painter's kept canvas) between a session's frames.
      if (name.endsWith('-01-first-screen')) frames.push({ name: `${name} lone`, grid: phone.grid, frame: phone.frame, lone: true });
      // Tall glyphs on a third of the screens (the check is CPU-bound: a whole paint and every band per frame).
      if (n % 3 !== 0) continue;
      const mid = Math.floor(last / 2);
      const tall = withRow(phone.grid, mid, Array.from({ length: phone.grid.cols }, (_, c) => TALL[c % 3]!));
      frames.push({ name: `${name} tall`, grid: tall, frame: phone.frame, lone: false });
      if (mid > 0 && mid + 1 < last) frames.push({ name: `${name} tall, rows around change`, grid: withRow(withRow(tall, mid - 1, [...'changed']), mid + 1, [...'below']), frame: phone.frame, lone: false });
    }
    let bandsChecked = 0;
    let reachedBands = 0;
    for (const f of frames) {
      const { width, height } = canvasSize(banded.metrics, f.frame);
      const want = Buffer.from(whole.paint(f.grid, f.frame).getContext('2d').getImageData(0, 0, width, height).data);
      if (f.lone) {
        const kept = banded.paintKept(f.grid, f.frame);
        expect(Buffer.from(framePixelsOf(kept)).equals(want), f.name).toBe(true);
        continue;
      }
      const reach = banded.inkReach(f.grid, f.frame);
      const bands = frameBands(f.grid, f.frame, banded.metrics.cellHeight, width, height, reach);
      expect(bands[0]!.y0).toBe(0);
      expect(bands.at(-1)!.y1).toBe(height);
      for (const band of bands) {
        const got = Buffer.from(framePixelsOf(banded.paintBand(f.grid, f.frame, band, reach)));
        const same = got.equals(want.subarray(band.y0 * width * 4, band.y1 * width * 4));
        expect(same, `${f.name}: band ${band.y0}-${band.y1} (rows ${band.rows.join('-')})`).toBe(true);
        bandsChecked++;
        const [r] = band.rows;
        if ((r > 0 && reach.down[r - 1]! > 0) || reach.up[r + 1]! > 0) reachedBands++;
      }
    }
    // The tall rows made some bands depend on the rows around them (the check above is about those too).
    expect(bandsChecked).toBeGreaterThan(frames.length * 10);
    expect(reachedBands).toBeGreaterThan(20);
  }, 240_000);
});
