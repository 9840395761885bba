// Where a card screenshot's pixels go: the used part of the screen (trailing blank rows/columns cropped), a margin, and a pixel scale for phones.
import { cellShows, type ScreenGrid } from './screen-grid.js';
import { phoneWrap, type Cursor } from './phone-wrap.js';
import type { FrameLayout } from '../../shared/render-protocol.js';

/**
 * How a card image is shown: Feishu draws it `fit_horizontal`, i.e. at the card's width, which on a 390 px phone is
 * 340–360 CSS px whatever the image's pixel width. So text size on the phone depends only on how many columns the
 * image holds (see textCssPx), and the pixel scale decides only how sharp it is on a 2–3× phone screen.
 */
export const CARD_IMAGE = {
  /**
   * The image width Feishu gives a card image on a 390 CSS px phone. Feishu's docs give no number (the image component
   * page only says `fit_horizontal` shows the whole image at the card's width); 340 is the narrow end of the 340–360 CSS
   * px measured on phone cards (card inset + padding), so every size computed from it is a lower bound.
   */
  cardCssPx: 340,
  /**
   * Glyph height (font size as displayed) the phone mode aims at: the acceptance floor is 11 CSS px; 1 px more leaves
   * room for a card a little narrower than cardCssPx (a smaller phone, a wider avatar column).
   */
  targetGlyphCssPx: 12,
  /**
   * Feishu's image component recommends height:width ≤ 16:9 "for clarity" in the chat window (open.feishu.cn, card
   * image component, 注意事项); taller phone frames keep their bottom rows.
   */
  maxHeightToWidth: 16 / 9,
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

export type { FrameLayout };

/** The full grid, no margin, scale 1: what the reference-painter tests and goldens draw. */
export function fullFrame(grid: Pick<ScreenGrid, 'cols' | 'rows'>): FrameLayout {
  return { cols: grid.cols, rows: grid.rows, marginPx: 0, scale: 1 };
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

/** The wide card frame of a screen: cropped to its used extent (at least minCols wide), with a margin, at the phone scale. */
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

type CellSize = { cellWidth: number; cellHeight: number; fontPx: number };

/** Columns a phone card image may hold so its text shows at targetGlyphCssPx or more: 45 for 14 px text in 8.4 px cells. */
export function phoneColumns(cell: CellSize): number {
  const maxImagePx = (cell.fontPx * CARD_IMAGE.cardCssPx) / CARD_IMAGE.targetGlyphCssPx;
  return Math.max(CARD_IMAGE.minCols, Math.floor((maxImagePx - 2 * CARD_IMAGE.marginPx) / cell.cellWidth));
}

/** Rows a phone card image of `cols` columns may hold within Feishu's recommended height:width (38 for 45 columns). */
export function phoneRows(cols: number, cell: CellSize): number {
  const widthPx = Math.round(cols * cell.cellWidth) + 2 * CARD_IMAGE.marginPx;
  return Math.max(1, Math.floor((widthPx * CARD_IMAGE.maxHeightToWidth - 2 * CARD_IMAGE.marginPx) / cell.cellHeight));
}

/**
 * The phone card frame (the default for card images): the screen soft-wrapped at phoneColumns, its bottom kept within
 * phoneRows, then cropped, framed and scaled like the wide frame. Returns the grid to paint with its layout.
 */
export function phoneCardFrame(grid: ScreenGrid, cursor: Cursor, cell: CellSize): { grid: ScreenGrid; frame: FrameLayout; cutRows: number } {
  const cols = Math.min(grid.cols, phoneColumns(cell));
  const wrapped = phoneWrap(grid, cursor, { cols, maxRows: phoneRows(cols, cell) });
  return { grid: wrapped.grid, frame: cardFrame(wrapped.grid, wrapped.cursor, cell), cutRows: wrapped.cutRows };
}
