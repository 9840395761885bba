// Runtime prompts: surfaced once, answered after settling, re-answered once if they stay, then reported.
import { describe, expect, it } from 'vitest';
import type { KeyStep, ScreenState, SelectionState } from '../../src/worker/cli/types.js';
import { promptStep, type PromptEffect, type PromptEvent, type PromptState } from '../../src/worker/lifecycle/selection.js';

const perm: SelectionState = { kind: 'selection', title: 'Do you want to create x?', options: [{ label: '1. Yes' }, { label: '2. No' }], defaultIndex: 0, selectionKind: 'permission', id: 'p1' };
const keys = (s: SelectionState, i: number): KeyStep[] => [{ text: String(i + 1) }];
const scr = (at: number, screen: ScreenState): PromptEvent => ({ type: 'screen', at, screen });

function run(events: PromptEvent[]): { state: PromptState; effects: PromptEffect[] } {
  let state: PromptState = {};
  const effects: PromptEffect[] = [];
  for (const e of events) {
    const s = promptStep(state, e, keys);
    state = s.state;
    effects.push(...s.effects);
  }
  return { state, effects };
}

describe('promptStep', () => {
  const cases: { name: string; events: PromptEvent[]; effects: string[] }[] = [
    { name: 'surfaced once while it stays', events: [scr(0, perm), scr(400, perm), scr(800, perm)], effects: ['surface'] },
    { name: 'answered, then gone', events: [scr(0, perm), { type: 'choice', at: 2_000, promptId: 'p1', optionIndex: 1 }, scr(2_200, { kind: 'busy' })], effects: ['surface', 'send_keys', 'resolved'] },
    { name: 'answer ignored by the CLI: sent once more, then reported', events: [scr(0, perm), { type: 'choice', at: 2_000, promptId: 'p1', optionIndex: 0 }, scr(4_000, perm), scr(6_000, perm)], effects: ['surface', 'send_keys', 'send_keys', 'stuck', 'surface'] },
    { name: 'a choice for a prompt no longer shown', events: [scr(0, perm), scr(100, { kind: 'busy' }), { type: 'choice', at: 2_000, promptId: 'p1', optionIndex: 0 }], effects: ['surface', 'resolved', 'ignored_choice'] },
    { name: 'the same prompt again later is surfaced again', events: [scr(0, perm), scr(100, { kind: 'ready' }), scr(200, perm)], effects: ['surface', 'resolved', 'surface'] },
  ];
  it.each(cases)('$name', ({ events, effects }) => expect(run(events).effects.map((e) => e.type)).toEqual(effects));

  it('a fast choice waits until the prompt has been up for the settle time', () => {
    const r = run([scr(1_000, perm), { type: 'choice', at: 1_100, promptId: 'p1', optionIndex: 1 }]);
    expect(r.effects[1]).toEqual({ type: 'send_keys', keys: [{ text: '2' }], notBefore: 1_500 });
  });
});
