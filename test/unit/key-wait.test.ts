// Screens that wait for a key: the hints read as options with their keys, and an unknown screen asks a person only
// once quiet (issue 31 item 13). Real screens from test/fixtures/screens plus small programs' screens.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyWaitSelection } from '../../src/worker/cli/key-hints.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { screenLines } from '../../src/worker/cli/screen.js';
import type { KeyStep, ScreenState } from '../../src/worker/cli/types.js';
import { KEY_WAIT_TIMING, keyWaitLook } from '../../src/worker/lifecycle/key-wait.js';
import { decideStatus } from '../../src/worker/lifecycle/status.js';

const DIR = join(import.meta.dirname, '../fixtures/screens');
const fixture = (name: string) => readFileSync(join(DIR, name), 'utf8');
const ENTER: KeyStep = { key: 'enter' };

/** A program's screen (what `capture-pane -p` gives): `lines` joined. */
const screen = (...lines: string[]) => `${lines.join('\n')}\n`;

type Case = { name: string; text: string; title?: string; options: string[] | null; keys?: KeyStep[][] };
const CASES: Case[] = [
  {
    name: "Claude's auto-mode dialog, read as an unknown screen",
    text: fixture('claude-27-auto-mode-cant-check.txt'),
    options: ['Stay in auto mode (Enter)', 'Leave for accept edits mode and stop (Shift+Tab)', 'Cancel (Esc)'],
    keys: [[ENTER], [{ key: 'shift_tab' }], [{ key: 'esc' }]],
  },
  {
    name: 'a hint line under a question',
    text: screen('$ ./deploy', 'Something unexpected happened.', 'Overwrite the remote copy?', '', '  Enter to overwrite · Esc to keep it'),
    title: 'Overwrite the remote copy?',
    options: ['Overwrite (Enter)', 'Keep it (Esc)'],
    keys: [[ENTER], [{ key: 'esc' }]],
  },
  {
    name: 'Press Enter to continue',
    text: screen('Update installed.', 'Press Enter to continue'),
    title: 'Update installed.',
    options: ['Continue (Enter)'],
    keys: [[ENTER]],
  },
  {
    name: 'a readline yes/no question: a letter and Enter',
    text: screen('Removing 3 packages.', 'Do you want to continue? [Y/n]'),
    title: 'Do you want to continue? [Y/n]',
    options: ['Yes', 'No'],
    keys: [[{ text: 'Y' }, ENTER], [{ text: 'n' }, ENTER]],
  },
  {
    name: 'press any key',
    text: screen('Build finished with warnings.', 'Press any key to return'),
    options: ['Continue (Enter)'],
    keys: [[ENTER]],
  },
  {
    name: 'numbered options with a pointer: arrows from the pointer, then Enter; the Esc hint is an option too',
    text: screen('Which model?', '  1. small', '> 2. medium', '  3. large', '', 'Enter to select · Esc to cancel'),
    title: 'Which model?',
    options: ['1. small', '2. medium', '3. large', 'Cancel (Esc)'],
    keys: [[{ key: 'up' }, ENTER], [ENTER], [{ key: 'down' }, ENTER], [{ key: 'esc' }]],
  },
  // Not questions.
  { name: "a working CLI's footer (esc to interrupt)", text: screen('✻ Doodling…', '', '  esc to interrupt'), options: null },
  { name: 'output with no key hint', text: screen('compiling 12 files', 'linking', 'done in 3.2s'), options: null },
  { name: 'a hint far up in the history, not at the bottom', text: screen('Press Enter to continue', ...Array.from({ length: 12 }, (_, i) => `log line ${i}`)), options: null },
  { name: 'an empty screen', text: '\n\n', options: null },
];

describe('key hints read as a question', () => {
  it.each(CASES)('$name', ({ text, title, options, keys }) => {
    const sel = keyWaitSelection(screenLines(text));
    if (options === null) return expect(sel).toBeNull();
    expect(sel?.options.map((o) => o.label)).toEqual(options);
    if (title !== undefined) expect(sel?.title).toBe(title);
    if (keys) expect(sel?.optionKeys).toEqual(keys);
  });

  it('no fixture the adapters call ready or busy is read as a question: the adapter decides those', () => {
    for (const f of readdirSync(DIR).filter((n) => /^(claude|codex|gemini)-.*\.txt$/.test(n))) {
      const id = f.startsWith('claude') ? 'claude-code' : (f.split('-')[0] as 'codex' | 'gemini');
      const r = adapterFor(id);
      if (!r.ok) throw new Error(r.message);
      const text = fixture(f);
      const s = r.adapter.classify(text);
      if (s.kind === 'ready' || s.kind === 'busy') expect(keyWaitLook(s, text, 60_000).screen, f).toEqual(s);
    }
  });
});

describe('an unknown screen becomes a question only once quiet', () => {
  const dialog = screen('READY> deploy', 'Something unexpected happened.', '  Enter to carry on · Esc to give up');
  const unknown: ScreenState = { kind: 'unknown' };
  const shownId = keyWaitSelection(screenLines(dialog))!.id;
  const cases: { name: string; screen: ScreenState; text: string; quietMs: number; shownId?: string; kind: ScreenState['kind']; dueInMs: number | null }[] = [
    { name: 'just drawn: wait for the quiet time', screen: unknown, text: dialog, quietMs: 200, kind: 'unknown', dueInMs: KEY_WAIT_TIMING.quietMs - 200 },
    { name: 'quiet long enough: a question', screen: unknown, text: dialog, quietMs: KEY_WAIT_TIMING.quietMs, kind: 'selection', dueInMs: null },
    { name: 'already asked, redrawn: still the question', screen: unknown, text: dialog, quietMs: 10, shownId, kind: 'selection', dueInMs: null },
    { name: 'no key hint: nothing to wait for', screen: unknown, text: screen('copying 3 of 9'), quietMs: 60_000, kind: 'unknown', dueInMs: null },
    { name: 'the ready prompt box is the adapter\'s', screen: { kind: 'ready' }, text: dialog, quietMs: 60_000, kind: 'ready', dueInMs: null },
    { name: 'a busy screen (spinner) is the adapter\'s', screen: { kind: 'busy' }, text: dialog, quietMs: 60_000, kind: 'busy', dueInMs: null },
  ];
  it.each(cases)('$name', ({ screen: s, text, quietMs, shownId: id, kind, dueInMs }) => {
    const look = keyWaitLook(s, text, quietMs, id);
    expect(look.screen.kind).toBe(kind);
    expect(look.dueInMs).toBe(dueInMs);
  });

  it('the session then reads "waiting" (needs you), not "working"', () => {
    const look = keyWaitLook(unknown, dialog, KEY_WAIT_TIMING.quietMs);
    const base = { msSinceOutput: KEY_WAIT_TIMING.quietMs, turnOpen: true, hasTranscript: false, previous: 'working' as const, processGone: false };
    expect(decideStatus({ ...base, screen: unknown })).toBe('working');
    expect(decideStatus({ ...base, screen: look.screen })).toBe('waiting');
  });
});
