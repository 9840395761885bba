// How many frames one browser connection may send: a token bucket, so a flood costs the worker a bounded amount of work.

/**
 * A person typing (auto-repeat ~30 keys/s, a paste is one frame) stays far below these; a script flooding the socket
 * gets its first `burst` frames handled and then `perSecond`, the rest dropped.
 */
export const FRAME_BUDGET = {
  burst: 200,
  perSecond: 100,
} as const;

export class FrameBudget {
  private tokens: number;
  private last: number;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits: { burst: number; perSecond: number } = FRAME_BUDGET,
  ) {
    this.tokens = limits.burst;
    this.last = now();
  }

  /** True when one more frame may be handled now (and spends it); false = drop the frame. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.last) / 1000) * this.limits.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
