// A card band keyed on its own row and the rows whose ink reaches it (ink-reach.ts) must have the same pixels whenever
// its key is the same: checked on every fixture screen as a phone card against variants whose other rows changed —
// blanked, or filled with glyphs that truly paint far above and below their row (stacked combining marks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFonts } from '../../src/worker/render/fonts.js';
import { RunPainter } from '../../src/worker/render/painter.js';
import { ScreenModel } from '../../src/worker/render/screen-model.js';
import { phoneCardFrame } from '../../src/worker/render/card-frame.js';
import { frameBands } from '../../src/worker/render/frame-bands.js';
import type { ScreenGrid } from '../../src/worker/render/screen-grid.js';
import type { FrameLayout } from '../../src/shared/render-protocol.js';
import { allScreenNames, loadScreen } from '../support/reference-painter.js';

let home: string;
let painter: RunPainter;
const model = new ScreenModel();

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-ink-reach-'));
  loadFonts(home);
  painter = new RunPainter();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Reaches a row or more above (acute accents stacked) and below (dots below stacked) its cell. */
const TALL_UP = `a${'\u0301'.repeat(6)}`;
const TALL_DOWN = `q${'\u0323'.repeat(6)}`;

/** A copy of the grid with every row `r` for which `pick(r)` holds rewritten by `fill(cellIndex, col)`. */
function variant(g: ScreenGrid, pick: (row: number) => boolean, fill: (col: number) => string): ScreenGrid {
  const v: ScreenGrid = { ...g, chars: [...g.chars], widths: g.widths.slice(), fg: g.fg.slice(), bg: g.bg.slice(), flags: g.flags.slice() };
  for (let row = 0; row < g.rows; row++) {
    if (!pick(row)) continue;
    for (let col = 0; col < g.cols; col++) {
      const i = row * g.cols + col;
      v.chars[i] = fill(col);
      v.widths[i] = 1;
      v.bg[i] = g.defaultBg;
      v.flags[i] = 0;
    }
  }
  return v;
}

/** The frame's bands (with ink reach) and each band's pixels. */
function painted(g: ScreenGrid, frame: FrameLayout): { key: string; pixels: Uint8ClampedArray }[] {
  const canvas = painter.paint(g, frame);
  const ctx = canvas.getContext('2d');
  return frameBands(g, frame, painter.metrics.cellHeight, canvas.width, canvas.height, painter.inkReach(g, frame)).map((b) => ({
    key: b.key,
    pixels: ctx.getImageData(0, b.y0, canvas.width, b.y1 - b.y0).data,
  }));
}

describe('bands keyed on ink reach', () => {
  it('a band with an unchanged key has unchanged pixels, whatever changed around it (every fixture, as a phone card)', async () => {
    let sameKey = 0;
    let rekeyedByReach = 0;
    for (const name of allScreenNames()) {
      const screen = loadScreen(name);
      const phone = phoneCardFrame(await model.load(screen), screen.cursor, painter.metrics);
      const base = painted(phone.grid, phone.frame);
      const variants = [
        variant(phone.grid, (r) => r % 2 === 0, () => ''),
        variant(phone.grid, (r) => r % 2 === 1, () => ''),
        variant(phone.grid, (r) => r % 2 === 0, (c) => (c % 2 ? TALL_UP : TALL_DOWN)),
        variant(phone.grid, (r) => r % 3 === 1, (c) => (c % 4 === 0 ? TALL_UP : 'x')),
      ];
      for (const [k, v] of variants.entries()) {
        const bands = painted(v, phone.frame);
        expect(bands.length, name).toBe(base.length);
        for (const [i, band] of bands.entries()) {
          const ownRowSame = band.key.split('\u0002')[1] === base[i]!.key.split('\u0002')[1];
          if (band.key !== base[i]!.key) {
            if (ownRowSame && k >= 2) rekeyedByReach++;
            continue;
          }
          sameKey++;
          expect(Buffer.from(band.pixels).equals(Buffer.from(base[i]!.pixels)), `${name} variant ${k} band ${i}`).toBe(true);
        }
      }
    }
    // Both sides of the check happened: many bands kept their key, and tall neighbours changed the keys of others.
    expect(sameKey).toBeGreaterThan(1000);
    expect(rekeyedByReach).toBeGreaterThan(100);
  });

  it.each([
    ['plain text stays in its row', 'hello, world', 0, 0],
    ['descenders and brackets stay in their row', 'gjpqy|_[]{}', 0, 0],
    ['stacked acute accents reach the row above', TALL_UP, 1, 0],
    ['stacked dots below reach the row below', TALL_DOWN, 0, 1],
  ] as const)('%s', (_name, text, up, down) => {
    const chars = [...text];
    const g: ScreenGrid = {
      cols: chars.length, rows: 1, chars, widths: new Uint8Array(chars.length).fill(1), fg: new Uint32Array(chars.length).fill(0xffffff),
      bg: new Uint32Array(chars.length), flags: new Uint8Array(chars.length), defaultBg: 0,
    };
    // One cell holds a whole stacked cluster: [...text] splits marks apart, so the tall rows are one cell each.
    if (text === TALL_UP || text === TALL_DOWN) Object.assign(g, { cols: 1, chars: [text], widths: new Uint8Array([1]), fg: new Uint32Array([0xffffff]), bg: new Uint32Array(1), flags: new Uint8Array(1) });
    const reach = painter.inkReach(g, { cols: g.cols, rows: 1, marginPx: 0, scale: 1 });
    expect([Math.min(1, reach.up[0]!), Math.min(1, reach.down[0]!)]).toEqual([up, down]);
  });
});
