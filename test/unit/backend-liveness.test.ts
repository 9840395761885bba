import { describe, expect, it } from 'vitest';
import { LivenessTracker, type LivenessVerdict } from '../../src/worker/backend/liveness.js';
import type { ProbeResult } from '../../src/worker/backend/types.js';

type S = ProbeResult['state'];

describe('LivenessTracker', () => {
  const cases: Array<[string, S[], LivenessVerdict]> = [
    ['one exists', ['exists'], 'alive'],
    ['one missing is only suspect', ['missing'], 'suspect'],
    ['two missing still suspect', ['missing', 'missing'], 'suspect'],
    ['three missing in a row is gone', ['missing', 'missing', 'missing'], 'gone'],
    ['exists resets the count', ['missing', 'missing', 'exists', 'missing', 'missing'], 'suspect'],
    ['unknown neither counts nor resets', ['missing', 'unknown', 'missing', 'unknown', 'missing'], 'gone'],
    ['unknown alone is unknown', ['unknown', 'unknown', 'unknown', 'unknown'], 'unknown'],
    ['gone stays gone', ['missing', 'missing', 'missing', 'exists'], 'gone'],
  ];
  it.each(cases)('%s', (_name, states, verdict) => {
    const t = new LivenessTracker();
    let v: LivenessVerdict = 'unknown';
    for (const s of states) v = t.record(s);
    expect(v).toBe(verdict);
    expect(t.current).toBe(verdict);
  });

  it('reports a dead pane kept by remain-on-exit as dead, not gone', () => {
    const t = new LivenessTracker();
    expect(t.record({ state: 'exists', panePid: 1, paneDead: true, exitStatus: 1 })).toBe('dead');
  });
});
