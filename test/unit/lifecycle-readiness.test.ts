// The readiness gate, table-driven: screens and choices in, phases and effects out.
import { describe, expect, it } from 'vitest';
import { customAdapter } from '../../src/worker/cli/custom.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import type { ScreenState, SelectionState } from '../../src/worker/cli/types.js';
import { gateStep, gateTimingFor, initialGate, READINESS_TIMING, type GateContext, type GateEffect, type GateEvent, type GateState } from '../../src/worker/lifecycle/readiness.js';

const trust: SelectionState = {
  kind: 'selection', title: 'Is this a project you trust?', options: [{ label: 'No, exit' }, { label: 'Yes, I trust this folder' }],
  defaultIndex: 0, selectionKind: 'startup', id: 'sel-trust', dialog: 'x.trust',
};
const update: SelectionState = {
  kind: 'selection', title: 'Update available', options: [{ label: 'Update now' }, { label: 'Skip' }],
  defaultIndex: 0, selectionKind: 'startup', id: 'sel-update', dialog: 'x.update',
};
const ctx: GateContext = {
  startupDefaults: [{ dialog: 'x.trust', option: /^Yes, I trust/, reason: 'configured project' }],
  choiceKeys: (sel, i) => [...Array.from({ length: Math.abs(i - sel.defaultIndex) }, () => ({ key: 'down' as const })), { key: 'enter' as const }],
  timing: { timeoutMs: 10_000, dialogSettleMs: 500, dialogGoneMs: 1_000, maxAnswerAttempts: 2 },
};
const ready: ScreenState = { kind: 'ready' };
const busy: ScreenState = { kind: 'unknown' };
const scr = (at: number, screen: ScreenState): GateEvent => ({ type: 'screen', at, screen });

function run(events: GateEvent[]): { state: GateState; phases: string[]; effects: GateEffect[] } {
  let state = initialGate(0);
  const phases: string[] = [state.phase];
  const effects: GateEffect[] = [];
  for (const e of events) {
    const step = gateStep(state, e, ctx);
    state = step.state;
    phases.push(state.phase);
    effects.push(...step.effects);
  }
  return { state, phases, effects };
}

const types = (effects: GateEffect[]) => effects.filter((e) => e.type !== 'log').map((e) => e.type);

describe('readiness gate', () => {
  const cases: { name: string; events: GateEvent[]; phase: string; effects: string[] }[] = [
    { name: 'a ready screen that holds for the settle time opens the gate', events: [{ type: 'started', at: 0 }, scr(300, ready), scr(1_500, ready), scr(2_800, ready)], phase: 'ready', effects: ['done'] },
    { name: 'a ready screen is not trusted at once', events: [{ type: 'started', at: 0 }, scr(300, ready), scr(2_000, ready)], phase: 'polling', effects: [] },
    {
      // Issue 12: Gemini and Codex draw the prompt, then their trust dialog 0.3–1 s later.
      name: 'a trust dialog right after the first prompt is answered before the gate opens',
      events: [{ type: 'started', at: 0 }, scr(300, ready), scr(600, trust), scr(1_200, trust), scr(1_400, busy), scr(1_600, ready), scr(4_200, ready)],
      phase: 'ready', effects: ['send_keys', 'done'],
    },
    { name: 'a redraw in between restarts the settle time', events: [{ type: 'started', at: 0 }, scr(300, ready), scr(1_000, busy), scr(1_300, ready), scr(3_700, ready)], phase: 'polling', effects: [] },
    { name: 'still drawing keeps polling', events: [{ type: 'started', at: 0 }, scr(300, busy), scr(600, busy)], phase: 'polling', effects: [] },
    { name: 'process gone', events: [{ type: 'started', at: 0 }, { type: 'gone', at: 200, reason: 'missing' }], phase: 'missing', effects: ['done'] },
    { name: 'CLI exited on screen', events: [{ type: 'started', at: 0 }, scr(200, { kind: 'exited' })], phase: 'missing', effects: ['done'] },
    { name: 'timeout counts polling time', events: [{ type: 'started', at: 0 }, scr(5_000, busy), scr(10_001, busy)], phase: 'timeout', effects: ['done'] },
    { name: 'limited still opens the gate', events: [{ type: 'started', at: 0 }, scr(100, { kind: 'limited' }), scr(2_700, { kind: 'limited' })], phase: 'ready', effects: ['done'] },
    {
      name: 'dialog with a safe default: waits to settle, then answers',
      events: [{ type: 'started', at: 0 }, scr(100, trust), scr(350, trust), scr(700, trust)],
      phase: 'selection_resolved', effects: ['send_keys'],
    },
    {
      name: 'answered dialog goes away, then ready',
      events: [{ type: 'started', at: 0 }, scr(100, trust), scr(700, trust), scr(900, busy), scr(1_100, ready), scr(3_700, ready)],
      phase: 'ready', effects: ['send_keys', 'done'],
    },
    {
      name: 'answered dialog stays: keys sent once more, then a person is asked',
      events: [{ type: 'started', at: 0 }, scr(100, trust), scr(700, trust), scr(1_800, trust), scr(2_900, trust)],
      phase: 'waiting_selection', effects: ['send_keys', 'send_keys', 'surface_selection'],
    },
    {
      name: 'dialog without a default is surfaced',
      events: [{ type: 'started', at: 0 }, scr(100, update)],
      phase: 'waiting_selection', effects: ['surface_selection'],
    },
    {
      name: 'time waiting for a person does not count against the timeout',
      events: [{ type: 'started', at: 0 }, scr(100, update), scr(60_000, update), { type: 'choice', at: 90_000, promptId: 'sel-update', optionIndex: 1 }, scr(90_300, busy), scr(91_000, ready), scr(93_600, ready)],
      phase: 'ready', effects: ['surface_selection', 'send_keys', 'done'],
    },
    {
      name: 'a choice for another prompt is ignored',
      events: [{ type: 'started', at: 0 }, scr(100, update), { type: 'choice', at: 2_000, promptId: 'sel-other', optionIndex: 1 }],
      phase: 'waiting_selection', effects: ['surface_selection'],
    },
    {
      name: 'a dialog replaced by another while waiting is surfaced again',
      events: [{ type: 'started', at: 0 }, scr(100, update), scr(400, { ...update, id: 'sel-update2', title: 'Other' })],
      phase: 'waiting_selection', effects: ['surface_selection', 'surface_selection'],
    },
  ];
  it.each(cases)('$name', ({ events, phase, effects }) => {
    const r = run(events);
    expect(r.state.phase).toBe(phase);
    expect(types(r.effects)).toEqual(effects);
  });

  it('a person\'s choice is sent only after the dialog has settled, with the adapter\'s keys', () => {
    const r = run([{ type: 'started', at: 0 }, scr(100, update), { type: 'choice', at: 200, promptId: 'sel-update', optionIndex: 1 }]);
    const send = r.effects.find((e) => e.type === 'send_keys');
    expect(send).toEqual({ type: 'send_keys', keys: [{ key: 'down' }, { key: 'enter' }], notBefore: 600 });
  });

  it('logs every transition with a reason, including the default answer and why it is safe', () => {
    const r = run([{ type: 'started', at: 0 }, scr(100, trust), scr(700, trust), scr(900, ready), scr(3_500, ready)]);
    const logs = r.effects.filter((e): e is Extract<GateEffect, { type: 'log' }> => e.type === 'log');
    expect(logs.map((l) => `${l.from}>${l.to}`)).toEqual(['starting>polling', 'polling>selection_resolved', 'selection_resolved>ready']);
    expect(logs[1]!.reason).toContain('Yes, I trust this folder');
    expect(logs[1]!.reason).toContain('configured project');
  });

  it('ignores everything once done', () => {
    const r = run([{ type: 'started', at: 0 }, scr(100, ready), scr(2_700, ready), scr(2_800, trust)]);
    expect(r.state.phase).toBe('ready');
    expect(types(r.effects)).toEqual(['done']);
  });
});

describe('gate timing by how long the CLI has run (issue 14: a message after a restart)', () => {
  const cases: { name: string; runningForMs: number | null; settle: number }[] = [
    { name: 'just launched by this worker', runningForMs: null, settle: READINESS_TIMING.readySettleMs },
    { name: 're-attached seconds after its launch: late dialogs may still come', runningForMs: 5_000, settle: READINESS_TIMING.readySettleMs },
    { name: 're-attached just past start-up', runningForMs: READINESS_TIMING.startupOverAfterMs, settle: READINESS_TIMING.pollMs },
    { name: 're-attached after hours', runningForMs: 6 * 3_600_000, settle: READINESS_TIMING.pollMs },
  ];
  it.each(cases)('$name', ({ runningForMs, settle }) => {
    expect({ ...READINESS_TIMING, ...gateTimingFor(runningForMs, true) }.readySettleMs).toBe(settle);
  });

  it('a CLI past start-up still needs its prompt twice, one poll apart', () => {
    const ctx: GateContext = { startupDefaults: [], choiceKeys: () => [], timing: gateTimingFor(60_000, true) };
    let state = gateStep(initialGate(0), { type: 'started', at: 0 }, ctx).state;
    state = gateStep(state, { type: 'screen', at: 10, screen: { kind: 'ready' } }, ctx).state;
    expect(state.phase).toBe('polling');
    state = gateStep(state, { type: 'screen', at: 10 + READINESS_TIMING.pollMs, screen: { kind: 'ready' } }, ctx).state;
    expect(state.phase).toBe('ready');
  });
});

describe('the settle applies only where a late start-up dialog can appear (issue 31: shell cold start +2 s)', () => {
  const custom = customAdapter({ command: 'my-repl', args: [], readyPattern: '^> $' });
  if (!custom.ok) throw new Error(custom.message);
  const adapters = [
    ...(['claude-code', 'codex', 'gemini', 'shell'] as const).map((id) => {
      const r = adapterFor(id);
      if (!r.ok) throw new Error(r.message);
      return r.adapter;
    }),
    custom.adapter,
  ];
  const expected: Record<string, { settleAtLaunch: number; firstPromptOpensGate: boolean }> = {
    'claude-code': { settleAtLaunch: READINESS_TIMING.readySettleMs, firstPromptOpensGate: false },
    codex: { settleAtLaunch: READINESS_TIMING.readySettleMs, firstPromptOpensGate: false },
    gemini: { settleAtLaunch: READINESS_TIMING.readySettleMs, firstPromptOpensGate: false },
    custom: { settleAtLaunch: READINESS_TIMING.readySettleMs, firstPromptOpensGate: false },
    shell: { settleAtLaunch: 0, firstPromptOpensGate: true },
  };
  it.each(adapters.map((a) => ({ id: a.id, adapter: a })))('$id', ({ id, adapter }) => {
    for (const runningForMs of [null, 5_000]) {
      const timing = gateTimingFor(runningForMs, adapter.lateStartupDialogs);
      expect({ ...READINESS_TIMING, ...timing }.readySettleMs).toBe(expected[id]!.settleAtLaunch);
      // Just launched: the first screen showing the prompt opens the gate at once, or only after the settle.
      const gctx: GateContext = { startupDefaults: adapter.startupDefaults, choiceKeys: adapter.choiceKeys, timing };
      let state = gateStep(initialGate(0), { type: 'started', at: 0 }, gctx).state;
      state = gateStep(state, { type: 'screen', at: 300, screen: { kind: 'ready' } }, gctx).state;
      expect(state.phase === 'ready').toBe(expected[id]!.firstPromptOpensGate);
    }
  });
});
