// Decides how a web wheel event scrolls the pane, the way tmux's own default WheelUp/WheelDown bindings do.
//
// Why server-side and not in the browser: a read-only tmux client (`attach -r`) cannot send anything to tmux, and the
// browser's own scrollback is useless because tmux redraws the screen in place. So the page sends `{t:'wheel'}` and the
// worker runs tmux commands on the pane, choosing exactly what tmux's default binding
// `if -F '#{||:#{pane_in_mode},#{mouse_any_flag}}' { send -M } { copy-mode -e }` chooses:
//  - the pane is in copy mode            → scroll copy mode (`send -X scroll-up|down`; `-e` leaves it at the bottom);
//  - the program asked for mouse events  → send it wheel events as mouse reports (SGR `ESC[<64;x;yM` or X10), so
//    alt-screen CLIs that scroll their own views (vim, htop, TUIs with mouse on) scroll as in a local terminal;
//  - otherwise (shells, CLIs on the main screen, alt-screen programs without mouse) → enter copy mode and scroll the
//    pane's history. Never arrow keys: those would type into a prompt, which a read-only viewer must not do.
// Copy mode and the program's view are shared by everyone looking at the pane; that is the pane's nature.

export interface PaneScrollState {
  inMode: boolean;
  mouseAny: boolean;
  mouseSgr: boolean;
  cols: number;
  rows: number;
}

export interface WheelInput {
  dir: 'up' | 'down';
  n: number;
  col?: number | undefined;
  row?: number | undefined;
}

/** tmux argv lists (without the `-L socket` prefix) to run in order. */
export type TmuxCommand = readonly string[];

/** The format that reads PaneScrollState in one `display-message -p`. */
export const PANE_SCROLL_FORMAT = '#{pane_in_mode} #{mouse_any_flag} #{mouse_sgr_flag} #{pane_width} #{pane_height}';

export function parsePaneScrollState(line: string): PaneScrollState | null {
  const parts = line.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const [mode, any, sgr, cols, rows] = parts.map(Number) as [number, number, number, number, number];
  if (![mode, any, sgr, cols, rows].every(Number.isFinite) || cols < 1 || rows < 1) return null;
  return { inMode: mode === 1, mouseAny: any === 1, mouseSgr: sgr === 1, cols, rows };
}

/** X10 mouse reports carry coordinates as one byte (32 + n), so they cannot address cells beyond 223. */
const X10_MAX_CELL = 223;

function clampCell(v: number | undefined, max: number): number {
  if (v === undefined) return Math.max(1, Math.ceil(max / 2));
  return Math.min(Math.max(1, Math.round(v)), max);
}

/** The bytes of one wheel report for a program that enabled mouse tracking. */
export function wheelReport(dir: 'up' | 'down', col: number, row: number, sgr: boolean): number[] | null {
  const button = dir === 'up' ? 64 : 65;
  if (sgr) return [...Buffer.from(`\x1b[<${button};${col};${row}M`, 'latin1')];
  if (col > X10_MAX_CELL || row > X10_MAX_CELL) return null;
  return [0x1b, 0x5b, 0x4d, 32 + button, 32 + col, 32 + row];
}

export function planWheel(target: string, state: PaneScrollState, input: WheelInput): TmuxCommand[] {
  const n = String(input.n);
  const scroll = input.dir === 'up' ? 'scroll-up' : 'scroll-down';
  if (state.inMode) return [['send-keys', '-t', target, '-X', '-N', n, scroll]];
  if (state.mouseAny) {
    const report = wheelReport(input.dir, clampCell(input.col, state.cols), clampCell(input.row, state.rows), state.mouseSgr);
    if (!report) return [];
    const hex: string[] = [];
    for (let i = 0; i < input.n; i++) for (const b of report) hex.push(b.toString(16).padStart(2, '0'));
    return [['send-keys', '-t', target, '-H', ...hex]];
  }
  // Not in copy mode, so the view is already at the bottom: there is nothing below to scroll to.
  if (input.dir === 'down') return [];
  return [['copy-mode', '-e', '-t', target], ['send-keys', '-t', target, '-X', '-N', n, 'scroll-up']];
}
