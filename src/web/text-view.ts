// The readable text view: the pane's screen as plain text that wraps at the phone's width (for view-only pages, which cannot reflow the pane).
import type { Terminal } from '@xterm/xterm';

/** The visible screen of `term` as text: one line per row, trailing blanks and trailing empty rows dropped. */
export function screenText(term: Pick<Terminal, 'buffer' | 'rows'>): string {
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) lines.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

export const TEXT_VIEW = {
  /** Within this many px of the bottom counts as "at the bottom" (sub-pixel rounding of scroll positions). */
  followSlackPx: 4,
} as const;

export class TextView {
  private shown = false;
  private pending = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly term: Terminal,
  ) {
    // Output arrives in many small writes: redraw at most once per animation frame, and only while shown.
    term.onWriteParsed(() => this.refreshSoon());
    term.onResize(() => this.refreshSoon());
  }

  show(on: boolean): void {
    if (on === this.shown) return;
    this.shown = on;
    this.host.hidden = !on;
    if (on) {
      this.refresh();
      this.host.scrollTop = this.host.scrollHeight; // the prompt and the newest output are at the bottom
    }
  }

  private refreshSoon(): void {
    if (!this.shown || this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.refresh();
    });
  }

  private refresh(): void {
    const text = screenText(this.term);
    if (this.host.textContent === text) return;
    // Follow new output while the reader is at the bottom; leave them where they are if they scrolled up to read.
    const h = this.host;
    const atBottom = h.scrollTop + h.clientHeight >= h.scrollHeight - TEXT_VIEW.followSlackPx;
    h.textContent = text;
    if (atBottom) h.scrollTop = h.scrollHeight;
  }
}
