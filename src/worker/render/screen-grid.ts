// A rendered screen as plain arrays (what ScreenModel produces and the painters read), with no terminal emulator
// behind it: the worker's card code reads grids without loading @xterm/headless.

/** Bits of ScreenGrid.flags. Colours are already resolved (bold-brightening, inverse, dim, cursor). */
export const CELL = {
  bold: 1,
  italic: 2,
  underline: 4,
  strike: 8,
  invisible: 16,
} as const;

export interface ScreenGrid {
  cols: number;
  rows: number;
  /** Per cell (row-major): the text of the cell; '' for the right half of a wide character and for empty cells. */
  chars: string[];
  /** 1 or 2 for a character, 0 for the right half of a wide one. */
  widths: Uint8Array;
  fg: Uint32Array;
  bg: Uint32Array;
  flags: Uint8Array;
  /** The theme background: cells with exactly this bg need no rectangle. */
  defaultBg: number;
}

/** Whether a cell shows anything: a glyph, a background other than the theme's, or an underline/strikethrough. */
export function cellShows(grid: ScreenGrid, i: number): boolean {
  const flags = grid.flags[i]!;
  if (grid.bg[i] !== grid.defaultBg) return true;
  if (flags & CELL.invisible) return false;
  if (flags & (CELL.underline | CELL.strike)) return true;
  const ch = grid.chars[i]!;
  return ch !== '' && ch !== ' ';
}
