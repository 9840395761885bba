// Pure helpers shared by the screen classifiers: line cleanup, box stripping, menu parsing, stable selection ids.
import type { KeyStep, SelectionKind, SelectionState, StartupDefault } from './types.js';

// CSI/OSC/other escape sequences as written by `capture-pane -e`.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Screen text as lines: ANSI removed, trailing spaces cut, trailing blank lines dropped. */
export function screenLines(text: string): string[] {
  // Only ASCII blanks are trimmed: Claude's empty composer is `❯` + NO-BREAK SPACE, which must survive.
  const lines = stripAnsi(text).split('\n').map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}

/** A full-width horizontal rule at column 0 (the composer frame of Claude and Gemini). */
export function isRule(line: string): boolean {
  return /^─{20,}/.test(line);
}

/** Removes one level of `│ … │` box border, so boxed dialogs parse like plain ones. */
export function unbox(line: string): string {
  const m = /^\s*│(.*?)(?:│\s*)?$/.exec(line);
  if (!m) return line;
  return m[1]!.replace(/\s+$/, '');
}

/** Tmux's remain-on-exit banner: the program in the pane has ended. */
export const PANE_DEAD = /^Pane is dead \(status (\d+)/m;

export function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

/** FNV-1a, twice with different seeds: a short stable id without importing crypto into pure code. */
export function stableHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 2) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

export function selectionId(title: string, options: readonly { label: string }[]): string {
  return `sel-${stableHash([title, ...options.map((o) => o.label)].join('\u0000'))}`;
}

export interface ParsedMenu {
  options: string[];
  defaultIndex: number;
  /** Index in `lines` of the first and last option line. */
  first: number;
  last: number;
}

const NUMBERED = /^\d+\.\s/;

/**
 * Finds a cursor-marked menu: `cursor` matches the highlighted line with group 1 = everything before the
 * label. Options are the neighbouring lines whose text starts at the label's column. In numbered menus
 * only numbered lines count and deeper-indented lines (descriptions, wrapped text) are skipped.
 * Searches from the bottom, so the newest menu wins.
 */
export function parseMenu(lines: readonly string[], cursor: RegExp, from = 0): ParsedMenu | null {
  for (let c = lines.length - 1; c >= from; c--) {
    const m = cursor.exec(lines[c]!);
    if (!m) continue;
    const col = m[1]!.length;
    const label0 = lines[c]!.slice(col).trim();
    const numbered = NUMBERED.test(label0);
    // Numbered menus may separate options by blank lines and descriptions; numbers must run consecutively.
    const numberOf = (text: string): number => Number(/^(\d+)\./.exec(text)?.[1] ?? NaN);
    const accept = (i: number, expect: number): 'option' | 'skip' | 'stop' => {
      const line = lines[i]!;
      if (line.trim() === '') return numbered ? 'skip' : 'stop';
      const ind = indentOf(line);
      const text = line.slice(ind);
      if (ind === col && !numbered) return 'option';
      if (ind === col && numbered && numberOf(text) === expect) return 'option';
      if (numbered && ind > col && !NUMBERED.test(text)) return 'skip';
      return 'stop';
    };
    const n0 = numberOf(label0);
    const above: number[] = [];
    for (let i = c - 1; i >= from; i--) {
      const r = accept(i, n0 - above.length - 1);
      if (r === 'stop') break;
      if (r === 'option') above.unshift(i);
    }
    const below: number[] = [];
    for (let i = c + 1; i < lines.length; i++) {
      const r = accept(i, n0 + below.length + 1);
      if (r === 'stop') break;
      if (r === 'option') below.push(i);
    }
    const rows = [...above, c, ...below];
    return {
      options: rows.map((i) => cleanLabel(i === c ? label0 : lines[i]!.trim())),
      defaultIndex: above.length,
      first: rows[0]!,
      last: rows[rows.length - 1]!,
    };
  }
  return null;
}

/** Drops the "current setting" tick some menus draw before a label. */
function cleanLabel(label: string): string {
  return label.replace(/^✔\s+/, '').trim();
}

/** A known dialog: recognised by a line, classified, given a stable name for safe defaults. */
export interface DialogRule {
  dialog: string;
  /** Matches the dialog's question; the matched text becomes the selection title. */
  match: RegExp;
  kind: SelectionKind;
  /** For dialogs without a cursor menu ("Press Enter to continue"): the options to offer. */
  fixedOptions?: string[];
}

export function buildSelection(title: string, options: string[], defaultIndex: number, selectionKind: SelectionKind, dialog?: string): SelectionState {
  const opts = options.map((label) => ({ label }));
  const sel: SelectionState = { kind: 'selection', title, options: opts, defaultIndex, selectionKind, id: selectionId(title, opts) };
  if (dialog) sel.dialog = dialog;
  const textOption = opts.findIndex((o) => TEXT_OPTION.test(o.label));
  if (textOption >= 0) sel.textOption = textOption;
  return sel;
}

/**
 * Options that take a typed answer, as measured: Claude's AskUserQuestion ends its list with "Type something."
 * (test/fixtures/screens/claude-26-ask-user-question.txt), where the focused row is a text box. Other CLIs' rows
 * ("No, and tell Codex what to do differently", Gemini's "No, suggest changes") are left out on purpose until
 * measured: typed letters in those menus can be shortcuts (Codex's "y" approves).
 */
export const TEXT_OPTION = /^(?:\d+[.)]\s*)?type something\b/i;

/**
 * Recognises a dialog: the menu found by `cursor` (if any), titled and classified by the first rule whose
 * `match` hits a line above the menu (or anywhere, for fixed-option dialogs). An unrecognised menu becomes
 * a `menu` titled by the nearest text line above it.
 */
export function recognizeDialog(lines: readonly string[], cursor: RegExp, rules: readonly DialogRule[], from = 0): SelectionState | null {
  const menu = parseMenu(lines, cursor, from);
  const searchEnd = menu ? menu.first : lines.length;
  for (const rule of rules) {
    for (let i = searchEnd - 1; i >= from; i--) {
      const hit = rule.match.exec(lines[i]!);
      if (!hit) continue;
      const title = hit[0].trim();
      if (menu) return buildSelection(title, menu.options, menu.defaultIndex, rule.kind, rule.dialog);
      if (rule.fixedOptions) return buildSelection(title, rule.fixedOptions, 0, rule.kind, rule.dialog);
    }
  }
  if (!menu || menu.options.length < 2) return null;
  for (let i = menu.first - 1; i >= from; i--) {
    const t = lines[i]!.trim();
    if (t && !/^[─╌╭╰│]/.test(t)) return buildSelection(t, menu.options, menu.defaultIndex, 'menu');
  }
  return buildSelection('', menu.options, menu.defaultIndex, 'menu');
}

/** Arrow keys from the highlighted option to `target`, then Enter. Works in every list-style menu. */
export function arrowsThenEnter(from: number, target: number): KeyStep[] {
  const steps: KeyStep[] = [];
  const key = target > from ? 'down' : 'up';
  for (let i = 0; i < Math.abs(target - from); i++) steps.push({ key });
  steps.push({ key: 'enter' });
  return steps;
}

/** The option a startup default picks in this selection, or null when none applies. */
export function safeDefaultIndex(sel: SelectionState, defaults: readonly StartupDefault[]): { index: number; reason: string } | null {
  if (sel.selectionKind !== 'startup' || !sel.dialog) return null;
  for (const d of defaults) {
    if (d.dialog !== sel.dialog) continue;
    const index = sel.options.findIndex((o) => d.option.test(o.label));
    if (index >= 0) return { index, reason: d.reason };
  }
  return null;
}

/** Finds the last line matching `re` at or after `from`; -1 when none. */
export function lastIndexMatching(lines: readonly string[], re: RegExp, from = 0): number {
  for (let i = lines.length - 1; i >= from; i--) if (re.test(lines[i]!)) return i;
  return -1;
}
