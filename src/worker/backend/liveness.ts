// LivenessTracker: turns tri-state probes into a verdict, calling a session gone only after repeated misses.
import type { ProbeResult } from './types.js';

export const LIVENESS_LIMITS = {
  /** One `missing` can be a tmux hiccup (server restarting, socket briefly unreachable); three in a row is not. */
  missingBeforeGone: 3,
} as const;

export type LivenessVerdict = 'alive' | 'dead' | 'suspect' | 'unknown' | 'gone';

/**
 * `exists` resets the count (`dead` when the pane's process exited but tmux kept it); `missing` counts up and says
 * `suspect` until the limit, then `gone`; `unknown` (tmux error or timeout) is no evidence either way: it neither
 * counts nor resets. Once gone, always gone.
 */
export class LivenessTracker {
  private missing = 0;
  private verdict: LivenessVerdict = 'unknown';

  constructor(private readonly missingBeforeGone: number = LIVENESS_LIMITS.missingBeforeGone) {}

  record(probe: ProbeResult['state'] | ProbeResult): LivenessVerdict {
    if (this.verdict === 'gone') return 'gone';
    const p: ProbeResult = typeof probe === 'string' ? stateOnly(probe) : probe;
    switch (p.state) {
      case 'exists':
        this.missing = 0;
        this.verdict = p.paneDead ? 'dead' : 'alive';
        break;
      case 'missing':
        this.missing += 1;
        this.verdict = this.missing >= this.missingBeforeGone ? 'gone' : 'suspect';
        break;
      case 'unknown':
        this.verdict = this.missing > 0 ? 'suspect' : 'unknown';
        break;
    }
    return this.verdict;
  }

  get current(): LivenessVerdict {
    return this.verdict;
  }
}

function stateOnly(state: ProbeResult['state']): ProbeResult {
  if (state === 'exists') return { state, panePid: null, paneDead: false, exitStatus: null };
  if (state === 'missing') return { state };
  return { state, reason: 'unspecified' };
}
