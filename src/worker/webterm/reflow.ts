// Fit-to-width: a write page on a phone asks the shared pane to take its size; the pane's own size comes back when no page asks.
import type { ClientSize, TmuxOutcome, WindowSize } from './tmux-pane.js';

/** The tmux side of a reflow: read and set the window's size. */
export interface ReflowPane {
  windowSize(): Promise<WindowSize | null>;
  resizeWindow(cols: number, rows: number): Promise<TmuxOutcome>;
}

/**
 * The window size to apply: the newest request (a page's client size less the status line), or the size the window
 * had before the first request once none is left; null = leave the window alone.
 */
export function reflowTarget(
  original: { cols: number; rows: number } | null,
  requests: readonly ClientSize[],
  statusLines: number,
): { cols: number; rows: number } | null {
  const newest = requests.at(-1);
  if (newest) return { cols: newest.cols, rows: Math.max(1, newest.rows - statusLines) };
  return original;
}

/**
 * Holds the write pages' fit requests (newest wins) and the window's size from before the first one. Every change is
 * applied in order on one chain, so a quick on/off/on never leaves the pane at a stale size.
 */
export class PaneReflow {
  private readonly requests = new Map<object, ClientSize>();
  private original: { cols: number; rows: number } | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pane: ReflowPane,
    private readonly onError: (message: string) => void,
  ) {}

  /** Whether any page holds the pane at its size. */
  get active(): boolean {
    return this.requests.size > 0;
  }

  /** `owner` (a write connection) asks for `size`; a repeated request moves it to newest. Resolves once applied. */
  request(owner: object, size: ClientSize): Promise<void> {
    this.requests.delete(owner);
    this.requests.set(owner, size);
    return this.apply();
  }

  /** `owner` gives its request back (fit off, or the page closed). Resolves once applied. */
  release(owner: object): Promise<void> {
    if (!this.requests.delete(owner)) return this.chain.then(() => undefined);
    return this.apply();
  }

  /** Drops every request and restores the window (the worker stops: the tmux session outlives it). */
  releaseAll(): Promise<void> {
    if (this.requests.size === 0) return this.chain.then(() => undefined);
    this.requests.clear();
    return this.apply();
  }

  private apply(): Promise<void> {
    const run = this.chain.then(async () => {
      const size = await this.pane.windowSize();
      if (!size) return this.onError('cannot read the window size');
      if (this.requests.size > 0 && !this.original) this.original = { cols: size.cols, rows: size.rows };
      const target = reflowTarget(this.original, [...this.requests.values()], size.statusLines);
      if (this.requests.size === 0) this.original = null;
      if (!target || (target.cols === size.cols && target.rows === size.rows)) return;
      const res = await this.pane.resizeWindow(target.cols, target.rows);
      if (!res.ok) this.onError(res.message);
    });
    this.chain = run.catch(() => undefined);
    return run.catch((err: unknown) => this.onError(err instanceof Error ? err.message : String(err)));
  }
}
