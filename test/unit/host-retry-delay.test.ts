// The pause before a prompt whose host was unreachable is sent again: every 2 s while the outage is under two
// minutes old (a link back after 20 s is found within seconds), never more than a minute after, so a host
// that stays down is tried about once a minute (never a tight loop).
import { describe, expect, it } from 'vitest';
import { hostRetryDelayMs, waitingPrompts } from '../../src/daemon/sessions/host-waits.js';

describe('hostRetryDelayMs', () => {
  it.each([
    [0, 2_000],
    [1, 4_000],
    [2, 8_000],
    [4, 32_000],
    [5, 60_000],
    [50, 60_000],
    [-1, 2_000],
  ])('attempt %i of a long outage waits %i ms', (attempt, ms) => expect(hostRetryDelayMs(attempt)).toBe(ms));

  it.each([
    [0, 0, 2_000],
    [1, 5_000, 2_000],
    [5, 20_000, 2_000],
    [30, 119_999, 2_000],
    [30, 120_000, 60_000],
    [3, 120_000, 16_000],
  ])('attempt %i of a host down %i ms waits %i ms', (attempt, downFor, ms) => expect(hostRetryDelayMs(attempt, downFor)).toBe(ms));
});

describe('waitingPrompts', () => {
  it('keeps the prompts among unsent messages, in order; the init and keys lose their moment', () => {
    const input = { type: 'input', turnId: 't1', text: 'a', requester: { userId: 'ou_1' } } as const;
    const raw = { type: 'raw_input', turnId: 't2', text: '/model' } as const;
    expect(waitingPrompts([{ type: 'capture_now' }, input, { type: 'key', key: 'enter' }, raw])).toEqual([input, raw]);
  });
});
