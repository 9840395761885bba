// Where a card frame's bands lie and when two bands count as the same (frameBands).
import { describe, expect, it } from 'vitest';
import { frameBands, rowKey } from '../../src/worker/render/frame-bands.js';
import type { ScreenGrid } from '../../src/worker/render/screen-grid.js';
import type { FrameLayout } from '../../src/shared/render-protocol.js';

/** A grid of `lines` (one char per cell, padded with blanks), all default colours. */
function grid(lines: string[], cols = 4): ScreenGrid {
  const rows = lines.length;
  const chars = lines.flatMap((l) => Array.from({ length: cols }, (_, c) => l[c] ?? ''));
  return { cols, rows, chars, widths: new Uint8Array(rows * cols).fill(1), fg: new Uint32Array(rows * cols).fill(7), bg: new Uint32Array(rows * cols), flags: new Uint8Array(rows * cols), defaultBg: 0 };
}
const frame = (rows: number, scale = 2, marginPx = 8): FrameLayout => ({ cols: 4, rows, marginPx, scale });
const CELL_H = 17;
const heightOf = (f: FrameLayout) => (f.rows * CELL_H + 2 * f.marginPx) * f.scale;

describe('frameBands', () => {
  it.each([
    // [name, rows, scale, margin, expected [y0, y1] per band]
    ['one row takes both margins', 1, 2, 8, [[0, 66]]],
    ['three rows at scale 2', 3, 2, 8, [[0, 50], [50, 84], [84, 134]]],
    ['no margin, scale 1', 2, 1, 0, [[0, 17], [17, 34]]],
  ] as const)('%s', (_name, rows, scale, margin, want) => {
    const f = frame(rows, scale, margin);
    const bands = frameBands(grid(Array.from({ length: rows }, () => 'ab')), f, CELL_H, 100, heightOf(f));
    expect(bands.map((b) => [b.y0, b.y1])).toEqual(want);
  });

  it('gives equal keys to bands painted by the same rows, wherever they stand (a scroll)', () => {
    const f = frame(5);
    const h = heightOf(f);
    const before = frameBands(grid(['a', 'b', 'c', 'd', 'e']), f, CELL_H, 100, h);
    const after = frameBands(grid(['b', 'c', 'd', 'e', 'f']), f, CELL_H, 100, h);
    // Band of 'c' (rows b, c, d) moved from index 2 to 1; 'd' (c, d, e) from 3 to 2.
    expect(after[1]!.key).toBe(before[2]!.key);
    expect(after[2]!.key).toBe(before[3]!.key);
    // The first and last bands carry the margins: never equal to a middle one.
    expect(after[0]!.key).not.toBe(before[1]!.key);
    expect(after[3]!.key).not.toBe(before[4]!.key);
  });

  it.each([
    ['the row itself changes', (g: ScreenGrid): void => { g.chars[2 * 4] = 'X'; }, false],
    ['the row above changes (glyphs may reach down)', (g: ScreenGrid): void => { g.chars[1 * 4] = 'X'; }, false],
    ['the row below changes (glyphs may reach up)', (g: ScreenGrid): void => { g.chars[3 * 4] = 'X'; }, false],
    ['a colour changes', (g: ScreenGrid): void => { g.fg[2 * 4 + 1] = 3; }, false],
    ['an attribute changes', (g: ScreenGrid): void => { g.flags[2 * 4 + 1] = 1; }, false],
    ['two rows away changes', (g: ScreenGrid): void => { g.chars[4 * 4] = 'X'; }, true],
    ['a cell beyond the painted columns changes', (g: ScreenGrid): void => { g.chars[2 * 4 + 3] = 'X'; }, true],
  ] as const)('band 2 keeps its key when %s: %s', (_name, change, same) => {
    const f = { ...frame(5), cols: 3 };
    const h = heightOf(f);
    const g = grid(['a', 'b', 'c', 'd', 'e']);
    const before = frameBands(g, f, CELL_H, 100, h)[2]!.key;
    change(g);
    expect(frameBands(g, f, CELL_H, 100, h)[2]!.key === before).toBe(same);
  });

  it.each([
    // [name, row changed, reach up per row, reach down per row, band 2 keeps its key]
    ['the row above changes and reaches nowhere', 1, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], true],
    ['the row above changes and reaches one row down', 1, [0, 0, 0, 0, 0], [0, 1, 0, 0, 0], false],
    ['the row below changes and reaches one row up', 3, [0, 0, 0, 1, 0], [0, 0, 0, 0, 0], false],
    ['the row below changes and reaches only down', 3, [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], true],
    ['two rows away changes and reaches two rows', 0, [0, 0, 0, 0, 0], [2, 0, 0, 0, 0], false],
    ['two rows away changes and reaches one row', 4, [0, 0, 0, 0, 1], [0, 0, 0, 0, 0], true],
    ['the row itself changes', 2, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], false],
  ] as const)('with ink reach, band 2 keeps its key when %s: %s', (_name, row, up, down, same) => {
    const f = { ...frame(5), cols: 3 };
    const h = heightOf(f);
    const reach = { up: Uint8Array.from(up), down: Uint8Array.from(down) };
    const g = grid(['a', 'b', 'c', 'd', 'e']);
    const before = frameBands(g, f, CELL_H, 100, h, reach)[2]!.key;
    g.chars[row * 4] = 'X';
    expect(frameBands(g, f, CELL_H, 100, h, reach)[2]!.key === before).toBe(same);
  });

  it('a row that stops reaching a band changes the band\'s key (its pixels may have changed)', () => {
    const f = { ...frame(5), cols: 3 };
    const h = heightOf(f);
    const g = grid(['a', 'b', 'c', 'd', 'e']);
    const none = { up: new Uint8Array(5), down: new Uint8Array(5) };
    const above = { up: new Uint8Array(5), down: Uint8Array.from([0, 1, 0, 0, 0]) };
    expect(frameBands(g, f, CELL_H, 100, h, above)[2]!.key).not.toBe(frameBands(g, f, CELL_H, 100, h, none)[2]!.key);
  });

  it('keys differ with the image width, scale and background', () => {
    const g = grid(['a', 'b', 'c']);
    const f = frame(3);
    const key = (width: number, fr: FrameLayout, bg = 0) => frameBands({ ...g, defaultBg: bg }, fr, CELL_H, width, heightOf(fr))[1]!.key;
    const base = key(100, f);
    expect(key(101, f)).not.toBe(base);
    expect(key(100, { ...f, scale: 3 })).not.toBe(base);
    expect(key(100, f, 5)).not.toBe(base);
  });

  it('a row outside the grid has no key', () => expect(rowKey(grid(['a']), 1, 4)).toBe(''));
});
