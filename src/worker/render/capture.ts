// One capture round trip: capture-pane -p -e -N plus cursor position, visibility and pane size, in one write to tmux.
import { createHash } from 'node:crypto';
import type { TmuxCommandRunner } from '../backend/tmux-control.js';
import type { CapturedScreen } from './screen-model.js';

export const CURSOR_FORMAT = '#{cursor_x} #{cursor_y} #{cursor_flag} #{pane_width} #{pane_height}';

export type CaptureResult = { ok: true; screen: CapturedScreen } | { ok: false; code: 'pane-gone' | 'tmux-failed' | 'bad-reply'; message: string };

/** Parses the display-message reply for CURSOR_FORMAT; null when it is not five integers. */
export function parseCursorLine(line: string | undefined): { x: number; y: number; visible: boolean; cols: number; rows: number } | null {
  const m = /^(\d+) (\d+) ([01]) (\d+) (\d+)$/.exec((line ?? '').trim());
  if (!m) return null;
  const [x, y, flag, cols, rows] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (cols < 1 || rows < 1) return null;
  return { x: Math.min(x, cols - 1), y: Math.min(y, rows - 1), visible: flag === 1, cols, rows };
}

export async function capturePane(runner: TmuxCommandRunner, target: string): Promise<CaptureResult> {
  // -e: colours and attributes as SGR; -N: keep trailing cells (a coloured background at the row end is lost otherwise).
  const [cap, disp] = await runner.runMany([
    ['capture-pane', '-p', '-e', '-N', '-t', target],
    ['display-message', '-p', '-t', target, CURSOR_FORMAT],
  ]);
  for (const r of [cap!, disp!]) {
    if (!r.ok) {
      const gone = r.code === 'not_found' || r.code === 'no_server';
      return { ok: false, code: gone ? 'pane-gone' : 'tmux-failed', message: r.message };
    }
  }
  if (!cap!.ok || !disp!.ok) throw new Error('unreachable');
  const c = parseCursorLine(disp!.lines[0]);
  if (!c) return { ok: false, code: 'bad-reply', message: `unexpected cursor reply: ${JSON.stringify(disp!.lines[0] ?? '')}` };
  return { ok: true, screen: { ansi: cap!.lines.slice(0, c.rows).join('\n'), cursor: { x: c.x, y: c.y, visible: c.visible }, cols: c.cols, rows: c.rows } };
}

/** Identifies a frame before any painting: same text, attributes, cursor and size give the same picture. */
export function screenHash(s: CapturedScreen): string {
  return createHash('sha1').update(`${s.cols}x${s.rows} ${s.cursor.x},${s.cursor.y},${s.cursor.visible ? 1 : 0}\n`).update(s.ansi).digest('hex');
}
