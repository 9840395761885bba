// Phone mode of a card image: the screen's cells soft-wrapped at a column count a phone card shows at a readable size.
import { cellShows, type ScreenGrid } from './screen-grid.js';

export interface Cursor {
  x: number;
  y: number;
  visible: boolean;
}

export interface WrapOptions {
  /** Columns of the wrapped grid: a row longer than this continues on the next row. */
  cols: number;
  /** Rows kept at most; when more are needed the top goes (the prompt, composer and last output are at the bottom). */
  maxRows: number;
}

export interface WrappedScreen {
  grid: ScreenGrid;
  /** Where the source cursor landed (hidden when it was hidden or cut). */
  cursor: Cursor;
  /** Wrapped rows dropped from the top by the height cap (0 when everything fits). */
  cutRows: number;
}

/** Horizontal box-drawing lines: a run of one of them is a rule that can be shortened without losing anything. */
const RULE_CHARS = new Set(['─', '━', '═', '┄', '┅', '┈', '┉', '╌', '╍', '▔', '▁']);

/** Runs of identical filler cells this long or longer may shrink; shorter ones are alignment a reader relies on. */
const SQUEEZABLE_RUN = 4;
/** A shrunk blank run keeps this many cells, so two right-aligned fields never touch. */
const KEPT_GAP = 2;
/** A shrunk run of blank rows keeps this many, so output and the composer below it still read as apart. */
const KEPT_BLANK_ROWS = 2;

function isFiller(grid: ScreenGrid, i: number): boolean {
  if (grid.widths[i] !== 1) return false;
  const ch = grid.chars[i]!;
  return ch === '' || ch === ' ' || RULE_CHARS.has(ch);
}

function sameCell(grid: ScreenGrid, a: number, b: number): boolean {
  const blank = (c: string) => c === '' || c === ' ';
  const ca = grid.chars[a]!;
  const cb = grid.chars[b]!;
  return (ca === cb || (blank(ca) && blank(cb))) && grid.fg[a] === grid.fg[b] && grid.bg[a] === grid.bg[b] && grid.flags[a] === grid.flags[b];
}

/** The used length of a source row: up to its last cell that shows (both halves of a wide one) or the cursor. */
function usedLength(grid: ScreenGrid, row: number, cursor: Cursor): number {
  const base = row * grid.cols;
  let len = 0;
  for (let col = grid.cols - 1; col >= 0; col--) {
    if (!cellShows(grid, base + col)) continue;
    len = Math.min(grid.cols, col + Math.max(1, grid.widths[base + col]!));
    break;
  }
  if (cursor.visible && cursor.y === row) len = Math.max(len, Math.min(grid.cols, cursor.x + 1));
  return len;
}

/**
 * Pure: the source cells (indices) of one row, with long runs of identical filler (padding blanks, box rules) shrunk,
 * rightmost first, until the row fits `cols` or nothing more can shrink. So a full-width TUI frame (╭───╮, │ … │) stays
 * a frame at the phone's width instead of wrapping into pieces, and right-aligned fields move left.
 */
export function squeezeRow(grid: ScreenGrid, row: number, len: number, cols: number): number[] {
  const base = row * grid.cols;
  const cells = Array.from({ length: len }, (_, c) => base + c);
  let excess = len - cols;
  if (excess <= 0) return cells;
  // Runs of identical filler cells: [start, end) in row columns.
  const runs: { start: number; end: number }[] = [];
  for (let c = 0; c < len; ) {
    if (!isFiller(grid, base + c)) { c++; continue; }
    let end = c + 1;
    while (end < len && isFiller(grid, base + end) && sameCell(grid, base + c, base + end)) end++;
    if (end - c >= SQUEEZABLE_RUN) runs.push({ start: c, end });
    c = end;
  }
  const drop = new Set<number>();
  for (let r = runs.length - 1; r >= 0 && excess > 0; r--) {
    const { start, end } = runs[r]!;
    const n = Math.min(excess, end - start - KEPT_GAP);
    for (let c = end - n; c < end; c++) drop.add(c);
    excess -= n;
  }
  return cells.filter((_, c) => !drop.has(c));
}

/** Pure: splits a row's cells into lines of at most `cols` columns; a wide cell never straddles two lines. */
export function wrapCells(grid: ScreenGrid, cells: readonly number[], cols: number): number[][] {
  const lines: number[][] = [[]];
  for (const i of cells) {
    const w = grid.widths[i]!;
    if (w === 0) continue; // a right half travels with its wide cell
    let line = lines[lines.length - 1]!;
    const width = w === 2 ? 2 : 1;
    if (line.length + width > cols) {
      line = [];
      lines.push(line);
    }
    line.push(i);
    if (width === 2) line.push(i + 1);
  }
  return lines;
}

/** Box drawing and block elements (U+2500–U+259F): a row drawing a frame, a table or a bar keeps its cells in place. */
const DRAWING = /[\u2500-\u259f]/u;

/**
 * Pure: whether a row that needs wrapping breaks at the blanks between its words rather than at a fixed column. A row
 * that draws (box drawing past its first mark: Claude's `▎` notice bar or `⏺` is a mark, `│ … │` is a frame, `─ x ─`
 * a rule) keeps its cells, so the frame stays a frame. Alignment (tables, right-aligned status fields, code) is kept
 * either way: a row that fits is never changed, and squeezing leaves every gap at least KEPT_GAP blanks wide.
 */
export function wrapsAtSpaces(row: string): boolean {
  const body = row.trim();
  return body.includes(' ') && !DRAWING.test(body.slice(1));
}

/** The text of a row's cells as a reader sees it (a right half of a wide cell adds nothing, an empty cell is a blank). */
function cellsText(grid: ScreenGrid, cells: readonly number[]): string {
  return cells.filter((i) => grid.widths[i] !== 0).map((i) => grid.chars[i] || ' ').join('');
}

/**
 * Pure: splits a prose row's cells into lines of at most `cols` columns at the blanks between words (the blanks at a
 * break go); a word longer than a line still breaks inside, and a wide cell never straddles two lines.
 */
export function wrapWords(grid: ScreenGrid, cells: readonly number[], cols: number): number[][] {
  const units = cells.filter((i) => grid.widths[i] !== 0);
  const width = (i: number) => (grid.widths[i] === 2 ? 2 : 1);
  const blank = (i: number) => width(i) === 1 && (grid.chars[i] === '' || grid.chars[i] === ' ');
  const expand = (from: number, to: number) => units.slice(from, to).flatMap((i) => (width(i) === 2 ? [i, i + 1] : [i]));
  const lines: number[][] = [];
  let start = 0;
  while (start < units.length) {
    let end = start;
    for (let used = 0; end < units.length && used + width(units[end]!) <= cols; end++) used += width(units[end]!);
    if (end === units.length) {
      lines.push(expand(start, end));
      break;
    }
    let cut = end;
    while (cut > start && !blank(units[cut]!)) cut--;
    const hasWord = units.slice(start, cut).some((i) => !blank(i));
    const lineEnd = cut > start && hasWord ? cut : Math.max(end, start + 1);
    lines.push(expand(start, lineEnd));
    start = lineEnd;
    while (start < units.length && blank(units[start]!)) start++;
  }
  return lines.length > 0 ? lines : [[]];
}

/**
 * Pure: when the lines need more than `maxRows`, runs of blank lines longer than KEPT_BLANK_ROWS shrink first, the
 * lowest first (a TUI's empty middle, between its output and the composer pinned at the bottom), before rows are cut.
 */
export function squeezeBlankLines(lines: number[][], cursorLine: number, maxRows: number): { lines: number[][]; cursorLine: number } {
  let excess = lines.length - maxRows;
  if (excess <= 0) return { lines, cursorLine };
  const drop = new Set<number>();
  for (let end = lines.length; end > 0 && excess > 0; ) {
    let start = end;
    while (start > 0 && lines[start - 1]!.length === 0 && start - 1 !== cursorLine) start--;
    const n = Math.min(excess, start < end ? end - start - KEPT_BLANK_ROWS : 0);
    for (let i = 0; i < n; i++) drop.add(end - 1 - i);
    excess -= Math.max(0, n);
    end = start < end ? start : end - 1;
  }
  const before = (i: number) => [...drop].filter((d) => d < i).length;
  return { lines: lines.filter((_, i) => !drop.has(i)), cursorLine: cursorLine < 0 ? cursorLine : cursorLine - before(cursorLine) };
}

/**
 * Pure: the first of the `maxRows` lines kept. The bottom (prompt, composer, status line, newest output) unless the
 * cursor is above it and a window from the cursor down holds more lines with content: a TUI parks its cursor high on
 * the screen (Claude at its top), and keeping that row used to cut the composer and status line below it.
 */
export function keptStart(hasContent: readonly boolean[], cursorLine: number, maxRows: number): number {
  const bottom = Math.max(0, hasContent.length - maxRows);
  if (cursorLine < 0 || cursorLine >= bottom) return bottom;
  const filled = (from: number) => hasContent.slice(from, from + maxRows).filter(Boolean).length;
  return filled(cursorLine) > filled(bottom) ? cursorLine : bottom;
}

/** An empty grid of `cols` × `rows` in the source's theme. */
function blankGrid(source: ScreenGrid, cols: number, rows: number): ScreenGrid {
  const n = cols * rows;
  return {
    cols,
    rows,
    chars: new Array<string>(n).fill(''),
    widths: new Uint8Array(n).fill(1),
    fg: new Uint32Array(n),
    bg: new Uint32Array(n).fill(source.defaultBg),
    flags: new Uint8Array(n),
    defaultBg: source.defaultBg,
  };
}

/**
 * Pure: the screen soft-wrapped at `opts.cols` (colours and wide cells kept, trailing blanks trimmed), then cut to
 * `opts.maxRows` from the bottom — moved up only as far as needed to keep the cursor's row.
 */
export function phoneWrap(grid: ScreenGrid, cursor: Cursor, opts: WrapOptions): WrappedScreen {
  const lines: number[][] = [];
  let cursorLine = -1;
  let lastUsed = -1;
  const cursorCell = cursor.visible && cursor.y < grid.rows ? cursor.y * grid.cols + Math.min(cursor.x, grid.cols - 1) : -1;
  for (let row = 0; row < grid.rows; row++) {
    const len = usedLength(grid, row, cursor);
    const cells = len === 0 ? [] : squeezeRow(grid, row, len, opts.cols);
    // Only a row wider than the card is wrapped at all: the prose test (its text built) is for those rows alone.
    const prose = cells.length > opts.cols && wrapsAtSpaces(cellsText(grid, cells));
    const wrapped = len === 0 ? [[]] : prose ? wrapWords(grid, cells, opts.cols) : wrapCells(grid, cells, opts.cols);
    for (const line of wrapped) {
      if (cursorCell >= 0 && line.includes(cursorCell)) cursorLine = lines.length;
      if (line.length > 0) lastUsed = lines.length;
      lines.push(line);
    }
    if (cursorCell >= 0 && cursor.y === row && cursorLine < 0) cursorLine = lines.length - 1;
  }
  const squeezed = squeezeBlankLines(lines.slice(0, Math.max(lastUsed, cursorLine) + 1), cursorLine, opts.maxRows);
  lines.splice(0, lines.length, ...squeezed.lines);
  cursorLine = squeezed.cursorLine;
  const used = lines.length;
  const start = keptStart(lines.map((l) => l.length > 0), cursorLine, opts.maxRows);
  const kept = lines.slice(start, Math.min(used, start + opts.maxRows));
  const out = blankGrid(grid, opts.cols, Math.max(1, kept.length));
  let mapped: Cursor = { x: 0, y: 0, visible: false };
  kept.forEach((line, y) => {
    line.forEach((src, x) => {
      const o = y * opts.cols + x;
      out.chars[o] = grid.chars[src]!;
      out.widths[o] = grid.widths[src]!;
      out.fg[o] = grid.fg[src]!;
      out.bg[o] = grid.bg[src]!;
      out.flags[o] = grid.flags[src]!;
      if (src === cursorCell) mapped = { x, y, visible: true };
    });
    if (start + y === cursorLine && !mapped.visible) mapped = { x: Math.min(line.length, opts.cols - 1), y, visible: true };
  });
  return { grid: out, cursor: mapped, cutRows: start };
}
