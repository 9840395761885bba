// Typed answers to a prompt (issue 16): which options take text, and the keys that type it literally (pure).
import { describe, expect, it } from 'vitest';
import { buildSelection } from '../../src/worker/cli/screen.js';
import { promptStep, typedAnswerKeys, SELECTION_TIMING } from '../../src/worker/lifecycle/selection.js';
import type { KeyStep, SelectionState } from '../../src/worker/cli/types.js';

describe('options that take a typed answer', () => {
  const rows: Array<{ options: string[]; want: number | undefined }> = [
    { options: ['1. Red', '2. Blue', '3. Type something.'], want: 2 },
    { options: ['Red', 'Other'], want: 1 },
    { options: ['1. Yes', '2. No, and tell Claude what to do differently (esc)'], want: 1 },
    { options: ['1. Yes', '2. Yes, and always allow', '3. No'], want: undefined },
    // "Another" or "Others'" are not the free-text row.
    { options: ['1. Another folder', '2. Keep'], want: undefined },
  ];
  for (const r of rows) it(`${r.options.join(' / ')} → ${String(r.want)}`, () => expect(buildSelection('Q', r.options, 0, 'menu').textOption).toBe(r.want));
});

describe('typedAnswerKeys', () => {
  const sel = (defaultIndex: number): SelectionState => buildSelection('Which colour?', ['1. Red', '2. Blue', '3. Type something.'], defaultIndex, 'menu');
  const hostile = '$(touch x) C-c "q" 中文 🎉';

  it('moves onto the typed option, types the text literally as one step, then Enter', () => {
    expect(typedAnswerKeys(sel(0), 2, hostile)).toEqual<KeyStep[]>([{ key: 'down' }, { key: 'down' }, { text: hostile }, { key: 'enter' }]);
    expect(typedAnswerKeys(sel(2), 2, hostile)).toEqual<KeyStep[]>([{ text: hostile }, { key: 'enter' }]);
  });

  it('a line break cannot submit early: the answer is typed on one line; control characters are shown, not sent', () => {
    expect(typedAnswerKeys(sel(2), 2, 'first\nsecond\r\nthird\x1b[A')).toEqual<KeyStep[]>([{ text: 'first second third\u241b[A' }, { key: 'enter' }]);
  });
});

describe('promptStep with a typed answer', () => {
  const sel = buildSelection('Which colour?', ['1. Red', '2. Blue', '3. Type something.'], 0, 'menu');
  const shown = promptStep({}, { type: 'screen', at: 0, screen: sel }, () => []).state;

  it('types the answer after the dialog settled, once (a second try could double the text)', () => {
    const step = promptStep(shown, { type: 'choice', at: 10, promptId: sel.id, optionIndex: 2, text: 'green' }, () => [{ key: 'enter' }]);
    expect(step.effects).toEqual([{ type: 'send_keys', keys: [{ key: 'down' }, { key: 'down' }, { text: 'green' }, { key: 'enter' }], notBefore: SELECTION_TIMING.settleMs }]);
    const later = promptStep(step.state, { type: 'screen', at: 10 + SELECTION_TIMING.settleMs + SELECTION_TIMING.goneMs + 1, screen: sel }, () => [{ key: 'enter' }]);
    expect(later.effects.some((e) => e.type === 'send_keys')).toBe(false);
  });

  it('text for an option that takes none is refused', () => {
    const step = promptStep(shown, { type: 'choice', at: 10, promptId: sel.id, optionIndex: 0, text: 'green' }, () => []);
    expect(step.effects).toEqual([{ type: 'ignored_choice', reason: 'that option takes no typed answer' }]);
  });
});
