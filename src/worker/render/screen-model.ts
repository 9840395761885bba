// Parses a captured pane (capture-pane -e text + cursor) with @xterm/headless into a grid of resolved cells for the painters.
import xh from '@xterm/headless';
import u11 from '@xterm/addon-unicode11';
import { buildPalette, mixColour, type Palette } from './palette.js';
import type { CapturedScreen } from '../../shared/render-protocol.js';
import { CELL, type ScreenGrid } from './screen-grid.js';

const { Terminal } = xh;
const { Unicode11Addon } = u11;
type HeadlessTerminal = InstanceType<typeof Terminal>;

export type { CapturedScreen };

/** Turns capture-pane output into terminal input: each row placed with CUP (never \r\n, which scrolls off the top row). */
export function frameToVt(screen: CapturedScreen): string {
  const lines = screen.ansi.split('\n');
  let out = '\x1b[0m\x1b[H\x1b[2J';
  const n = Math.min(lines.length, screen.rows);
  for (let i = 0; i < n; i++) out += `\x1b[${i + 1};1H${lines[i]}`;
  out += `\x1b[0m\x1b[${screen.cursor.y + 1};${screen.cursor.x + 1}H`;
  return out;
}

export class ScreenModel {
  private term: HeadlessTerminal | null = null;
  private readonly palette: Palette;

  constructor(palette: Palette = buildPalette()) {
    this.palette = palette;
  }

  private terminalFor(cols: number, rows: number): HeadlessTerminal {
    if (this.term && this.term.cols === cols && this.term.rows === rows) return this.term;
    this.term?.dispose();
    const term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
    // Unicode 11 widths match tmux/glibc for emoji (🚀 ✅ are 2 cells); the browser page uses the same addon.
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    this.term = term;
    return term;
  }

  /** Parses the screen (asynchronously: xterm's write callback) and returns the resolved grid. */
  async load(screen: CapturedScreen): Promise<ScreenGrid> {
    const term = this.terminalFor(screen.cols, screen.rows);
    await new Promise<void>((resolve) => term.write(frameToVt(screen), resolve));
    return this.readGrid(term, screen);
  }

  private readGrid(term: HeadlessTerminal, screen: CapturedScreen): ScreenGrid {
    const { cols, rows } = screen;
    const p = this.palette;
    const n = cols * rows;
    const grid: ScreenGrid = {
      cols,
      rows,
      chars: new Array<string>(n).fill(''),
      widths: new Uint8Array(n),
      fg: new Uint32Array(n),
      bg: new Uint32Array(n),
      flags: new Uint8Array(n),
      defaultBg: p.background,
    };
    const buf = term.buffer.active;
    const cell = buf.getNullCell();
    for (let y = 0; y < rows; y++) {
      const line = buf.getLine(buf.viewportY + y);
      for (let x = 0; x < cols; x++) {
        const i = y * cols + x;
        if (!line || !line.getCell(x, cell)) {
          grid.widths[i] = 1;
          grid.fg[i] = p.foreground;
          grid.bg[i] = p.background;
          continue;
        }
        const bold = cell.isBold() !== 0;
        let fg: number;
        if (cell.isFgRGB()) fg = cell.getFgColor();
        else if (cell.isFgPalette()) {
          const idx = cell.getFgColor();
          fg = p.indexed[bold && idx < 8 ? idx + 8 : idx]!;
        } else fg = p.foreground;
        let bg: number;
        if (cell.isBgRGB()) bg = cell.getBgColor();
        else if (cell.isBgPalette()) bg = p.indexed[cell.getBgColor()]!;
        else bg = p.background;
        let inverse = cell.isInverse() !== 0;
        if (screen.cursor.visible && y === screen.cursor.y && (x === screen.cursor.x || (x === screen.cursor.x + 1 && cell.getWidth() === 0))) {
          inverse = !inverse; // the cursor is drawn as an inverted cell (both halves of a wide character)
        }
        if (inverse) [fg, bg] = [bg, fg];
        if (cell.isDim()) fg = mixColour(fg, bg, 0.5);
        let flags = 0;
        if (bold) flags |= CELL.bold;
        if (cell.isItalic()) flags |= CELL.italic;
        if (cell.isUnderline()) flags |= CELL.underline;
        if (cell.isStrikethrough()) flags |= CELL.strike;
        if (cell.isInvisible()) flags |= CELL.invisible;
        grid.chars[i] = cell.getChars();
        grid.widths[i] = cell.getWidth();
        grid.fg[i] = fg;
        grid.bg[i] = bg;
        grid.flags[i] = flags;
      }
    }
    return grid;
  }

  dispose(): void {
    this.term?.dispose();
    this.term = null;
  }
}
