// Sizes the terminal to the pane (never the pane to the screen): picks a font size so the pane fits, or scrolls sideways.
import type { Terminal } from '@xterm/xterm';
import type { FitAddon } from '@xterm/addon-fit';

export const FONT_SIZES = {
  /** Comfortable on a desktop; larger only wastes space. */
  max: 15,
  /** Below 6 px glyphs are unreadable even zoomed; a wider pane scrolls sideways (and pinch-zoom still works). */
  min: 6,
  /** Font steps when settling: quarter pixels look the same, finer steps only cost layout passes. */
  step: 0.25,
} as const;

/** Whether the pane fits at the current font: FitAddon proposes how many whole cells fit in the terminal's parent. */
function fits(fit: FitAddon, cols: number, rows: number): boolean | null {
  const p = fit.proposeDimensions();
  if (!p || !Number.isFinite(p.cols) || !Number.isFinite(p.rows)) return null;
  return p.cols >= cols && p.rows >= rows;
}

/**
 * Shows `cols`×`rows` of pane: the terminal always has exactly the pane's size; only the font scales. The first guess
 * scales the font by how many cells fit; then it steps down until the pane fits (or the minimum is reached, and the
 * viewport scrolls sideways).
 */
export function fitPane(term: Terminal, fit: FitAddon, cols: number, rows: number, limits: { min: number; max: number; step: number } = FONT_SIZES): void {
  if (term.cols !== cols || term.rows !== rows) term.resize(cols, rows);
  const p = fit.proposeDimensions();
  if (!p || !Number.isFinite(p.cols) || !Number.isFinite(p.rows)) return;
  const font = Number(term.options.fontSize ?? limits.max);
  const guess = font * Math.min(p.cols / cols, p.rows / rows);
  let next = Math.max(limits.min, Math.min(limits.max, Math.floor(guess / limits.step) * limits.step));
  term.options.fontSize = next;
  for (let i = 0; i < 40 && next > limits.min && fits(fit, cols, rows) === false; i++) {
    next = Math.max(limits.min, next - limits.step);
    term.options.fontSize = next;
  }
}
