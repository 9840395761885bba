// Scrolling back in the page: the pane's history is fetched once and shown in the page's own scrollable view.
//
// Why not scroll the pane (tmux copy mode, as before): the pane is shared by the chat, the CLI and every viewer; copy
// mode made prompts sent from the chat stall and gave a view link a way to disturb the session. The history view is
// this page's alone: the worker only reads the pane (capture-pane), and the live terminal keeps updating underneath.

/** Pixels of wheel travel (in cell heights) per line, as a local terminal feels. */
const LINE_PX_FALLBACK = 16;

export interface HistoryViewParts {
  /** The scrollable overlay (a <pre>) above the terminal. */
  view: HTMLElement;
  /** The button that leaves the history view. */
  live: HTMLButtonElement;
  /** Asks the worker for the pane's history (answered by show()). */
  request(): void;
  /** The terminal's font, so history lines look like the pane's lines. */
  font(): { family: string; sizePx: number };
}

export class HistoryView {
  private state: 'live' | 'loading' | 'open' = 'live';
  /** Wheel travel while waiting for the history: applied once it arrives, so the first flick is not lost. */
  private pendingPx = 0;
  private touchY: number | null = null;

  constructor(private readonly parts: HistoryViewParts) {
    parts.live.addEventListener('click', () => this.close());
    parts.view.addEventListener('wheel', (ev) => {
      // Scrolling down past the newest line returns to the live terminal.
      const atBottom = parts.view.scrollTop + parts.view.clientHeight >= parts.view.scrollHeight - 2;
      if (ev.deltaY > 0 && atBottom) this.close();
    }, { passive: true });
  }

  get isOpen(): boolean {
    return this.state !== 'live';
  }

  /** For the live terminal's wheel handler: scrolling up opens the history view. Returns true when it took the event. */
  onWheel(ev: WheelEvent): boolean {
    if (Math.abs(ev.deltaX) > Math.abs(ev.deltaY) || ev.deltaY >= 0) return false;
    ev.preventDefault();
    this.open(ev.deltaMode === WheelEvent.DOM_DELTA_PIXEL ? -ev.deltaY : -ev.deltaY * this.lineHeight());
    return true;
  }

  /** Vertical drags on the live terminal (touch screens): a finger moving down (towards earlier lines) opens the view. */
  attachTouch(el: HTMLElement): void {
    el.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType === 'touch' && this.state === 'live') this.touchY = ev.clientY;
    });
    el.addEventListener('pointermove', (ev) => {
      if (this.touchY === null || ev.pointerType !== 'touch') return;
      const dy = ev.clientY - this.touchY;
      if (dy > this.lineHeight()) {
        this.touchY = null;
        this.open(dy);
      }
    });
    const end = () => void (this.touchY = null);
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
  }

  private open(scrollUpPx: number): void {
    if (this.state === 'open') return;
    this.pendingPx += scrollUpPx;
    if (this.state === 'loading') return;
    this.state = 'loading';
    document.body.dataset.history = 'loading';
    this.parts.request();
  }

  /** The worker's answer: the pane's lines, oldest first. Shown scrolled to the bottom, then back by the wheel travel. */
  show(text: string): void {
    if (this.state !== 'loading') return;
    const { view, live, font } = this.parts;
    const f = font();
    view.style.fontFamily = f.family;
    view.style.fontSize = `${f.sizePx}px`;
    view.textContent = text;
    view.hidden = false;
    live.hidden = false;
    view.scrollTop = Math.max(0, view.scrollHeight - view.clientHeight - this.pendingPx);
    this.pendingPx = 0;
    this.state = 'open';
    document.body.dataset.history = 'open';
  }

  close(): void {
    this.state = 'live';
    this.pendingPx = 0;
    this.parts.view.hidden = true;
    this.parts.live.hidden = true;
    this.parts.view.textContent = '';
    delete document.body.dataset.history;
  }

  private lineHeight(): number {
    return Math.max(1, this.parts.font().sizePx * 1.2) || LINE_PX_FALLBACK;
  }
}
