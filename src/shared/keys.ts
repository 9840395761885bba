// Named keys a card button or the web toolbar can press: one table from name to tmux key and raw bytes.
import * as z from 'zod';
import type { MessageKey, Translate } from './i18n.js';

export const KEY_TABLE = {
  esc: { label: 'Esc', tmux: 'Escape', bytes: '\x1b' },
  ctrl_c: { label: 'Ctrl+C', tmux: 'C-c', bytes: '\x03' },
  ctrl_d: { label: 'Ctrl+D', tmux: 'C-d', bytes: '\x04' },
  /** Ctrl-K / Ctrl-U delete to the end / start of the input line (the worker clears a CLI's composer with them). */
  ctrl_k: { label: 'Ctrl+K', tmux: 'C-k', bytes: '\x0b' },
  ctrl_u: { label: 'Ctrl+U', tmux: 'C-u', bytes: '\x15' },
  tab: { label: 'Tab', tmux: 'Tab', bytes: '\t' },
  shift_tab: { label: 'Shift+Tab', tmux: 'BTab', bytes: '\x1b[Z' },
  enter: { label: 'Enter', tmux: 'Enter', bytes: '\r' },
  backspace: { label: '⌫', tmux: 'BSpace', bytes: '\x7f' },
  up: { label: '↑', tmux: 'Up', bytes: '\x1b[A' },
  down: { label: '↓', tmux: 'Down', bytes: '\x1b[B' },
  right: { label: '→', tmux: 'Right', bytes: '\x1b[C' },
  left: { label: '←', tmux: 'Left', bytes: '\x1b[D' },
  page_up: { label: 'PgUp', tmux: 'PPage', bytes: '\x1b[5~' },
  page_down: { label: 'PgDn', tmux: 'NPage', bytes: '\x1b[6~' },
} as const satisfies Record<string, { label: string; tmux: string; bytes: string }>;

export type KeyName = keyof typeof KEY_TABLE;

export const KEY_NAMES = Object.keys(KEY_TABLE) as [KeyName, ...KeyName[]];

export const KeyNameSchema = z.enum(KEY_NAMES);

/** The key row shown on every streaming card, in order. */
export const CARD_KEY_ROW: readonly KeyName[] = [
  'esc', 'ctrl_c', 'tab', 'enter', 'up', 'down', 'left', 'right', 'page_up', 'page_down',
];

export function tmuxKeyName(key: KeyName): string {
  return KEY_TABLE[key].tmux;
}

export function keyBytes(key: KeyName): string {
  return KEY_TABLE[key].bytes;
}

/** Keys whose label is a word, not a key cap or symbol: these labels come from the catalogue. */
const WORD_KEYS = { enter: 'key.enter', page_up: 'key.page_up', page_down: 'key.page_down' } as const satisfies Partial<Record<KeyName, MessageKey>>;

/** A key's label as a user reads it (Esc, Ctrl+C, Tab and arrows are the same everywhere; words are translated). */
export function keyLabel(key: KeyName, t: Translate): string {
  const word = (WORD_KEYS as Partial<Record<KeyName, MessageKey>>)[key];
  return word ? t(word) : KEY_TABLE[key].label;
}
