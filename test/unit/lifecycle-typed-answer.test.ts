// Typed answers to a prompt (issue 16): which options take text, and the keys that type it literally (pure).
import { describe, expect, it } from 'vitest';
import { buildSelection } from '../../src/worker/cli/screen.js';
import { promptStep, typedAnswerKeys, SELECTION_TIMING } from '../../src/worker/lifecycle/selection.js';
import type { KeyStep, SelectionState } from '../../src/worker/cli/types.js';

describe('options that take a typed answer', () => {
  const rows: Array<{ options: string[]; want: number | undefined }> = [
    { options: ['1. Red', '2. Blue', '3. Type something.'], want: 2 },
    { options: ['Red', 'Type something'], want: 1 },
    // Not measured yet, and Codex's approval menu takes letters as shortcuts ("y" approves): no text box.
    { options: ['1. Yes, proceed (y)', '3. No, and tell Codex what to do differently (esc)'], want: undefined },
    { options: ['Red', 'Other'], want: undefined },
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

describe("Claude's AskUserQuestion screen (claude-26)", () => {
  it('is a menu titled by the question, its options without descriptions, "Type something." taking typed text', async () => {
    const { readFileSync } = await import('node:fs');
    const { classifyClaude } = await import('../../src/worker/cli/claude-code.js');
    const screen = readFileSync(new URL('../fixtures/screens/claude-26-ask-user-question.txt', import.meta.url), 'utf8');
    const s = classifyClaude(screen);
    expect(s).toMatchObject({ kind: 'selection', title: 'Which colour should the button be?', selectionKind: 'menu', defaultIndex: 0, textOption: 2 });
    expect(s.kind === 'selection' ? s.options.map((o) => o.label) : []).toEqual(['1. Red', '2. Blue', '3. Type something.']);
  });
});
