// How big the terminal is drawn: fit-to-width (a write page on a phone reflows the pane to its screen) or the pane's own size at a chosen or fitted font.
import type { Terminal } from '@xterm/xterm';
import type { FitAddon } from '@xterm/addon-fit';
import { WEBTERM_FIT_LIMITS, type ClientFrame, type InfoMessage } from '../shared/webterm-protocol.js';
import { fitPane, FONT_SIZES } from './fit-pane.js';
import { clampFont, saveViewPrefs, VIEW_FONT, type ViewPrefs } from './view-prefs.js';

export interface SizingState {
  /** Whether this page holds the pane at its own size. */
  fitting: boolean;
  /** The font in CSS px the text is drawn with now (the terminal's, or the text view's when that is shown). */
  fontSize: number;
  readOnly: boolean;
  /** Whether the readable text view is shown instead of the terminal. */
  textMode: boolean;
}

export class TerminalSizing {
  private pane: { cols: number; rows: number } | null = null;
  private readOnly = true;
  /** The size last asked of the server (null: no fit held), so a repeated layout pass sends nothing. */
  private sent: { cols: number; rows: number } | null = null;
  /** The pane does not fit across the screen even at the smallest font this page uses (it would pan sideways). */
  private wide = false;

  constructor(
    private readonly term: Terminal,
    private readonly fit: FitAddon,
    private readonly send: (frame: ClientFrame) => void,
    private readonly prefs: ViewPrefs,
    private readonly phone: boolean,
    private readonly storage: Pick<Storage, 'setItem'> | null,
    private readonly onChange: (s: SizingState) => void,
  ) {}

  /** Fit-to-width applies to write pages only (a view-only page never resizes the shared pane); on by default on phones. */
  get fitting(): boolean {
    return !this.readOnly && (this.prefs.fit ?? this.phone);
  }

  /**
   * The readable text view: for view-only pages (which cannot reflow the pane), by default on a phone when the pane is
   * too wide to read without panning sideways.
   */
  get textMode(): boolean {
    return this.readOnly && (this.prefs.text ?? (this.phone && this.wide));
  }

  private get fontSize(): number {
    return Number(this.term.options.fontSize ?? FONT_SIZES.max);
  }

  /** The socket (re)opened: the server holds no fit for this page yet. */
  connected(): void {
    this.sent = null;
  }

  /** The server's info frame: this page's access and the pane's (client) size. */
  info(info: InfoMessage): void {
    this.readOnly = info.readOnly;
    this.pane = { cols: info.cols, rows: info.rows };
    this.layout();
  }

  /** A− / A+: the chosen size is remembered for the next visit. */
  stepFont(direction: -1 | 1): void {
    const now = this.textMode ? (this.prefs.fontSize ?? VIEW_FONT.touchDefault) : this.fontSize;
    this.prefs.fontSize = clampFont(now + direction * VIEW_FONT.step);
    saveViewPrefs(this.storage, this.prefs);
    this.layout();
  }

  setText(on: boolean): void {
    this.prefs.text = on;
    saveViewPrefs(this.storage, this.prefs);
    this.layout();
  }

  setFit(on: boolean): void {
    this.prefs.fit = on;
    saveViewPrefs(this.storage, this.prefs);
    this.layout();
  }

  /** Lays the terminal out again (after an info frame, a window resize or rotation, or a control). */
  layout(): void {
    if (!this.pane) return;
    if (this.fitting) this.layoutFitting();
    else this.layoutPaneSize(this.pane);
    const textMode = this.textMode;
    const fontSize = textMode ? (this.prefs.fontSize ?? VIEW_FONT.touchDefault) : this.fontSize;
    this.onChange({ fitting: this.fitting, fontSize, readOnly: this.readOnly, textMode });
  }

  /** Fit-to-width: the font is the reader's; the pane is asked for as many cells as the screen holds at that font. */
  private layoutFitting(): void {
    this.term.options.fontSize = this.prefs.fontSize ?? VIEW_FONT.touchDefault;
    const p = this.fit.proposeDimensions();
    if (p && Number.isFinite(p.cols) && Number.isFinite(p.rows)) {
      const want = { cols: Math.max(WEBTERM_FIT_LIMITS.minCols, p.cols), rows: Math.max(WEBTERM_FIT_LIMITS.minRows, p.rows) };
      if (!this.sent || this.sent.cols !== want.cols || this.sent.rows !== want.rows) {
        this.sent = want;
        this.send({ t: 'fit', on: true, ...want });
      }
    }
    // Until the server answers (or while another page's newer fit holds the pane), show the pane as it is.
    const pane = this.pane!;
    if (this.term.cols !== pane.cols || this.term.rows !== pane.rows) this.term.resize(pane.cols, pane.rows);
  }

  /** The pane keeps its size: the reader's font (the viewport pans if it is wider), or a font that fits the pane. */
  private layoutPaneSize(pane: { cols: number; rows: number }): void {
    if (this.sent) {
      this.sent = null;
      this.send({ t: 'fit', on: false });
    }
    if (this.prefs.fontSize !== null) {
      this.term.options.fontSize = this.prefs.fontSize;
      if (this.term.cols !== pane.cols || this.term.rows !== pane.rows) this.term.resize(pane.cols, pane.rows);
    } else {
      // A phone never shrinks text below what it can read without zooming; a wide pane pans sideways there instead.
      fitPane(this.term, this.fit, pane.cols, pane.rows, this.phone ? { ...FONT_SIZES, min: VIEW_FONT.touchMin } : FONT_SIZES);
    }
    const p = this.fit.proposeDimensions();
    if (p && Number.isFinite(p.cols)) this.wide = p.cols < pane.cols;
  }
}
