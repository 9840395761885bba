// Runtime prompts (tool permission, menus): surface once, answer after the dialog settled, check it went away (pure).
import type { KeyStep, ScreenState, SelectionState } from '../cli/types.js';
import { READINESS_TIMING } from './readiness.js';
import { optionKeys } from '../cli/key-hints.js';
import { literalChatText } from '../../shared/chat-text.js';

export const SELECTION_TIMING = {
  /** Same measurement as the startup dialogs: keys at 0 ms were ignored, at ≥200 ms accepted. */
  settleMs: READINESS_TIMING.dialogSettleMs,
  /** After answering, the prompt should be gone by then; otherwise the keys are sent once more. */
  goneMs: READINESS_TIMING.dialogGoneMs,
  maxAttempts: 2,
} as const;

export interface PromptState {
  current?: SelectionState;
  seenAt?: number;
  answer?: { index: number; sentAt: number; attempts: number };
}

export type PromptEvent =
  | { type: 'screen'; at: number; screen: ScreenState }
  | { type: 'choice'; at: number; promptId: string; optionIndex: number; text?: string };

export type PromptEffect =
  | { type: 'surface'; selection: SelectionState }
  | { type: 'send_keys'; keys: KeyStep[]; notBefore: number }
  | { type: 'resolved'; selection: SelectionState }
  | { type: 'stuck'; selection: SelectionState }
  | { type: 'ignored_choice'; reason: string };

export type PromptStep = { state: PromptState; effects: PromptEffect[] };

export function promptStep(state: PromptState, ev: PromptEvent, choiceKeys: (s: SelectionState, i: number) => KeyStep[]): PromptStep {
  if (ev.type === 'choice') {
    const sel = state.current;
    if (!sel || sel.id !== ev.promptId) return { state, effects: [{ type: 'ignored_choice', reason: 'that prompt is no longer on screen' }] };
    if (ev.optionIndex >= sel.options.length) return { state, effects: [{ type: 'ignored_choice', reason: 'no such option' }] };
    if (state.answer) return { state, effects: [{ type: 'ignored_choice', reason: 'the prompt was already answered' }] };
    if (ev.text !== undefined && sel.textOption !== ev.optionIndex) return { state, effects: [{ type: 'ignored_choice', reason: 'that option takes no typed answer' }] };
    const notBefore = Math.max(ev.at, (state.seenAt ?? ev.at) + SELECTION_TIMING.settleMs);
    // A typed answer is never typed twice: a second try could leave the text doubled in the box.
    const attempts = ev.text !== undefined ? SELECTION_TIMING.maxAttempts : 1;
    const keys = ev.text !== undefined ? typedAnswerKeys(sel, ev.optionIndex, ev.text) : optionKeys(sel, ev.optionIndex, choiceKeys);
    return {
      state: { ...state, answer: { index: ev.optionIndex, sentAt: notBefore, attempts } },
      effects: [{ type: 'send_keys', keys, notBefore }],
    };
  }
  const screen = ev.screen;
  if (screen.kind !== 'selection') {
    if (!state.current) return { state, effects: [] };
    return { state: {}, effects: [{ type: 'resolved', selection: state.current }] };
  }
  if (state.current?.id !== screen.id) {
    const effects: PromptEffect[] = state.current ? [{ type: 'resolved', selection: state.current }] : [];
    effects.push({ type: 'surface', selection: screen });
    return { state: { current: screen, seenAt: ev.at }, effects };
  }
  const a = state.answer;
  if (!a || ev.at - a.sentAt < SELECTION_TIMING.goneMs) return { state, effects: [] };
  if (a.attempts < SELECTION_TIMING.maxAttempts) {
    return {
      state: { ...state, answer: { ...a, sentAt: ev.at, attempts: a.attempts + 1 } },
      effects: [{ type: 'send_keys', keys: optionKeys(screen, a.index, choiceKeys), notBefore: ev.at }],
    };
  }
  // Still there after two answers: report it and let a person try again.
  return { state: { current: screen, seenAt: ev.at }, effects: [{ type: 'stuck', selection: screen }, { type: 'surface', selection: screen }] };
}

/**
 * A typed answer: the cursor moves onto the option that takes text (arrows, no Enter: in Claude's menus the
 * "Type something" row becomes the text box when focused), the text is typed literally on one line, then Enter.
 */
export function typedAnswerKeys(sel: SelectionState, optionIndex: number, text: string): KeyStep[] {
  const steps: KeyStep[] = [];
  const key = optionIndex > sel.defaultIndex ? 'down' : 'up';
  for (let i = 0; i < Math.abs(optionIndex - sel.defaultIndex); i++) steps.push({ key });
  const line = literalChatText(text).text.replace(/\s*\n\s*/g, ' ').trim();
  if (line) steps.push({ text: line });
  steps.push({ key: 'enter' });
  return steps;
}
