// The run painter against the per-cell reference (pixel-identical), the stored goldens (small tolerance) and targeted pixel checks.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFonts, loadFonts } from '../../src/worker/render/fonts.js';
import { ScreenModel } from '../../src/worker/render/screen-model.js';
import type { ScreenGrid } from '../../src/worker/render/screen-grid.js';
import { RunPainter } from '../../src/worker/render/painter.js';
import { encodeRgbaPng } from '../../src/worker/render/png-writer.js';
import { buildPalette } from '../../src/worker/render/palette.js';
import { cardFrame, CARD_IMAGE, type FrameLayout } from '../../src/worker/render/card-frame.js';
import {
  allScreenNames, countDifferentPixels, decodePng, GOLDEN_DIR, GOLDEN_SCREENS, loadScreen, paintPerCell, SYNTHETIC_CURSOR,
} from '../support/reference-painter.js';

let home: string;
let model: ScreenModel;
let painter: RunPainter;
const palette = buildPalette();

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lmx-render-'));
  const r = await installFonts(home);
  expect(r.problems).toEqual([]);
  loadFonts(home);
  model = new ScreenModel();
  painter = new RunPainter();
});
afterAll(() => {
  model?.dispose();
  rmSync(home, { recursive: true, force: true });
});

async function paintFixture(name: string): Promise<{ grid: ScreenGrid; pixels: Buffer; width: number }> {
  const grid = await model.load(loadScreen(name));
  const canvas = painter.paint(grid);
  return { grid, pixels: canvas.data(), width: canvas.width };
}

/** The 0xRRGGBB colour of pixel (x, y). */
function pixel(p: { pixels: Buffer; width: number }, x: number, y: number): number {
  const i = (y * p.width + x) * 4;
  return (p.pixels[i]! << 16) | (p.pixels[i + 1]! << 8) | p.pixels[i + 2]!;
}

/** x range of pixels that differ from `bg` inside a pixel box (the glyph's ink), or null if none. */
function inkColumns(p: { pixels: Buffer; width: number }, x0: number, x1: number, y0: number, y1: number, bg: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (pixel(p, x, y) !== bg) [lo, hi] = [Math.min(lo, x), Math.max(hi, x)];
  return lo === Infinity ? null : [lo, hi];
}

const CELL_W = 8.4;
const CELL_H = 18;

describe('run painter equals the per-cell reference painter', () => {
  it.each(allScreenNames())('%s at 120x40', async (name) => {
    const { grid, pixels } = await paintFixture(name);
    const reference = paintPerCell(grid).data();
    expect(countDifferentPixels(pixels, reference, 0)).toBe(0);
  });
});

describe('card frames (cropped, margin, scaled)', () => {
  it.each(['claude-04-idle-first', 'codex-04-typed', 'claude-02-onboarding-after-theme', 'synthetic-cjk-emoji'])(
    '%s: the run painter equals the reference painter in its card frame',
    async (name) => {
      const screen = loadScreen(name);
      const grid = await model.load(screen);
      const frame = cardFrame(grid, screen.cursor, painter.metrics);
      const run = painter.paint(grid, frame);
      expect([run.width, run.height]).toEqual([
        (Math.round(frame.cols * CELL_W) + 2 * frame.marginPx) * frame.scale,
        (frame.rows * CELL_H + 2 * frame.marginPx) * frame.scale,
      ]);
      expect(countDifferentPixels(run.data(), paintPerCell(grid, frame).data(), 0)).toBe(0);
    },
  );

  it('draws the same picture as the full frame, moved by the margin and scaled', async () => {
    const grid = await model.load(loadScreen('claude-04-idle-first'));
    const full = { pixels: Buffer.from(painter.paint(grid).data()), width: 1008 };
    const frame: FrameLayout = { cols: 120, rows: 13, marginPx: CARD_IMAGE.marginPx, scale: 2 };
    const card = { pixels: painter.paint(grid, frame).data(), width: (1008 + 2 * CARD_IMAGE.marginPx) * 2 };
    const m = CARD_IMAGE.marginPx * 2;
    // The margin is background; the logo's colour at (x, y) of the full frame is at 2x+m, 2y+m of the card.
    for (const [x, y] of [[0, 0], [card.width - 1, 0], [0, m - 1], [card.width - 1, m - 1]] as const) expect(pixel(card, x, y)).toBe(palette.background);
    const logo = palette.indexed[174]!;
    let matched = 0;
    let logoPixels = 0;
    for (let y = 0; y < 3 * CELL_H; y++) {
      for (let x = 0; x < 80; x++) {
        if (pixel(full, x, y) !== logo) continue;
        logoPixels++;
        if (pixel(card, 2 * x + m, 2 * y + m) === logo) matched++;
      }
    }
    expect(logoPixels).toBeGreaterThan(100);
    expect(matched).toBe(logoPixels);
  });
});

describe('goldens', () => {
  it.each([...GOLDEN_SCREENS])('%s matches its stored PNG', async (name) => {
    const { pixels, width } = await paintFixture(name);
    const golden = await decodePng(readFileSync(join(GOLDEN_DIR, `${name}.png`)));
    expect(golden.width).toBe(width);
    // Tolerance: anti-aliasing may move by a few levels between Skia builds; a wrong glyph or colour moves far more pixels.
    expect(countDifferentPixels(pixels, golden.data, 48)).toBeLessThan(50);
  });

  it('the PNG writer output decodes back to the painted pixels', async () => {
    const { pixels, width } = await paintFixture('synthetic-cjk-emoji');
    const decoded = await decodePng(await encodeRgbaPng(pixels, width, pixels.length / 4 / width));
    expect(countDifferentPixels(pixels, decoded.data, 0)).toBe(0);
  });
});

describe('what a user sees', () => {
  it('a CJK glyph covers its two columns and the text after wide characters starts on the right column', async () => {
    const p = await paintFixture('synthetic-cjk-emoji');
    const row = 5; // 汉字汉字|123456789|…
    const bg = palette.background;
    const han = inkColumns(p, 0, Math.round(2 * CELL_W), row * CELL_H, (row + 1) * CELL_H, bg)!;
    expect(han[0]).toBeLessThan(CELL_W / 2); // starts in column 0
    expect(han[1]).toBeGreaterThan(CELL_W * 1.5); // reaches into column 1
    // The bar after four hanzi sits in column 8, centred like the bar of the ASCII ruler above in column 9.
    const bar = inkColumns(p, Math.round(8 * CELL_W), Math.round(9 * CELL_W), row * CELL_H, (row + 1) * CELL_H, bg)!;
    const rulerBar = inkColumns(p, Math.round(9 * CELL_W), Math.round(10 * CELL_W), (row - 1) * CELL_H, row * CELL_H, bg)!;
    expect(bar).not.toBeNull();
    expect(Math.abs(bar[0] - 8 * CELL_W - (rulerBar[0] - 9 * CELL_W))).toBeLessThanOrEqual(1);
    // The hanzi before it still fills its right half (column 7): the bar did not shift left into it.
    expect(inkColumns(p, Math.round(7 * CELL_W), Math.round(8 * CELL_W), row * CELL_H + 1, (row + 1) * CELL_H - 1, bg)).not.toBeNull();
  });

  it('truecolor backgrounds have their exact colour', async () => {
    const p = await paintFixture('synthetic-cjk-emoji');
    const i = p.grid.bg.indexOf(0x282c34); // RGB(40,44,52)
    expect(i).toBeGreaterThan(0);
    const col = i % 120;
    const row = Math.floor(i / 120);
    expect(pixel(p, Math.round(col * CELL_W) + 1, row * CELL_H)).toBe(0x282c34);
    const j = p.grid.bg.indexOf(0x14143c); // first cell of the truecolor gradient row: 48;2;20;20;60
    expect(pixel(p, Math.round((j % 120) * CELL_W) + 1, Math.floor(j / 120) * CELL_H)).toBe(0x14143c);
  });

  it('the visible cursor inverts its cell (both halves of a wide character)', async () => {
    const p = await paintFixture('synthetic-cjk-emoji');
    const { x, y } = SYNTHETIC_CURSOR;
    expect(pixel(p, Math.round(x * CELL_W), y * CELL_H)).toBe(palette.foreground);
    expect(pixel(p, Math.round((x + 2) * CELL_W) - 1, y * CELL_H)).toBe(palette.foreground);
    // A hidden cursor draws nothing: the same cell with the cursor hidden keeps the default background.
    const grid = await model.load({ ...loadScreen('synthetic-cjk-emoji'), cursor: { x, y, visible: false } });
    const hidden = { pixels: painter.paint(grid).data(), width: 1008 };
    expect(pixel(hidden, Math.round(x * CELL_W), y * CELL_H)).toBe(palette.background);
  });

  it("the top row (Claude's logo) is drawn", async () => {
    const p = await paintFixture('claude-04-idle-first');
    const logo = palette.indexed[174]!;
    let found = 0;
    for (let x = 0; x < 80; x++) for (let y = 0; y < CELL_H; y++) if (pixel(p, x, y) === logo) found++;
    expect(found).toBeGreaterThan(20);
  });

  it('⏸ is drawn in the foreground colour, not as a colour emoji', async () => {
    const p = await paintFixture('claude-13-idle-seeded');
    const row = 39;
    const col = 2;
    expect(p.grid.chars[row * 120 + col]).toBe('⏸');
    const fg = palette.indexed[246]!;
    const colours = new Set<number>();
    for (let y = row * CELL_H; y < (row + 1) * CELL_H; y++) {
      for (let x = Math.round(col * CELL_W); x < Math.round((col + 1) * CELL_W); x++) colours.add(pixel(p, x, y));
    }
    expect([...colours].sort()).toEqual([fg, palette.background].sort());
  });

  it('⏸ and ⏵ are as tall as the text beside them', async () => {
    // Row 39 of claude-13: "  ⏸ manual mode on"; row 12 of claude-04: "  ⏵⏵ auto mode on". 'l' and 'd' reach the cap height.
    for (const [name, row, symbolCol, letterCol] of [['claude-13-idle-seeded', 39, 2, 9], ['claude-04-idle-first', 12, 2, 12]] as const) {
      const p = await paintFixture(name);
      expect(p.grid.chars[row * 120 + letterCol]).toMatch(/[ld]/);
      const inkRows = (col: number) => {
        const fg = p.grid.fg[row * 120 + col]!;
        const ys: number[] = [];
        for (let y = row * CELL_H; y < (row + 1) * CELL_H; y++) {
          for (let x = Math.round(col * CELL_W); x < Math.round((col + 1) * CELL_W); x++) {
            if (pixel(p, x, y) === fg || (pixel(p, x, y) !== palette.background && Math.abs((pixel(p, x, y) & 0xff) - (fg & 0xff)) < 40)) {
              ys.push(y);
              break;
            }
          }
        }
        return ys.length ? Math.max(...ys) - Math.min(...ys) + 1 : 0;
      };
      const letter = inkRows(letterCol);
      expect(letter).toBeGreaterThanOrEqual(9);
      expect(inkRows(symbolCol), name).toBeGreaterThanOrEqual(letter - 1);
    }
  });

  it('box drawing │ has no gap between rows', async () => {
    const p = await paintFixture('gemini-01-first-screen');
    const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'screens', 'gemini-01-first-screen.esc.txt'), 'utf8');
    expect(text).toContain('│');
    // Find a column holding │ on several consecutive rows and check every pixel row through them has ink.
    const g = p.grid;
    let checked = 0;
    for (let col = 0; col < 120 && checked === 0; col++) {
      for (let row = 0; row + 2 < 40; row++) {
        if ([0, 1, 2].every((k) => g.chars[(row + k) * 120 + col] === '│')) {
          const fg = g.fg[row * 120 + col]!;
          const x0 = Math.round(col * CELL_W);
          for (let y = row * CELL_H; y < (row + 3) * CELL_H; y++) {
            let ink = false;
            for (let x = x0; x < Math.round((col + 1) * CELL_W); x++) ink ||= pixel(p, x, y) === fg;
            expect(ink, `pixel row ${y}`).toBe(true);
          }
          checked++;
          break;
        }
      }
    }
    expect(checked).toBe(1);
  });
});
