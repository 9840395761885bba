// The input state machine, table-driven: events in, phases and effects out.
import { describe, expect, it } from 'vitest';
import { initialInput, inputStep, type InputEffect, type InputEvent, type InputState, type LaunchMode } from '../../src/worker/lifecycle/input-machine.js';

const msg = (turnId: string) => ({ turnId, text: `text ${turnId}` });
const input = (turnId: string): InputEvent => ({ type: 'input', message: msg(turnId) });
const BOOT_NEW: InputEvent[] = [
  { type: 'tmux_checked', ok: true }, { type: 'session_checked', session: 'missing' }, { type: 'session_prepared', ok: true },
  { type: 'tmux_started', ok: true, created: true }, { type: 'gate_done', outcome: 'ready', reason: 'ready' },
];
const sent = (turnId: string, result: 'delivered' | 'failed' | 'lost' = 'delivered'): InputEvent => ({ type: 'send_done', turnId, result });

function run(events: InputEvent[], opts: { mode?: LaunchMode; typeAhead?: boolean } = {}): { state: InputState; phases: string[]; effects: InputEffect[] } {
  let state = initialInput(opts.mode ?? 'new');
  const phases = [state.phase as string];
  const effects: InputEffect[] = [];
  for (const e of events) {
    const step = inputStep(state, e, { typeAheadWhileBusy: opts.typeAhead ?? false });
    state = step.state;
    // Phases as logged: a single event may pass through one (running → sending).
    for (const e of step.effects) if (e.type === 'log') phases.push(e.to);
    effects.push(...step.effects);
  }
  return { state, phases, effects };
}

const summary = (effects: InputEffect[]) =>
  effects.filter((e) => e.type !== 'log').map((e) => {
    if (e.type === 'deliver') return `deliver:${e.message.turnId}`;
    if (e.type === 'prepare_session') return `prepare:${e.mode}`;
    if (e.type === 'report') return `report:${e.msg.type}${'turnId' in e.msg ? `:${e.msg.turnId}` : ''}`;
    return e.type;
  });

describe('input state machine', () => {
  const cases: { name: string; events: InputEvent[]; mode?: LaunchMode; typeAhead?: boolean; phases: string[]; effects: string[] }[] = [
    {
      name: 'cold start by the first message, then delivery',
      events: [input('t1'), ...BOOT_NEW, sent('t1')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:t1'],
    },
    {
      name: 'a second message costs only a delivery (no probe of tmux, no launch, no gate)',
      events: [input('t1'), ...BOOT_NEW, sent('t1'), { type: 'cli_busy', busy: false }, input('t2'), sent('t2')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running', 'sending', 'running'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:t1', 'deliver:t2'],
    },
    {
      name: 'messages during start-up are queued and delivered in order',
      events: [input('a'), input('b'), ...BOOT_NEW, sent('a'), { type: 'cli_busy', busy: false }, sent('b')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running', 'sending', 'running'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'deliver:b'],
    },
    {
      name: 'a busy CLI holds the queue until it is ready',
      events: [input('a'), ...BOOT_NEW, sent('a'), input('b'), input('c'), { type: 'cli_busy', busy: true }, { type: 'cli_busy', busy: false }, sent('b'), { type: 'cli_busy', busy: false }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running', 'sending', 'running', 'sending'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'deliver:b', 'deliver:c'],
    },
    {
      name: 'type-ahead: one message typed into the busy CLI, the next waits (never two merged)',
      typeAhead: true,
      events: [input('a'), ...BOOT_NEW, sent('a'), input('b'), sent('b'), input('c'), { type: 'cli_busy', busy: false }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running', 'sending', 'running', 'sending'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'deliver:b', 'deliver:c'],
    },
    {
      name: 'tmux missing fails the queued messages',
      events: [input('a'), { type: 'tmux_checked', ok: false, reason: 'no tmux' }],
      phases: ['idle', 'checking_tmux', 'failed'],
      effects: ['check_tmux', 'report:input_failed:a', 'report:error'],
    },
    {
      name: 'CLI exits during start-up (after a startup answer): launched once more, then ready',
      events: [input('a'), ...BOOT_NEW.slice(0, 4), { type: 'gate_done', outcome: 'missing', reason: 'exited' }, { type: 'session_checked', session: 'dead' }, { type: 'session_prepared', ok: true }, { type: 'tmux_started', ok: true, created: true }, { type: 'gate_done', outcome: 'ready', reason: 'ready' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'end_exiting_cli', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a'],
    },
    {
      // Issue 31 item 14: Gemini's process hung after "restarting to apply the trust changes"; taking its pane over
      // as the relaunch only saw that screen again and failed the message. Its process is ended first, never reused.
      name: 'CLI ending during start-up whose process would not end: never taken over as the relaunch, the messages fail',
      events: [input('a'), ...BOOT_NEW.slice(0, 4), { type: 'gate_done', outcome: 'missing', reason: 'exited' }, { type: 'session_checked', session: 'alive' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'checking_session', 'failed'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'end_exiting_cli', 'report:input_failed:a', 'report:error'],
    },
    {
      name: 'CLI exits during start-up twice: the messages fail',
      events: [input('a'), ...BOOT_NEW.slice(0, 4), { type: 'gate_done', outcome: 'missing', reason: 'exited' }, { type: 'session_checked', session: 'dead' }, { type: 'session_prepared', ok: true }, { type: 'tmux_started', ok: true, created: true }, { type: 'gate_done', outcome: 'missing', reason: 'exited' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'failed'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'end_exiting_cli', 'prepare:new', 'start_tmux', 'run_gate', 'report:input_failed:a', 'report:error'],
    },
    {
      name: 'gate timeout fails, and the next message tries again',
      events: [input('a'), ...BOOT_NEW.slice(0, 4), { type: 'gate_done', outcome: 'timeout', reason: 'slow' }, input('b')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'failed', 'checking_tmux'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'report:input_failed:a', 'report:error', 'check_tmux'],
    },
    {
      name: 'take-over after a daemon restart attaches to the live pane and runs the gate',
      mode: 'attach',
      events: [{ type: 'take_over' }, { type: 'tmux_checked', ok: true }, { type: 'session_checked', session: 'alive' }, { type: 'tmux_started', ok: true, created: false }, { type: 'gate_done', outcome: 'ready', reason: 'ready' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_tmux', 'waiting_selection', 'running'],
      effects: ['check_tmux', 'check_session', 'attach_tmux', 'run_gate'],
    },
    {
      name: 'take-over with no live pane waits for a message, which resumes',
      mode: 'attach',
      events: [{ type: 'take_over' }, { type: 'tmux_checked', ok: true }, { type: 'session_checked', session: 'missing' }, input('a'), { type: 'tmux_checked', ok: true }, { type: 'session_checked', session: 'missing' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'idle', 'checking_tmux', 'checking_session', 'starting_session'],
      effects: ['check_tmux', 'check_session', 'check_tmux', 'check_session', 'prepare:resume'],
    },
    {
      name: 'process lost while idle: the next message restarts with resume',
      events: [input('a'), ...BOOT_NEW, sent('a'), { type: 'process_lost', reason: 'pane dead' }, input('b'), { type: 'tmux_checked', ok: true }, { type: 'session_checked', session: 'dead' }],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running', 'idle', 'checking_tmux', 'checking_session', 'starting_session'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'check_tmux', 'check_session', 'prepare:resume'],
    },
    {
      name: 'lost at send time: recovered once, the same message is delivered after the restart',
      events: [input('a'), ...BOOT_NEW, sent('a', 'lost'), ...BOOT_NEW.slice(0, 1), { type: 'session_checked', session: 'missing' }, ...BOOT_NEW.slice(2), sent('a')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'check_tmux', 'check_session', 'prepare:resume', 'start_tmux', 'run_gate', 'deliver:a'],
    },
    {
      name: 'lost twice for the same message: it fails instead of looping',
      events: [input('a'), ...BOOT_NEW, sent('a', 'lost'), ...BOOT_NEW, sent('a', 'lost')],
      phases: ['idle', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection', 'running', 'sending', 'running'],
      effects: ['check_tmux', 'check_session', 'prepare:new', 'start_tmux', 'run_gate', 'deliver:a', 'check_tmux', 'check_session', 'prepare:resume', 'start_tmux', 'run_gate', 'deliver:a', 'report:input_failed:a'],
    },
    {
      name: 'after close, messages fail at once',
      events: [{ type: 'stop' }, input('a')],
      phases: ['idle', 'stopped'],
      effects: ['report:input_failed:a'],
    },
    {
      name: 'stale results are ignored',
      events: [sent('zzz'), { type: 'gate_done', outcome: 'ready', reason: 'x' }, { type: 'tmux_started', ok: true, created: true }],
      phases: ['idle'],
      effects: [],
    },
  ];
  it.each(cases)('$name', ({ events, mode, typeAhead, phases, effects }) => {
    const r = run(events, { mode, typeAhead });
    expect(r.phases).toEqual(phases);
    expect(summary(r.effects)).toEqual(effects);
  });

  it('every phase change is logged with a reason', () => {
    const r = run([input('t1'), ...BOOT_NEW]);
    const logs = r.effects.filter((e) => e.type === 'log');
    expect(logs).toHaveLength(7);
    for (const l of logs) expect(l.type === 'log' && l.reason.length > 0).toBe(true);
  });
});

describe('a waiting message hurried from its card (issue 30 item 4)', () => {
  // Running, the CLI working on t1, with t2 (and t3) waiting in the queue.
  const BUSY: InputEvent[] = [input('t1'), ...BOOT_NEW, sent('t1'), { type: 'cli_busy', busy: true }, input('t2'), input('t3')];
  const hurry = (turnId: string, how: 'steer' | 'interrupt'): InputEvent => ({ type: 'hurry', turnId, how });
  function go(events: InputEvent[], steers: boolean) {
    let state = initialInput('new');
    const effects: InputEffect[] = [];
    for (const e of events) {
      const step = inputStep(state, e, { typeAheadWhileBusy: false, steerWhileBusy: steers });
      state = step.state;
      effects.push(...step.effects);
    }
    const all = summary(effects);
    const hurried = effects.flatMap((e) => (e.type === 'report' && e.msg.type === 'hurry_done' ? [`${e.msg.turnId}:${e.msg.outcome}`] : []));
    return { state, effects: all.slice(all.indexOf('deliver:t1') + 1), hurried };
  }
  const idle: InputEvent = { type: 'cli_busy', busy: false };
  const interrupted: InputEvent = { type: 'interrupt_done' };
  it.each([
    {
      name: 'steer types it into the working CLI now, ahead of the message before it; the other waits for the turn end',
      events: [...BUSY, hurry('t3', 'steer'), sent('t3'), idle, sent('t2')], steers: true,
      effects: ['deliver:t3', 'report:hurry_done:t3', 'deliver:t2'], hurried: ['t3:steered'], queue: [],
    },
    {
      name: 'steer on a CLI that does not take input while working: it keeps its place',
      events: [...BUSY, hurry('t2', 'steer')], steers: false,
      effects: ['report:hurry_done:t2'], hurried: ['t2:waits'], queue: ['t2', 't3'],
    },
    {
      name: 'one steered message at a time: a second steer waits until the first is taken',
      events: [...BUSY, hurry('t2', 'steer'), sent('t2'), hurry('t3', 'steer')], steers: true,
      effects: ['deliver:t2', 'report:hurry_done:t2', 'report:hurry_done:t3'], hurried: ['t2:steered', 't3:waits'], queue: ['t3'],
    },
    {
      name: 'interrupt: the key first, nothing typed until the CLI stopped and its box was cleared, then the message alone',
      events: [...BUSY, hurry('t3', 'interrupt'), idle, interrupted, sent('t3'), idle, sent('t2')], steers: true,
      effects: ['interrupt', 'report:hurry_done:t3', 'deliver:t3', 'deliver:t2'], hurried: ['t3:interrupted'], queue: [],
    },
    {
      name: 'interrupt_done before the CLI went idle: the message still waits for idle (never typed into a working turn)',
      events: [...BUSY, hurry('t2', 'interrupt'), interrupted, idle], steers: false,
      effects: ['interrupt', 'report:hurry_done:t2', 'deliver:t2'], hurried: ['t2:interrupted'], queue: ['t3'],
    },
    {
      name: 'a second interrupt tap while one is under way: no second key',
      events: [...BUSY, hurry('t2', 'interrupt'), hurry('t2', 'interrupt')], steers: true,
      effects: ['interrupt', 'report:hurry_done:t2', 'report:hurry_done:t2'], hurried: ['t2:interrupted', 't2:interrupted'], queue: ['t2', 't3'],
    },
    {
      name: 'a tap on a message that already left the queue (the turn ended meanwhile) does nothing twice',
      events: [...BUSY, idle, hurry('t2', 'interrupt'), hurry('t2', 'steer')], steers: true,
      effects: ['deliver:t2', 'report:hurry_done:t2', 'report:hurry_done:t2'], hurried: ['t2:not_queued', 't2:not_queued'], queue: ['t3'],
    },
    {
      name: 'a tap while the message before it is still being typed: it keeps its place (nothing to interrupt yet)',
      events: [input('t1'), ...BOOT_NEW, input('t2'), hurry('t2', 'interrupt')], steers: true,
      effects: ['report:hurry_done:t2'], hurried: ['t2:waits'], queue: ['t2'],
    },
  ])('$name', ({ events, steers, effects, hurried, queue }) => {
    const got = go(events, steers);
    expect(got.effects).toEqual(effects);
    expect(got.hurried).toEqual(hurried);
    expect(got.state.queue.map((m) => m.turnId)).toEqual(queue);
  });

  it('a stop during an interrupt forgets it; the next session starts clean', () => {
    const { state } = go([...BUSY, hurry('t2', 'interrupt'), { type: 'stop' } as InputEvent], true);
    expect(state.interrupting).toBe(false);
    expect(state.queue).toEqual([]);
  });
});
