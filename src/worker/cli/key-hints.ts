// Pure: reads the key hints a waiting screen shows ("Enter to …", "Esc to …", "(y/n)", "Press any key", a pointer
// menu) and turns them into a selection whose options carry their own keys.
import type { KeyName } from '../../shared/keys.js';
import { arrowsThenEnter, buildSelection, parseMenu } from './screen.js';
import type { KeyStep, SelectionKind, SelectionState } from './types.js';

export const KEY_HINT_LIMITS = {
  /**
   * A screen waiting for a key shows its hint at the bottom (a dialog's footer, a prompt's last line): hints further up
   * are history. Claude's auto-mode dialog puts it on its last line; a menu's hint sits at most a few lines under it.
   */
  bottomLines: 6,
  /** How far above the hint (or menu) a question or heading is looked for, as a title. */
  titleLines: 20,
} as const;

/** Key words as screens spell them → the key to press. Anything else (a Ctrl chord we cannot press) is not a hint. */
const KEY_WORDS: Readonly<Record<string, KeyName>> = {
  enter: 'enter', return: 'enter', esc: 'esc', escape: 'esc', tab: 'tab', 'shift+tab': 'shift_tab',
  'ctrl+c': 'ctrl_c', 'ctrl+d': 'ctrl_d',
};
/** One hint: `Enter to stay in auto mode`, `Press Enter to continue`, `y to accept`. Segments are split on ` · ` and `|`. */
const HINT = /^(?:press\s+)?(shift\+tab|enter|return|esc|escape|tab|ctrl\+[cd]|space|[a-z0-9])\s+to\s+(\S.*)$/i;
/** Actions that belong to a working screen's footer, not to a question: "esc to interrupt" is Claude's and Codex's spinner. */
const WORKING_ACTION = /^interrupt\b/i;
const ANY_KEY = /\bpress any key\b/i;
/** A readline-style yes/no question: the answer is a letter and Enter. */
const YES_NO = /[([]\s*(y(?:es)?)\s*\/\s*(n(?:o)?)\s*[)\]]\s*:?\s*$/i;
/** A highlighted numbered option: a pointer glyph, then `1.` or `1)`. */
const POINTER_MENU = /^(\s*[❯›>●▶→*]\s*)\d+[.)]\s/;

/** A selection option together with the keys that choose it. */
interface KeyedOption {
  label: string;
  keys: KeyStep[];
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function stepFor(word: string): KeyStep {
  const key = KEY_WORDS[word.toLowerCase()];
  if (key) return { key };
  return { text: word.toLowerCase() === 'space' ? ' ' : word.toLowerCase() };
}

/** The hints on one line (`Enter to stay · Esc to cancel`), in screen order; [] when the line is not a hint line. */
export function hintsOnLine(line: string): KeyedOption[] {
  const out: KeyedOption[] = [];
  for (const segment of line.trim().split(/\s+·\s+|\s+\|\s+/)) {
    const m = HINT.exec(segment.trim());
    if (!m) continue;
    const action = m[2]!.replace(/[.\s]+$/, '');
    if (WORKING_ACTION.test(action)) return [];
    const word = m[1]!;
    const keyName = KEY_WORDS[word.toLowerCase()];
    const shown = keyName === 'shift_tab' ? 'Shift+Tab' : keyName ? capitalise(word.toLowerCase()) : word;
    out.push({ label: `${capitalise(action)} (${shown})`, keys: [stepFor(word)] });
  }
  return out;
}

export interface KeyWaitRule {
  /** A known dialog's name (`claude.auto-mode-end`); absent for a screen nobody described. */
  dialog?: string;
  /** The dialog's heading; its matched text becomes the title. */
  match?: RegExp;
  kind: SelectionKind;
}

/** The title: the rule's heading, else the nearest question above `end`, else the nearest text line above it. */
function titleOf(lines: readonly string[], end: number, rule: KeyWaitRule): string | null {
  const from = Math.max(0, end - KEY_HINT_LIMITS.titleLines);
  if (rule.match) {
    for (let i = end; i >= from; i--) {
      const hit = rule.match.exec(lines[i]!);
      if (hit) return hit[0].trim();
    }
    return null;
  }
  for (let i = end - 1; i >= from; i--) if (/\?\s*$/.test(lines[i]!)) return lines[i]!.trim();
  for (let i = end - 1; i >= from; i--) {
    const t = lines[i]!.trim();
    if (t !== '' && !/^[─╌━═]{3,}/.test(t)) return t;
  }
  return '';
}

function keyedSelection(title: string, options: KeyedOption[], defaultIndex: number, rule: KeyWaitRule): SelectionState {
  const sel = buildSelection(title, options.map((o) => o.label), defaultIndex, rule.kind, rule.dialog);
  sel.optionKeys = options.map((o) => o.keys);
  return sel;
}

/**
 * The question a screen waits on, read from its bottom lines: a pointer menu (options chosen with arrows and Enter,
 * plus any non-Enter hint under it such as "Esc to cancel"), key hints, a yes/no question, or "press any key". null when
 * the bottom of the screen shows none of these, or the rule's heading is not on screen.
 */
export function keyWaitSelection(lines: readonly string[], rule: KeyWaitRule = { kind: 'menu' }): SelectionState | null {
  // A known dialog is read only under its heading: checked first, as most screens are not that dialog.
  const heading = rule.match;
  if (heading && !lines.some((l) => heading.test(l))) return null;
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  if (last < 0) return null;
  const from = Math.max(0, last - KEY_HINT_LIMITS.bottomLines + 1);
  let hintLine = -1;
  let hints: KeyedOption[] = [];
  for (let i = last; i >= from && hintLine < 0; i--) {
    const found = hintsOnLine(lines[i]!);
    if (found.length) [hintLine, hints] = [i, found];
  }
  const menu = parseMenu(lines, POINTER_MENU, Math.max(0, last - KEY_HINT_LIMITS.titleLines));
  if (menu && menu.options.length >= 2 && menu.last >= from - 1 && (hintLine < 0 || menu.last < hintLine)) {
    const title = titleOf(lines, menu.first, rule);
    if (title === null) return null;
    const extra = hints.filter((h) => !h.keys.some((k) => 'key' in k && k.key === 'enter'));
    const options = [...menu.options.map((label, i) => ({ label, keys: arrowsThenEnter(menu.defaultIndex, i) })), ...extra];
    return keyedSelection(title, options, menu.defaultIndex, rule);
  }
  if (hintLine >= 0) {
    const title = titleOf(lines, hintLine, rule);
    return title === null ? null : keyedSelection(title, hints, 0, rule);
  }
  const tail = lines[last]!;
  const yn = YES_NO.exec(tail);
  if (yn) {
    // The question is the line that asks it.
    const title = rule.match ? titleOf(lines, last, rule) : tail.trim();
    if (title === null) return null;
    return keyedSelection(title, [{ label: 'Yes', keys: [{ text: yn[1]!.charAt(0) }, { key: 'enter' }] }, { label: 'No', keys: [{ text: yn[2]!.charAt(0) }, { key: 'enter' }] }], 0, rule);
  }
  for (let i = last; i >= from; i--) {
    if (!ANY_KEY.test(lines[i]!)) continue;
    const title = titleOf(lines, i + 1, rule);
    return title === null ? null : keyedSelection(title, [{ label: 'Continue (Enter)', keys: [{ key: 'enter' }] }], 0, rule);
  }
  return null;
}

/** The keys that pick option `index`: the option's own keys when the screen named them, else the adapter's. */
export function optionKeys(sel: SelectionState, index: number, choiceKeys: (s: SelectionState, i: number) => KeyStep[]): KeyStep[] {
  return sel.optionKeys?.[index] ?? choiceKeys(sel, index);
}
