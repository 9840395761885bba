// The horizontal bands a card frame is encoded in (one per text row) and what each band's pixels depend on, so an
// encoder can keep a band's compressed bytes while the cells that paint it stay the same.
import type { ScreenGrid } from './screen-grid.js';
import type { FrameLayout } from '../../shared/render-protocol.js';
import type { RowReach } from './ink-reach.js';

/** Pixel rows [y0, y1) of the image and a key that is equal only when the band's pixels are (see frameBands). */
export interface FrameBand {
  y0: number;
  y1: number;
  key: string;
  /** The grid rows [first, end) whose cells lie in the band. */
  rows: readonly [number, number];
}

/** The painted content of one grid row's first `cols` cells: text, width, colours and attributes of each. */
export function rowKey(grid: ScreenGrid, row: number, cols: number): string {
  if (row < 0 || row >= grid.rows) return '';
  const base = row * grid.cols;
  const parts: string[] = [];
  for (let col = 0; col < cols; col++) {
    const i = base + col;
    parts.push(`${grid.chars[i]}\u0000${grid.widths[i]},${grid.fg[i]},${grid.bg[i]},${grid.flags[i]}`);
  }
  return parts.join('\u0001');
}

/**
 * One band per painted text row: the first takes the top margin as well, the last the bottom margin. A band's pixels
 * are painted by its own row and by the rows whose glyphs reach into it (descenders, tall marks: `reach`, see
 * ink-reach.ts; without it every row counts as reaching one row each way); the painter clears to the theme background
 * and translates by whole pixels. So the key holds the image width, the scale and margin, the band's height and edge
 * (first/last), the background, its row's content and the content of each row that reaches it with its distance, not
 * the band's position: a row that scrolled up keeps its compressed bytes.
 */
export function frameBands(grid: ScreenGrid, frame: FrameLayout, cellHeight: number, width: number, height: number, reach?: RowReach): FrameBand[] {
  const rows = Math.max(1, Math.min(frame.rows, grid.rows));
  const cols = Math.min(frame.cols, grid.cols);
  const keys = Array.from({ length: rows }, (_, r) => rowKey(grid, r, cols));
  const edge = (y: number) => Math.min(height, Math.max(0, Math.round((frame.marginPx + y * cellHeight) * frame.scale)));
  const head = `${width}/${frame.scale}/${frame.marginPx}/${grid.defaultBg}`;
  const bands: FrameBand[] = [];
  for (let r = 0; r < rows; r++) {
    const y0 = r === 0 ? 0 : edge(r);
    const y1 = r === rows - 1 ? height : edge(r + 1);
    if (y1 <= y0) continue;
    const place = `${r === 0 ? 'F' : ''}${r === rows - 1 ? 'L' : ''}`;
    bands.push({ y0, y1, key: `${head}/${y1 - y0}/${place}\u0002${keys[r]}${reachingRows(r, rows, keys, reach)}`, rows: [r, r + 1] });
  }
  // Bands cover the image exactly once, top to bottom (a degenerate layout gets one band for the whole image).
  if (bands.length === 0 || bands[0]!.y0 !== 0 || bands.at(-1)!.y1 !== height || bands.some((b, i) => i > 0 && b.y0 !== bands[i - 1]!.y1)) {
    return [{ y0: 0, y1: height, key: `${head}/${height}/whole\u0002${keys.join('\u0003')}`, rows: [0, rows] }];
  }
  return bands;
}

/** The rows other than `r` whose ink can reach row `r`'s band, each as its distance and content (part of the key). */
function reachingRows(r: number, rows: number, keys: readonly string[], reach: RowReach | undefined): string {
  if (!reach) return `\u0002-1:${keys[r - 1] ?? ''}\u0002+1:${keys[r + 1] ?? ''}`;
  let out = '';
  for (let o = 0; o < rows; o++) {
    if (o !== r && (o < r ? reach.down[o]! >= r - o : reach.up[o]! >= o - r)) out += `\u0002${o - r}:${keys[o]}`;
  }
  return out;
}
