// The per-connection frame budget (issue 13, finding 4: 2000 frames in 78 ms kept a worker busy for minutes).
import { describe, expect, it } from 'vitest';
import { FrameBudget } from '../../src/worker/webterm/frame-budget.js';

function run(steps: { advanceMs: number; frames: number }[]): number[] {
  let now = 0;
  const budget = new FrameBudget(() => now, { burst: 10, perSecond: 5 });
  return steps.map(({ advanceMs, frames }) => {
    now += advanceMs;
    let taken = 0;
    for (let i = 0; i < frames; i++) if (budget.take()) taken++;
    return taken;
  });
}

describe('FrameBudget', () => {
  it.each([
    { name: 'a burst is taken up to its size, the rest dropped', steps: [{ advanceMs: 0, frames: 2000 }], want: [10] },
    { name: 'refills at the rate', steps: [{ advanceMs: 0, frames: 10 }, { advanceMs: 1000, frames: 100 }], want: [10, 5] },
    { name: 'never refills beyond the burst', steps: [{ advanceMs: 60_000, frames: 100 }], want: [10] },
    { name: 'steady typing below the rate is never dropped', steps: Array.from({ length: 20 }, () => ({ advanceMs: 250, frames: 1 })), want: Array(20).fill(1) },
    { name: 'half a token is not a frame', steps: [{ advanceMs: 0, frames: 10 }, { advanceMs: 100, frames: 1 }, { advanceMs: 100, frames: 1 }], want: [10, 0, 1] },
  ])('$name', ({ steps, want }) => {
    expect(run(steps)).toEqual(want);
  });
});
