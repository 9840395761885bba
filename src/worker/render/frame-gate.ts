// Pure decisions for when to render a screenshot: only when the pane changed and someone displays it, one render at a time.

export const FRAME_GATE_DEFAULTS = {
  /** At most ~3 frames a second when the daemon names no pace (init.frameIntervalMs: a card's is 2 s). */
  minIntervalMs: 300,
} as const;

export type GateDecision = { action: 'render' } | { action: 'wait'; ms: number } | { action: 'idle'; reason: 'silent' | 'not-displayed' | 'in-flight' };

/**
 * Inputs: pane output seen, whether anyone displays screenshots, explicit requests, render start/finish.
 * "Latest wins": output during a render only marks the screen dirty again, so one more render follows and
 * captures the newest state; renders never queue up.
 */
export class FrameGate {
  private dirty = true;
  private forced = false;
  private displaying = false;
  private inFlight = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private sentHash: string | null = null;

  constructor(
    private readonly clock: () => number,
    private readonly opts: { minIntervalMs: number } = FRAME_GATE_DEFAULTS,
  ) {}

  /** The pane produced output (or was resized): its picture may have changed. */
  notePaneOutput(): void {
    this.dirty = true;
  }

  setDisplaying(on: boolean): void {
    this.displaying = on;
  }

  /** An explicit request (capture_now, a new card): render once even if silent, and send even an identical frame. */
  requestFrame(): void {
    this.dirty = true;
    this.forced = true;
  }

  decide(): GateDecision {
    if (this.inFlight) return { action: 'idle', reason: 'in-flight' };
    if (!this.dirty) return { action: 'idle', reason: 'silent' };
    if (!this.displaying && !this.forced) return { action: 'idle', reason: 'not-displayed' };
    const wait = this.lastStart + this.opts.minIntervalMs - this.clock();
    return wait > 0 && !this.forced ? { action: 'wait', ms: wait } : { action: 'render' };
  }

  /** Call when a render starts: the screen counts as clean from here (later output dirties it again). */
  begin(): void {
    this.inFlight = true;
    this.dirty = false;
    this.lastStart = this.clock();
  }

  /** After capture, before painting: false = identical to the frame already sent, skip painting. */
  wantsFrame(hash: string): boolean {
    return this.forced || hash !== this.sentHash;
  }

  /** Call when the render ends; `sentHash` = the hash of a frame that was delivered, or null (skipped or failed). */
  finish(sentHash: string | null): void {
    this.inFlight = false;
    this.forced = false; // one request, one attempt
    if (sentHash !== null) this.sentHash = sentHash;
  }

  /** The hash a capture may be skipped for (the last frame delivered), or null when a frame was explicitly requested. */
  get skipHash(): string | null {
    return this.forced ? null : this.sentHash;
  }
}
