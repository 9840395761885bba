// When the worker reports a usage limit (issue 30.3): once per change of state, with the turn that hit it, `clear`
// once a later turn went through, and old words left on screen after a clear are not news.
import { describe, expect, it } from 'vitest';
import type { UsageLimitSeen } from '../../src/worker/cli/usage-limit.js';
import { limitReportStep, type LimitEvent, type LimitReport, type LimitReportState } from '../../src/worker/lifecycle/usage-limit-report.js';

const H = 3_600_000;
const limited = (excerpt: string, untilMs?: number): UsageLimitSeen => ({ state: 'limited', excerpt, ...(untilMs !== undefined ? { untilMs } : {}) });
const throttled = (excerpt: string, untilMs?: number): UsageLimitSeen => ({ state: 'throttled', excerpt, ...(untilMs !== undefined ? { untilMs } : {}) });
const look = (seen: UsageLimitSeen | null, turnId = 't1'): LimitEvent => ({ type: 'screen', seen, turnId, now: 8 * H });
const end = (turnId: string, finalText: string, limitInText = false): LimitEvent => ({ type: 'turn_end', turnId, finalText, limitInText });

function run(events: LimitEvent[]): (LimitReport | null)[] {
  let state: LimitReportState = { told: null };
  return events.map((ev) => {
    const step = limitReportStep(state, ev);
    state = step.state;
    return step.report;
  });
}

const CASES: { name: string; events: LimitEvent[]; want: (Partial<LimitReport> | null)[] }[] = [
  {
    name: 'a limit is reported once however many frames show it, with the turn that hit it',
    events: [look(null), look(limited('5-hour limit reached · retrying in 1s (10pm)', 10 * H)), look(limited('5-hour limit reached · retrying in 12s (10pm)', 10 * H + 60_000))],
    want: [null, { state: 'limited', untilMs: 10 * H, turnId: 't1' }, null],
  },
  {
    name: 'a later frame that no longer names the reset is the same limit',
    events: [look(limited('5-hour limit reached (10pm)', 10 * H)), look(limited('API Error: Request rejected (429)'))],
    want: [{ state: 'limited', untilMs: 10 * H }, null],
  },
  {
    name: 'a retry frame without its reset does not undo a hold still ahead; a near reset does',
    events: [look(limited('5-hour limit reached · retrying in 1s (10pm)', 10 * H)), look(throttled('5-hour limit reached · retrying in 1')), look(throttled('retrying in 5s', 8 * H + 5_000))],
    want: [{ state: 'limited', untilMs: 10 * H }, null, { state: 'throttled', untilMs: 8 * H + 5_000 }],
  },
  {
    // Codex's "try again at 8:54 PM" still on screen when the released `continue` goes at 20:56: the clock parser now
    // reads tomorrow's 8:54 PM. The same words are the same message, not a new limit on the continuation.
    name: 'the same words read again after their minute passed are not a new limit',
    events: [look(limited('You’ve hit your usage limit. … try again at 8:54 PM.', 20 * H + 55 * 60_000)), look(limited('You’ve hit your usage limit. … try again at 8:54 PM.', 44 * H + 55 * 60_000), 't1:continue')],
    want: [{ state: 'limited', untilMs: 20 * H + 55 * 60_000 }, null],
  },
  {
    name: 'a reset that moves by more than a few minutes is news',
    events: [look(limited('limit, try again at 10pm', 10 * H)), look(limited('limit, try again at 12am', 12 * H))],
    want: [{ state: 'limited', untilMs: 10 * H }, { state: 'limited', untilMs: 12 * H }],
  },
  {
    name: 'throttled then limited: each change once',
    events: [look(throttled('Rate limit reached · retrying')), look(throttled('Rate limit reached · retrying')), look(limited('usage limit', 9 * H))],
    want: [{ state: 'throttled' }, null, { state: 'limited', untilMs: 9 * H }],
  },
  {
    name: 'the limited turn ending with no answer or with the limit is not a clear; a later turn answered is',
    events: [look(limited('usage limit', 9 * H)), end('t1', ''), end('t1', 'API Error: 429 rate_limit_error', true), end('t2', 'FAKE-REPLY: hi')],
    want: [{ state: 'limited' }, null, null, { state: 'clear', turnId: 't2', excerpt: '' }],
  },
  {
    name: 'a throttled turn that then answers clears',
    events: [look(throttled('retrying in 3s')), end('t1', 'FAKE-REPLY: hi')],
    want: [{ state: 'throttled' }, { state: 'clear', turnId: 't1' }],
  },
  {
    name: 'after a clear the same words still on screen are not reported again; once gone, a new limit is',
    events: [look(limited('Usage limit reached for gemini-3.5-flash-lite.')), end('t2', 'ok'), look(limited('Usage limit reached for gemini-3.5-flash-lite.'), 't3'), look(null, 't3'), look(limited('Usage limit reached for gemini-3.5-flash-lite.'), 't4')],
    want: [{ state: 'limited' }, { state: 'clear' }, null, null, { state: 'limited', turnId: 't4' }],
  },
  {
    name: 'every wording the limit was shown in is old news after the clear (Claude: retry line, then API error)',
    events: [look(limited('5-hour limit reached · retrying in 1s (10pm)', 10 * H)), look(limited('API Error: Request rejected (429)')), end('t2', 'ok'), look(limited('API Error: Request rejected (429)'), 't3')],
    want: [{ state: 'limited' }, null, { state: 'clear' }, null],
  },
  {
    name: 'turns ending with no limit ever seen say nothing',
    events: [end('t1', 'FAKE-REPLY: a'), look(null), end('t2', '')],
    want: [null, null, null],
  },
];

describe('limitReportStep', () => {
  it.each(CASES)('$name', ({ events, want }) => {
    const got = run(events);
    expect(got.length).toBe(want.length);
    got.forEach((g, i) => (want[i] === null ? expect(g).toBeNull() : expect(g).toMatchObject(want[i]!)));
  });
});
