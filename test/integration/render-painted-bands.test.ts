// A kept canvas painted band by band (only the bands it does not hold) must hold exactly the pixels of the same frame
// painted whole on a fresh canvas: checked over every fixture screen as one session's phone card frames, with rows
// ticking, tall glyphs appearing and going, other sizes, and whole paints in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFonts } from '../../src/worker/render/fonts.js';
import { canvasSize, RunPainter } from '../../src/worker/render/painter.js';
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

describe('painting only the bands a kept canvas lacks', () => {
  it('gives the pixels of the whole frame painted afresh, frame after frame', async () => {
    const incremental = new RunPainter();
    const whole = new RunPainter();
    const frames: { name: string; grid: ScreenGrid; frame: FrameLayout; banded: boolean }[] = [];
    for (const [n, name] of allScreenNames().entries()) {
      const screen = loadScreen(name);
      const phone = phoneCardFrame(await model.load(screen), screen.cursor, incremental.metrics);
      const last = Math.min(phone.frame.rows, phone.grid.rows) - 1;
      frames.push({ name, grid: phone.grid, frame: phone.frame, banded: true });
      // A status row ticks twice; tall glyphs come into a row, stay while the rows around them change, and go again.
      frames.push({ name: `${name} tick`, grid: withRow(phone.grid, last, [...'✻ Thinking… 3s']), frame: phone.frame, banded: true });
      frames.push({ name: `${name} tick 2`, grid: withRow(phone.grid, last, [...'✢ Thinking… 4s']), frame: phone.frame, banded: true });
      // A lone frame (painted whole, no bands) between a session's frames: the canvas then holds no known bands.
      if (name.endsWith('-01-first-screen')) frames.push({ name: `${name} lone`, grid: phone.grid, frame: phone.frame, banded: false });
      // Tall glyphs on a third of the screens (the check is CPU-bound: two paints and two read-backs per frame).
      if (n % 3 !== 0) continue;
      const mid = Math.floor(last / 2);
      const tall = withRow(phone.grid, mid, Array.from({ length: phone.grid.cols }, (_, c) => TALL[c % 3]!));
      frames.push({ name: `${name} tall`, grid: tall, frame: phone.frame, banded: true });
      // The tall row stays while the rows around it change: its ink must be drawn again into them (and only there).
      if (mid > 0) frames.push({ name: `${name} tall, row above changes`, grid: withRow(tall, mid - 1, [...'changed']), frame: phone.frame, banded: true });
      if (mid + 1 < last) frames.push({ name: `${name} tall, row below changes`, grid: withRow(withRow(tall, mid - 1, [...'changed']), mid + 1, [...'below']), frame: phone.frame, banded: true });
      frames.push({ name: `${name} tall gone`, grid: phone.grid, frame: phone.frame, banded: true });
    }
    let partial = 0;
    for (const f of frames) {
      const { width, height } = canvasSize(incremental.metrics, f.frame);
      const reach = incremental.inkReach(f.grid, f.frame);
      const bands = frameBands(f.grid, f.frame, incremental.metrics.cellHeight, width, height, reach);
      const painted = incremental.paintKept(f.grid, f.frame, f.banded ? { bands, reach } : undefined);
      if (typeof painted.paintedBands === 'number' && painted.paintedBands < bands.length) partial++;
      const got = painted.canvas.getContext('2d').getImageData(0, 0, width, height).data;
      const want = whole.paint(f.grid, f.frame).getContext('2d').getImageData(0, 0, width, height).data;
      expect(Buffer.from(got).equals(Buffer.from(want)), f.name).toBe(true);
    }
    // Most frames were painted in part (the check above is about them, not about whole paints).
    expect(partial).toBeGreaterThan(frames.length / 2);
  }, 240_000);
});
