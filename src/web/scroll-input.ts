// Turns mouse wheels and vertical touch drags on the terminal into whole-line wheel frames for the pane.
import type { WheelRequest } from '../shared/webterm-protocol.js';
import { WEBTERM_LIMITS } from '../shared/webterm-protocol.js';

export interface CellGeometry {
  /** The terminal's screen element; cell positions are measured from it. */
  screen(): HTMLElement | null;
  cols(): number;
  rows(): number;
}

/** Pixels of finger travel (in cell heights) per line: one line per cell height feels like a local terminal. */
const TOUCH_LINES_PER_CELL = 1;

export class ScrollInput {
  private pendingLines = 0;
  private pixelRemainder = 0;
  private at: { col: number; row: number } | undefined;
  private frame = 0;
  private touchId: number | null = null;
  private touchY = 0;

  constructor(
    private readonly geometry: CellGeometry,
    private readonly send: (req: WheelRequest) => void,
  ) {}

  private cell(): { w: number; h: number; rect: DOMRect } | null {
    const el = this.geometry.screen();
    if (!el) return null;
    const rect = el.getBoundingClientRect();
    const w = rect.width / this.geometry.cols();
    const h = rect.height / this.geometry.rows();
    return w > 0 && h > 0 ? { w, h, rect } : null;
  }

  private locate(clientX: number, clientY: number): void {
    const c = this.cell();
    if (!c) return;
    const col = Math.floor((clientX - c.rect.left) / c.w) + 1;
    const row = Math.floor((clientY - c.rect.top) / c.h) + 1;
    this.at = { col: Math.min(Math.max(col, 1), this.geometry.cols()), row: Math.min(Math.max(row, 1), this.geometry.rows()) };
  }

  /** For xterm's custom wheel handler: returns false so xterm never turns the wheel into arrow keys itself. */
  onWheel(ev: WheelEvent): boolean {
    if (Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) return false; // sideways: let the page scroll the wide pane
    ev.preventDefault();
    this.locate(ev.clientX, ev.clientY);
    if (ev.deltaMode === WheelEvent.DOM_DELTA_LINE) this.addLines(Math.trunc(ev.deltaY) || Math.sign(ev.deltaY));
    else if (ev.deltaMode === WheelEvent.DOM_DELTA_PAGE) this.addLines(Math.sign(ev.deltaY) * this.geometry.rows());
    else this.addPixels(ev.deltaY);
    return false;
  }

  /** Vertical touch drags (the CSS leaves horizontal pans and pinch to the browser). */
  attachTouch(el: HTMLElement): void {
    el.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType !== 'touch' || this.touchId !== null) return;
      this.touchId = ev.pointerId;
      this.touchY = ev.clientY;
      this.pixelRemainder = 0;
      this.locate(ev.clientX, ev.clientY);
    });
    el.addEventListener('pointermove', (ev) => {
      if (ev.pointerId !== this.touchId) return;
      // Finger up = content up = later lines = scrolling "down", as on any touch screen.
      const dy = this.touchY - ev.clientY;
      this.touchY = ev.clientY;
      this.addPixels(dy * TOUCH_LINES_PER_CELL);
    });
    const end = (ev: PointerEvent) => {
      if (ev.pointerId === this.touchId) this.touchId = null;
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
  }

  private addPixels(dy: number): void {
    const c = this.cell();
    const h = c?.h ?? 16;
    this.pixelRemainder += dy;
    const lines = Math.trunc(this.pixelRemainder / h);
    if (lines === 0) return;
    this.pixelRemainder -= lines * h;
    this.addLines(lines);
  }

  private addLines(lines: number): void {
    this.pendingLines += lines;
    // One frame per animation frame at most: a trackpad fires wheel events far faster than tmux needs them.
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.frame = 0;
    while (this.pendingLines !== 0) {
      const n = Math.min(Math.abs(this.pendingLines), WEBTERM_LIMITS.wheelLines);
      const dir = this.pendingLines < 0 ? 'up' : 'down';
      this.pendingLines -= dir === 'up' ? -n : n;
      this.send({ t: 'wheel', dir, n, ...(this.at ?? {}) });
    }
  }
}
