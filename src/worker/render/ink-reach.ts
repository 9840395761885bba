// How many rows beyond its own a text row's glyphs may paint into, so a card band is keyed on the neighbour rows
// that can change its pixels and on no others (frame-bands.ts). Measured on the 63 fixture screens as a session's
// frames: keying every band on both neighbours kept 36% of bands between frames, keying on its own row alone 54%
// (deflate CPU per frame -29%); almost no row's ink leaves its cell, so the neighbours rarely matter.
import { classifyCell, fontFor, type CellMetrics, type GlyphMeasurer } from './cell-glyphs.js';
import type { ScreenGrid } from './screen-grid.js';

export const INK_REACH = {
  /**
   * Room (px at the font's size) a glyph's measured ink must leave before a row edge to count as inside its row: the
   * canvas reports ink bounds rounded to whole pixels, anti-aliasing blurs an edge by up to a pixel, and a frame at
   * scale 2-3 is rasterised at 28-42 px where hinting can move an edge by part of a pixel.
   */
  marginPx: 1,
} as const;

/** Per painted row: how many rows above (`up`) and below (`down`) its ink may reach; 0 when it stays in its row. */
export interface RowReach {
  up: Uint8Array;
  down: Uint8Array;
}

/** The ink reach of one cell in whole rows: the font a cell is drawn with, its ink bounds against the row's edges. */
function cellReach(grid: ScreenGrid, i: number, m: CellMetrics, measurer: GlyphMeasurer): { up: number; down: number } {
  const cls = classifyCell(grid, i, m, measurer);
  // Geometric glyphs are rectangles inside the cell box; blanks and right halves draw no glyph.
  if (cls === 'skip' || cls === 'blank' || cls === 'geometric') return { up: 0, down: 0 };
  const font = fontFor(grid.flags[i]!, cls === 'wide' ? 'wide' : cls === 'emoji' ? 'emoji' : 'narrow', m.fontPx);
  const ink = measurer.ink(font, grid.chars[i]!);
  const top = m.baseline - ink.ascent - INK_REACH.marginPx;
  const bottom = m.baseline + ink.descent + INK_REACH.marginPx;
  return {
    up: top < 0 ? Math.ceil(-top / m.cellHeight) : 0,
    down: bottom > m.cellHeight ? Math.ceil((bottom - m.cellHeight) / m.cellHeight) : 0,
  };
}

/** The reach of the first `rows` rows' first `cols` cells (what a frame paints). */
export function rowInkReach(grid: ScreenGrid, rows: number, cols: number, m: CellMetrics, measurer: GlyphMeasurer): RowReach {
  const up = new Uint8Array(rows);
  const down = new Uint8Array(rows);
  for (let row = 0; row < rows; row++) {
    const base = row * grid.cols;
    for (let col = 0; col < cols; col++) {
      const r = cellReach(grid, base + col, m, measurer);
      up[row] = Math.min(255, Math.max(up[row]!, r.up));
      down[row] = Math.min(255, Math.max(down[row]!, r.down));
    }
  }
  return { up, down };
}
