// Where a card screenshot's pixels go: the used part of the screen (trailing blank rows/columns cropped), a margin, and a pixel scale for phones.
import { CELL, type ScreenGrid } from './screen-model.js';

/**
 * How a card image is shown: Feishu draws it `fit_horizontal`, i.e. at the card's width, which on a 390 px phone is
 * 340–360 CSS px whatever the image's pixel width. So text size on the phone depends only on how many columns the
 * image holds (see textCssPx), and the pixel scale decides only how sharp it is on a 2–3× phone screen.
 */
export const CARD_IMAGE = {
  /** The narrow end of a Feishu card's image width on a 390 CSS px phone (measured range 340–360). */
  cardCssPx: 340,
  /**
   * Columns a card image keeps at least (when the pane has them): a two-word screen would otherwise fill the card with
   * 20+ CSS px letters, and text size would jump between frames of one turn. 40 columns show 14 px text at ~13.5 CSS px.
   */
  minCols: 40,
  /** Margin around the cells, in image pixels at scale 1: about one cell, so text never touches the card's edge. */
  marginPx: 8,
  /** Device pixels a phone shows the card image with (360 CSS px × 3): more would only cost upload time. */
  targetDevicePx: 1080,
  /** Integer scales only: every background and box-drawing rectangle keeps whole-pixel edges (no seams). */
  maxScale: 3,
  /** Keeps a scaled frame's PNG encode near a full 120×40 screen at scale 1 (0.73 Mpx) rather than many times it. */
  maxScaledPixels: 1_500_000,
} as const;

export interface FrameLayout {
  /** The cells painted: the grid's first `cols` columns of its first `rows` rows. */
  cols: number;
  rows: number;
  /** Blank border around the cells, in unscaled pixels. */
  marginPx: number;
  /** Integer pixel multiplier for the whole image. */
  scale: number;
}

/** The full grid, no margin, scale 1: what the reference-painter tests and goldens draw. */
export function fullFrame(grid: Pick<ScreenGrid, 'cols' | 'rows'>): FrameLayout {
  return { cols: grid.cols, rows: grid.rows, marginPx: 0, scale: 1 };
}

/** Whether a cell shows anything: a glyph, a background other than the theme's, or an underline/strikethrough. */
function cellShows(grid: ScreenGrid, i: number): boolean {
  const flags = grid.flags[i]!;
  if (grid.bg[i] !== grid.defaultBg) return true;
  if (flags & CELL.invisible) return false;
  if (flags & (CELL.underline | CELL.strike)) return true;
  const ch = grid.chars[i]!;
  return ch !== '' && ch !== ' ';
}

/**
 * The used extent: up to the last row and column that show something, and the visible cursor's row and cell (the
 * cursor is where a user types next). Only trailing blank rows and columns go; nothing that shows is ever cropped.
 */
export function usedExtent(grid: ScreenGrid, cursor: { x: number; y: number; visible: boolean }): { cols: number; rows: number } {
  let cols = 0;
  let rows = 0;
  for (let row = 0; row < grid.rows; row++) {
    const base = row * grid.cols;
    for (let col = grid.cols - 1; col >= 0; col--) {
      if (!cellShows(grid, base + col)) continue;
      // A wide character's right half is an empty cell: the extent includes it.
      cols = Math.max(cols, Math.min(grid.cols, col + Math.max(1, grid.widths[base + col]!)));
      rows = row + 1;
      break;
    }
  }
  if (cursor.visible && cursor.y < grid.rows) {
    rows = Math.max(rows, cursor.y + 1);
    const under = cursor.y * grid.cols + Math.min(cursor.x, grid.cols - 1);
    cols = Math.max(cols, Math.min(grid.cols, cursor.x + Math.max(1, grid.widths[under] ?? 1)));
  }
  return { cols: Math.max(1, cols), rows: Math.max(1, rows) };
}

/** The integer scale (1…maxScale) that brings the image nearest the phone's device pixels, within the pixel budget. */
export function phoneScale(widthPx: number, heightPx: number): number {
  let scale = Math.max(1, Math.min(CARD_IMAGE.maxScale, Math.round(CARD_IMAGE.targetDevicePx / widthPx)));
  while (scale > 1 && widthPx * heightPx * scale * scale > CARD_IMAGE.maxScaledPixels) scale--;
  return scale;
}

/** The card frame of a screen: cropped to its used extent (at least minCols wide), with a margin, at the phone scale. */
export function cardFrame(
  grid: ScreenGrid,
  cursor: { x: number; y: number; visible: boolean },
  cell: { cellWidth: number; cellHeight: number },
): FrameLayout {
  const used = usedExtent(grid, cursor);
  const cols = Math.max(used.cols, Math.min(CARD_IMAGE.minCols, grid.cols));
  const rows = used.rows;
  const marginPx = CARD_IMAGE.marginPx;
  const size = framePixels({ cols, rows, marginPx, scale: 1 }, cell);
  return { cols, rows, marginPx, scale: phoneScale(size.width, size.height) };
}

/** The image's pixel size for a layout. */
export function framePixels(f: FrameLayout, cell: { cellWidth: number; cellHeight: number }): { width: number; height: number } {
  return {
    width: (Math.round(f.cols * cell.cellWidth) + 2 * f.marginPx) * f.scale,
    height: (f.rows * cell.cellHeight + 2 * f.marginPx) * f.scale,
  };
}

/** The CSS px a glyph of `fontPx` measures on the phone once Feishu fits the image's width to the card. */
export function textCssPx(fontPx: number, imageWidthPx: number, scale: number, cardCssPx: number = CARD_IMAGE.cardCssPx): number {
  return (fontPx * scale * cardCssPx) / imageWidthPx;
}
