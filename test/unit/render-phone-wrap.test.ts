// Phone mode of card images: the screen soft-wrapped at a column count a phone card shows at ≥ 11 CSS px, bottom kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CARD_IMAGE, framePixels, phoneCardFrame, phoneColumns, phoneRows, textCssPx } from '../../src/worker/render/card-frame.js';
import { keptStart, phoneWrap, wrapsAtSpaces, type Cursor } from '../../src/worker/render/phone-wrap.js';
import { ScreenModel } from '../../src/worker/render/screen-model.js';
import type { ScreenGrid } from '../../src/worker/render/screen-grid.js';

const model = new ScreenModel();
afterAll(() => model.dispose());

const HIDDEN: Cursor = { x: 0, y: 0, visible: false };
/** The painter's cell for 14 px DejaVu Sans Mono (RunPainter.metrics). */
const CELL = { cellWidth: 8.4, cellHeight: 18, fontPx: 14 };

async function grid(rows: string[], cols = 120, height = 40, cursor = HIDDEN): Promise<ScreenGrid> {
  return model.load({ ansi: rows.join('\n'), cursor, cols, rows: height });
}

/** What a reader sees on each row of a grid (right halves of wide cells skipped, trailing blanks trimmed). */
function text(g: ScreenGrid): string[] {
  const out: string[] = [];
  for (let y = 0; y < g.rows; y++) {
    let line = '';
    for (let x = 0; x < g.cols; x++) {
      const i = y * g.cols + x;
      if (g.widths[i] === 0) continue;
      line += g.chars[i] || ' ';
    }
    out.push(line.trimEnd());
  }
  return out;
}

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'screens', `${name}.esc.txt`), 'utf8').replace(/\n$/, '');

describe('phoneWrap', () => {
  it.each<[string, string[], number, string[]]>([
    ['a short row stays as it is', ['hello'], 10, ['hello']],
    ['a long row continues on the next rows', ['abcdefghijklmnopqrstuvwxy'], 10, ['abcdefghij', 'klmnopqrst', 'uvwxy']],
    ['a wide cell that would straddle the edge moves to the next row', ['abcdefghi你好'], 10, ['abcdefghi', '你好']],
    ['CJK rows wrap on cell pairs', ['汉字汉字汉字汉字'], 10, ['汉字汉字汉', '字汉字']],
    ['an emoji is never split', ['123456789🚀x'], 10, ['123456789', '🚀x']],
    ['blank rows between content stay; trailing blank rows go', ['a', '', 'b', '', ''], 10, ['a', '', 'b']],
    ['a full-width rule shrinks to the width instead of wrapping', ['╭' + '─'.repeat(30) + '╮'], 10, ['╭────────╮']],
    ['a framed row keeps its border at the edge', ['│ hi' + ' '.repeat(30) + '│'], 10, ['│ hi     │']],
    ['right-aligned fields move left just enough', ['left' + ' '.repeat(30) + 'right'], 12, ['left   right']],
    ['a gap never shrinks below two blanks; a field that still does not fit moves whole', ['left' + ' '.repeat(30) + 'right'], 10, ['left', 'right']],
    ['short gaps (alignment) are kept; the row wraps', ['a b c d e f g h i j k l'], 10, ['a b c d e', 'f g h i j', 'k l']],
    ['prose wraps at the space before a word that does not fit', ['Claude handles permission prompts'], 20, ['Claude handles', 'permission prompts']],
    ['a notice bar is a mark: its prose wraps at spaces', ['▎ lets Claude handle permission prompts'], 20, ['▎ lets Claude handle', 'permission prompts']],
    ['a word longer than the width still breaks', ['see https://example.com/a/very/long/path ok'], 20, ['see', 'https://example.com/', 'a/very/long/path ok']],
    ['a framed row keeps its cells (no word wrap inside a frame)', ['│ permission prompts │'], 10, ['│ permissi', 'on prompts', ' │']],
    ['an aligned row keeps its gaps and breaks between fields', ['name     size   modified'], 12, ['name  size', 'modified']],
    ['a row that fits keeps every blank of its alignment', ['name     size   modified'], 30, ['name     size   modified']],
  ])('%s', async (_name, rows, cols, expected) => {
    const w = phoneWrap(await grid(rows), HIDDEN, { cols, maxRows: 40 });
    expect(text(w.grid)).toEqual(expected);
    expect(w.cutRows).toBe(0);
  });

  it('keeps colours and attributes with their cells', async () => {
    const g = await grid([`${'x'.repeat(12)}\x1b[1;31mRED\x1b[0m`]);
    const w = phoneWrap(g, HIDDEN, { cols: 10, maxRows: 40 });
    expect(text(w.grid)).toEqual(['xxxxxxxxxx', 'xxRED']);
    const red = 1 * 10 + 2;
    expect(w.grid.chars[red]).toBe('R');
    expect(w.grid.fg[red]).toBe(g.fg[12]);
    expect(w.grid.fg[red]).not.toBe(g.fg[0]);
    expect(w.grid.flags[red]).toBe(g.flags[12]);
  });

  it('a height cap keeps the bottom rows (prompt, composer, last output)', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const w = phoneWrap(await grid(rows), HIDDEN, { cols: 10, maxRows: 5 });
    expect(text(w.grid)).toEqual(['line 25', 'line 26', 'line 27', 'line 28', 'line 29']);
    expect(w.cutRows).toBe(25);
  });

  it.each<[string, string[], number, string[], number]>([
    ['an empty middle shrinks before anything is cut', ['top', ...Array(20).fill(''), 'composer'], 5, ['top', '', '', '', 'composer'], 0],
    ['short gaps stay; the top is cut', ['a', '', '', 'b', '', 'c', 'd'], 4, ['b', '', 'c', 'd'], 3],
    ['gaps are not touched when everything fits', ['a', '', '', '', '', 'b'], 10, ['a', '', '', '', '', 'b'], 0],
    ['the lowest gap shrinks first, only as much as needed', ['a', '', '', '', '', 'b', '', '', '', '', 'c'], 9, ['a', '', '', '', '', 'b', '', '', 'c'], 0],
  ])('%s', async (_name, rows, maxRows, expected, cut) => {
    const w = phoneWrap(await grid(rows), HIDDEN, { cols: 20, maxRows });
    expect(text(w.grid)).toEqual(expected);
    expect(w.cutRows).toBe(cut);
  });

  it('the cursor row stays visible when a window from it holds more content than the bottom', async () => {
    const rows = ['$ typing here', ...Array.from({ length: 4 }, (_, i) => `out ${i}`), ...Array(10).fill(''), 'x', '', 'y'];
    const cursor = { x: 13, y: 0, visible: true };
    const w = phoneWrap(await grid(rows, 120, 40, cursor), cursor, { cols: 20, maxRows: 7 });
    expect(text(w.grid)[0]).toBe('$ typing here');
    expect(w.cursor).toEqual({ x: 13, y: 0, visible: true });
  });

  it('a cursor high on the screen does not cut the rows with content below it', async () => {
    const rows = ['$ top', ...Array.from({ length: 20 }, (_, i) => `out ${i}`)];
    const cursor = { x: 0, y: 0, visible: true };
    const w = phoneWrap(await grid(rows, 120, 40, cursor), cursor, { cols: 20, maxRows: 5 });
    expect(text(w.grid)).toEqual(['out 15', 'out 16', 'out 17', 'out 18', 'out 19']);
    expect(w.cursor.visible).toBe(false);
  });

  it("Claude's manual-mode screen with its cursor parked at the top keeps its composer and status line", async () => {
    const cursor = { x: 0, y: 0, visible: true };
    const g = await model.load({ ansi: fixture('claude-18-multiline-reply'), cursor, cols: 120, rows: 40 });
    const { grid: painted, frame } = phoneCardFrame(g, cursor, CELL);
    const lines = text(painted).slice(0, frame.rows);
    expect(lines.at(-1)).toBe('  ⏸ manual mode on · ? for shortcuts');
    expect(lines).toContain('❯');
    expect(lines.filter((l) => l.trim() !== '').length).toBeGreaterThan(frame.rows * 0.8);
  });

  it('maps the cursor to where its cell wrapped', async () => {
    const cursor = { x: 25, y: 1, visible: true };
    const w = phoneWrap(await grid(['top', 'x'.repeat(25)], 120, 40, cursor), cursor, { cols: 10, maxRows: 40 });
    expect(w.cursor).toEqual({ x: 5, y: 3, visible: true });
  });
});

describe('keptStart', () => {
  const rowsOf = (pattern: string) => [...pattern].map((c) => c === 'x');
  it.each<[string, string, number, number, number]>([
    ['no cursor: the bottom', 'xxxxxxxx', -1, 4, 4],
    ['a cursor inside the bottom window: the bottom', 'xxxxxxxx', 6, 4, 4],
    ['a cursor above, content below: the bottom', 'xxxxxxxx', 0, 4, 4],
    ['a cursor above a mostly blank bottom: from the cursor', 'xxxx...x', 0, 4, 0],
    ['everything fits', 'xx', 0, 4, 0],
  ])('%s', (_name, pattern, cursorLine, maxRows, start) => {
    expect(keptStart(rowsOf(pattern), cursorLine, maxRows)).toBe(start);
  });
});

describe('wrapsAtSpaces', () => {
  it.each<[string, string, boolean]>([
    ['plain prose', 'Auto mode lets Claude handle permission prompts', true],
    ['indented prose', '  The file has 3 lines. It compiles.', true],
    ["a leading mark (Claude's ⏺ reply, ▎ notice bar)", '▎ Auto mode lets Claude handle permission prompts', true],
    ['one word (nothing to wrap at)', 'https://code.claude.com/docs/en/permission-modes', false],
    ['a framed row', '│ Do you want to proceed? │', false],
    ['a rule with a title', '──── Bash command ────', false],
    ['a table row with box drawing', '│ a │ b │', false],
    ['columns aligned with blank runs', 'PID USER      PR  NI    VIRT', true],
    ['a status line with a right-aligned field', '⏵⏵ auto mode on (shift+tab to cycle)     ◐ medium · /effort', true],
  ])('%s', (_name, row, prose) => {
    expect(wrapsAtSpaces(row)).toBe(prose);
  });
});

/** Blank-separated words of rows (a word longer than `cols` is left out: it may break anywhere). */
function words(rows: string[], cols: number): Map<string, number> {
  const count = new Map<string, number>();
  for (const row of rows) for (const w of row.split(/\s+/)) if (/[A-Za-z]{2}/.test(w) && w.length <= cols) count.set(w, (count.get(w) ?? 0) + 1);
  return count;
}

describe('phone wrap of real Claude screens', () => {
  it.each(['claude-04-idle-first', 'claude-05-typed', 'claude-13-idle-seeded', 'claude-18-multiline-reply', 'claude-06-reply', 'claude-14-permission-prompt'])(
    '%s: no English word is split across rows', async (name) => {
      const g = await model.load({ ansi: fixture(name), cursor: HIDDEN, cols: 120, rows: 40 });
      const cols = phoneColumns(CELL);
      const wrapped = text(phoneWrap(g, HIDDEN, { cols, maxRows: 200 }).grid);
      const shown = words(wrapped, cols);
      for (const [word, n] of words(text(g), cols)) expect({ word, n: shown.get(word) ?? 0 }).toEqual({ word, n });
    });
});

describe('phone card frame', () => {
  it.each([
    // [pane, fixture] a 120-column screen of long CJK lines and a TUI frame; a Claude reply with its composer at the bottom
    ['synthetic-cjk-emoji', '提示：按 Ctrl+C 两次退出'],
    ['claude-18-multiline-reply', '⏸ manual mode on · ? for shortcuts'],
  ])('%s: text at ≥ 11 CSS px on a 340 px card, its last line kept', async (name, lastLine) => {
    const g = await model.load({ ansi: fixture(name), cursor: HIDDEN, cols: 120, rows: 40 });
    const { grid: painted, frame } = phoneCardFrame(g, HIDDEN, CELL);
    const px = framePixels(frame, CELL);
    expect(textCssPx(CELL.fontPx, px.width, frame.scale)).toBeGreaterThanOrEqual(11);
    expect(px.height / px.width).toBeLessThanOrEqual(CARD_IMAGE.maxHeightToWidth + 0.05);
    const lines = text(painted).slice(0, frame.rows);
    expect(lines.join('\n')).toContain(lastLine);
    for (const line of lines) expect(line).not.toMatch(/\uFFFD/);
  });

  it('the wrap width and height follow from the card width and the glyph target', () => {
    expect(phoneColumns(CELL)).toBe(45);
    expect(textCssPx(CELL.fontPx, Math.round(45 * CELL.cellWidth) + 2 * CARD_IMAGE.marginPx, 1)).toBeGreaterThanOrEqual(CARD_IMAGE.targetGlyphCssPx);
    expect(phoneRows(45, CELL)).toBe(38);
  });
});
