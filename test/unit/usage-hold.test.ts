// The hold rules (issue 30 item 3), as tables: throttle vs limit, jitter and backoff, queueing in order, a schedule
// due many times fires once, release one at a time, the one continuation of a cut turn, budget holds.
import { describe, expect, it } from 'vitest';
import { CONTINUATION_PROMPT, decideHold, FREE, HOLD_RULES, HoldStateSchema, holdsPrompts, messageOfTurn, scheduleWaiting, untilText, type HeldItem, type HoldEvent, type HoldState } from '../../src/shared/usage-hold.js';

const NOW = Date.UTC(2026, 11, 4, 15, 0, 0);
const ALICE = { userId: 'ou_alice', name: 'Alice' };
const item = (id: string, extra: Partial<HeldItem> = {}): HeldItem => ({ id, kind: 'prompt', text: `text ${id}`, requester: ALICE, notices: [], ...extra });

/** Runs events in turn from `state`; returns the last state and every effect's kind (with the item id where there is one). */
function run(state: HoldState, events: [number, HoldEvent][], rand = 0): { state: HoldState; effects: string[] } {
  const effects: string[] = [];
  for (const [at, ev] of events) {
    const step = decideHold(state, at, ev, rand);
    state = step.state;
    for (const e of step.effects) effects.push('item' in e ? `${e.kind}:${e.item.id}` : e.kind === 'timer' ? `timer:${e.at === null ? 'off' : e.at - NOW}` : e.kind);
  }
  // Whatever the rules make is a state the store can read back.
  expect(HoldStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  return { state, effects };
}

describe('throttle or limit', () => {
  it.each([
    { name: 'a throttle with no reset time', ev: { kind: 'throttle', excerpt: 'rate limited' } as HoldEvent, held: false, retryIn: undefined },
    { name: 'a throttle resetting in 5 s', ev: { kind: 'throttle', untilMs: NOW + 5_000, excerpt: '' } as HoldEvent, held: false, retryIn: undefined },
    { name: 'a throttle resetting at the edge', ev: { kind: 'throttle', untilMs: NOW + HOLD_RULES.throttleMaxMs, excerpt: '' } as HoldEvent, held: false, retryIn: undefined },
    { name: 'a throttle resetting in 2 min is a limit', ev: { kind: 'throttle', untilMs: NOW + 120_000, excerpt: '' } as HoldEvent, held: true, retryIn: 120_000 },
    { name: 'a limit with a reset time', ev: { kind: 'limit', untilMs: NOW + 3_600_000, excerpt: '' } as HoldEvent, held: true, retryIn: 3_600_000 },
    { name: 'a limit whose reset has passed', ev: { kind: 'limit', untilMs: NOW - 60_000, excerpt: '' } as HoldEvent, held: true, retryIn: 0 },
    { name: 'a limit with no reset time: the first backoff', ev: { kind: 'limit', excerpt: '' } as HoldEvent, held: true, retryIn: HOLD_RULES.backoffFirstMs },
  ])('$name', ({ ev, held, retryIn }) => {
    const step = decideHold(FREE, NOW, ev, 0);
    expect(step.state.hold !== null).toBe(held);
    expect(step.state.hold?.retryAt === undefined ? undefined : step.state.hold.retryAt - NOW).toBe(retryIn);
    if (!held) expect(step.effects.map((e) => e.kind)).toEqual(['throttled']);
    else expect(step.effects.map((e) => e.kind)).toEqual(['held', 'timer']);
  });

  it.each([[0, 0], [0.5, HOLD_RULES.jitterMaxMs / 2], [1, HOLD_RULES.jitterMaxMs], [7, HOLD_RULES.jitterMaxMs], [Number.NaN, 0]])('jitter for rand %s is %s ms after the reset', (rand, jitter) => {
    expect(decideHold(FREE, NOW, { kind: 'limit', untilMs: NOW + 60_000, excerpt: '' }, rand).state.hold?.retryAt).toBe(NOW + 60_000 + jitter);
  });

  it('with no reset time the backoff doubles each time the limit stays, up to the cap', () => {
    let state = FREE;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      state = decideHold(state, NOW, { kind: 'limit', excerpt: '' }, 0).state;
      waits.push(state.hold!.retryAt - NOW);
    }
    expect(waits).toEqual([15, 30, 60, 120, 120, 120].map((m) => m * 60_000));
    // The first limit's start and who asked are kept through the extensions.
    expect(state.hold?.since).toBe(NOW);
  });
});

describe('prompts while held', () => {
  const held = decideHold(FREE, NOW, { kind: 'limit', untilMs: NOW + 60_000, excerpt: 'usage limit', askedBy: 'ou_alice' }, 0).state;

  it('a prompt with no hold goes at once', () => {
    expect(run(FREE, [[NOW, { kind: 'prompt', item: item('m1') }]]).effects).toEqual(['deliver:m1']);
  });

  it('queue in order while held, then go one at a time, each after the previous turn ended', () => {
    const r = run(held, [
      [NOW + 1, { kind: 'prompt', item: item('m1') }],
      [NOW + 2, { kind: 'prompt', item: item('m2') }],
      [NOW + 30_000, { kind: 'retry_due' }],
      [NOW + 60_000, { kind: 'retry_due' }],
      [NOW + 60_001, { kind: 'prompt', item: item('m3') }],
      [NOW + 70_000, { kind: 'turn_ended', turnId: 'm2' }],
      [NOW + 80_000, { kind: 'turn_ended', turnId: 'm1' }],
      [NOW + 90_000, { kind: 'turn_ended', turnId: 'm2' }],
      [NOW + 95_000, { kind: 'turn_ended', turnId: 'm3' }],
      [NOW + 99_000, { kind: 'prompt', item: item('m4') }],
    ]);
    expect(r.effects).toEqual([
      'queued:m1', 'queued:m2',
      // Too early: the timer is armed again, nothing goes.
      'timer:60000',
      'timer:off', 'resumed', 'deliver:m1',
      // m3 came while m1 ran: it waits behind m2, with no "limited" card; a turn_ended for a turn not in flight does
      // nothing.
      'deliver:m2', 'deliver:m3',
      'deliver:m4',
    ]);
    // The queue drained: m4 went straight through, nothing is tracked any more.
    expect(holdsPrompts(r.state)).toBe(false);
    expect(r.state).toEqual({ hold: null, queue: [] });
  });

  it('a limit that comes back while the queue drains stops the rest', () => {
    const r = run(held, [
      [NOW + 1, { kind: 'prompt', item: item('m1') }],
      [NOW + 2, { kind: 'prompt', item: item('m2') }],
      [NOW + 60_000, { kind: 'resume_now' }],
      [NOW + 61_000, { kind: 'limit', untilMs: NOW + 600_000, excerpt: '', cut: { turnId: 'm1', delivered: true, requester: ALICE } }],
      [NOW + 62_000, { kind: 'turn_ended', turnId: 'm1' }],
    ]);
    expect(r.effects).toEqual(['queued:m1', 'queued:m2', 'timer:off', 'resumed', 'deliver:m1', 'held', 'timer:600000']);
    expect(r.state.queue.map((q) => [q.id, q.text])).toEqual([['m1:continue', CONTINUATION_PROMPT], ['m2', 'text m2']]);
  });

  it('a schedule that came due several times during the hold is queued once', () => {
    const r = run(held, [
      [NOW + 1, { kind: 'prompt', item: item('s-a1', { scheduleId: 'sch1' }) }],
      [NOW + 2, { kind: 'prompt', item: item('m1') }],
      [NOW + 3, { kind: 'prompt', item: item('s-a2', { scheduleId: 'sch1' }) }],
      [NOW + 4, { kind: 'prompt', item: item('s-b1', { scheduleId: 'sch2' }) }],
    ]);
    expect(r.effects).toEqual(['queued:s-a1', 'queued:m1', 'merged:s-a2', 'queued:s-b1']);
    expect(r.state.queue.map((q) => q.id)).toEqual(['s-a1', 'm1', 's-b1']);
  });

  // Asked before a due schedule posts its "⏰ Scheduled by" line: once per hold, not once per time it came due.
  it.each([
    { name: 'not held', state: FREE, waiting: false },
    { name: 'held, its firing waits', state: { ...held, queue: [item('m1'), item('s-a1', { scheduleId: 'sch1' })] }, waiting: true },
    { name: 'held, another schedule waits', state: { ...held, queue: [item('s-b1', { scheduleId: 'sch2' })] }, waiting: false },
    { name: 'released, its firing still waits behind another', state: { hold: null, queue: [item('s-a1', { scheduleId: 'sch1' })], inFlight: 'm1' }, waiting: true },
    { name: 'released, its firing is the running turn (a new firing is a new turn)', state: { hold: null, queue: [], inFlight: 's-a1' }, waiting: false },
  ])('schedule sch1 already waiting — $name: $waiting', ({ state, waiting }) => {
    expect(scheduleWaiting(state, 'sch1')).toBe(waiting);
  });

  it.each([
    { how: 'resume_now', ev: { kind: 'resume_now' } as HoldEvent, resumed: true },
    { how: 'clear', ev: { kind: 'clear' } as HoldEvent, resumed: true },
    { how: 'budget_ok (not a budget hold)', ev: { kind: 'budget_ok' } as HoldEvent, resumed: false },
    { how: 'retry_due too early', ev: { kind: 'retry_due' } as HoldEvent, resumed: false },
  ])('released by $how: $resumed', ({ ev, resumed }) => {
    const r = run(held, [[NOW + 1, { kind: 'prompt', item: item('m1') }], [NOW + 2, ev]]);
    expect(r.effects.includes('deliver:m1')).toBe(resumed);
    expect(r.state.hold === null).toBe(resumed);
  });

  it('/resume with nothing held does nothing', () => {
    expect(run(FREE, [[NOW, { kind: 'resume_now' }]]).effects).toEqual([]);
  });
});

describe('the one continuation of a cut turn', () => {
  it.each([
    { name: 'delivered: "continue" once, ahead of the queue', delivered: true, queue: ['t1:continue', 'm2'] },
    { name: 'never delivered: nothing added (the worker still holds it)', delivered: false, queue: ['m2'] },
  ])('$name', ({ delivered, queue }) => {
    const cut = { turnId: 't1', delivered, requester: ALICE };
    const r = run(FREE, [
      [NOW, { kind: 'limit', untilMs: NOW + 60_000, excerpt: '', cut }],
      [NOW + 1, { kind: 'prompt', item: item('m2') }],
      // The same cut reported again (the screen and the transcript both saw it): still one continuation.
      [NOW + 2, { kind: 'limit', untilMs: NOW + 60_000, excerpt: '', cut }],
    ]);
    expect(r.state.queue.map((q) => q.id)).toEqual(queue);
  });

  it.each([
    { name: 'proof after the limit, while held: "continue" once, ahead of the queue', events: ['limit', 'prompt', 'proof', 'proof'], queue: ['t1:continue', 'm2'] },
    { name: 'proof after the hold was released: nothing added (the next prompt goes on)', events: ['limit', 'prompt', 'resume', 'proof'], queue: [] },
    { name: 'proof for a cut already continued: still one', events: ['limitDelivered', 'proof'], queue: ['t1:continue'] },
  ])('late delivery proof of the cut turn — $name', ({ events, queue }) => {
    const cut = { turnId: 't1', requester: ALICE };
    const ev: Record<string, HoldEvent> = {
      limit: { kind: 'limit', untilMs: NOW + 60_000, excerpt: '', cut: { ...cut, delivered: false } },
      limitDelivered: { kind: 'limit', untilMs: NOW + 60_000, excerpt: '', cut: { ...cut, delivered: true } },
      prompt: { kind: 'prompt', item: item('m2') },
      proof: { kind: 'cut_delivered', cut },
      resume: { kind: 'resume_now' },
    };
    const r = run(FREE, events.map((e, i) => [NOW + i, ev[e]!] as [number, HoldEvent]));
    expect(r.state.queue.map((q) => q.id)).toEqual(queue);
  });

  it('a continuation that itself ran into the limit is sent again, still one', () => {
    const r = run(FREE, [
      [NOW, { kind: 'limit', untilMs: NOW + 60_000, excerpt: '', cut: { turnId: 't1', delivered: true, requester: ALICE } }],
      [NOW + 60_000, { kind: 'retry_due' }],
      [NOW + 61_000, { kind: 'limit', untilMs: NOW + 120_000, excerpt: '', cut: { turnId: 't1:continue', delivered: true, requester: ALICE } }],
    ]);
    expect(r.state.queue.map((q) => q.id)).toEqual(['t1:continue']);
    expect(r.effects.filter((e) => e.startsWith('deliver'))).toEqual(['deliver:t1:continue']);
  });
});

describe('budget holds', () => {
  const dayAt = NOW + 9 * 3_600_000;
  it('hold new turns until the next day, then release them', () => {
    const r = run(FREE, [
      [NOW, { kind: 'budget_over', nextDayAt: dayAt, askedBy: 'ou_alice' }],
      [NOW + 1, { kind: 'prompt', item: item('m1') }],
      [NOW + 2, { kind: 'budget_over', nextDayAt: dayAt }],
      [dayAt, { kind: 'retry_due' }],
    ]);
    expect(r.effects).toEqual(['held', `timer:${dayAt - NOW}`, 'queued:m1', `timer:${dayAt - NOW}`, 'timer:off', 'resumed', 'deliver:m1']);
  });

  it('a raised budget (budget_ok) releases a budget hold, never a limit', () => {
    const budget = run(FREE, [[NOW, { kind: 'budget_over', nextDayAt: dayAt }], [NOW + 1, { kind: 'budget_ok' }]]);
    expect(budget.state.hold).toBeNull();
    const limit = run(FREE, [[NOW, { kind: 'limit', untilMs: NOW + 60_000, excerpt: '' }], [NOW + 1, { kind: 'budget_ok' }], [NOW + 2, { kind: 'budget_over', nextDayAt: dayAt }]]);
    expect(limit.state.hold?.reason).toBe('limit');
  });
});

describe('what the card says', () => {
  it.each([
    // NOW is 15:00 UTC = 23:00 in Shanghai: an hour later is tomorrow there, so the date is said.
    { at: NOW + 30 * 60_000, tz: 'UTC', text: '15:30' },
    { at: NOW + 30 * 60_000, tz: 'Asia/Shanghai', text: '23:30' },
    { at: NOW + 90 * 60_000, tz: 'Asia/Shanghai', text: '2026-12-05 00:30' },
    { at: NOW + 30 * 60_000 + 15_000, tz: 'UTC', text: '15:30:15' },
  ])('until $at in $tz → $text', ({ at, tz, text }) => {
    expect(untilText(at, NOW, tz)).toBe(text);
  });

  it.each([['om_1', 'om_1'], ['om_1:continue', 'om_1'], ['continue', 'continue']])('the message of turn %s is %s', (turn, message) => {
    expect(messageOfTurn(turn)).toBe(message);
  });
});
