// Literal text per CLI (data + one pure function): a prompt from the chat must reach the model as a prompt, never
// switch the CLI into another mode (a host shell, a local command) because of its first character.

/** What a CLI does with a message that starts with a given character (measured, see LITERAL_TEXT below). */
export type LeadingEffect = 'prompt' | 'host-shell' | 'local-command';

export interface LiteralTextPolicy {
  /** Characters that mean something other than "prompt" at the very start of the input, and what they do. */
  leading: Readonly<Record<string, LeadingEffect>>;
  /**
   * How a prompt starting with one of those characters is made literal. `leading-space`: one space in front; the
   * CLI treats the text as an ordinary prompt (Claude passes the space on, Codex trims it).
   */
  escape: 'leading-space' | 'none';
  /** What a pasted tab becomes on the way to the model (Claude turns it into spaces; nothing else changes it). */
  tabs: 'literal' | 'spaces';
}

/**
 * Measured 2026-12-01 (Claude Code 2.1.332, Codex 0.171.0, Gemini CLI 0.61.0, bash 5.2) with a bracketed paste of
 * one line, then Enter, against the fake model servers; the fake's request log decided what arrived:
 * - Claude: `!touch x` ran in its bash mode (the model saw only `<bash-input>`); `/unknownword …` vanished (no
 *   request); `#` `@` `?` `&` arrived as typed. ` !touch x` and ` /unknownword` (leading space) arrived as prompts.
 * - Codex: `!touch x` ran as a shell command, no request; `/unknownword …` was refused and stayed in the composer
 *   (and was glued onto the next prompt); `#` `@` `?` `&` arrived. With a leading space both arrived (trimmed).
 * - Gemini: a *pasted* `!…` and `/unknownword …` arrived as prompts (only typed keys enter its shell mode).
 * - A shell is the program itself: its syntax is the prompt; only a typed tab was altered (completion), which the
 *   input plan avoids by pasting any text with a tab (backend/input-plan.ts).
 * A message naming a real CLI command (`/compact`, see daemon/commands/cli-commands.ts) never comes here as a prompt:
 * the daemon routes it as `raw_input`, typed as is.
 */
export const LITERAL_TEXT = {
  'claude-code': { leading: { '!': 'host-shell', '/': 'local-command' }, escape: 'leading-space', tabs: 'spaces' },
  codex: { leading: { '!': 'host-shell', '/': 'local-command' }, escape: 'leading-space', tabs: 'literal' },
  gemini: { leading: {}, escape: 'none', tabs: 'literal' },
  shell: { leading: {}, escape: 'none', tabs: 'literal' },
  /** An unknown program: nothing is assumed about it. */
  custom: { leading: {}, escape: 'none', tabs: 'literal' },
} as const satisfies Record<string, LiteralTextPolicy>;

/** The text to send so the CLI takes `text` as a prompt. */
export function literalPrompt(policy: LiteralTextPolicy, text: string): string {
  const first = text.charAt(0);
  const effect = policy.leading[first];
  if (effect === undefined || effect === 'prompt' || policy.escape === 'none') return text;
  return ` ${text}`;
}

/** Text compared the way transcripts keep it: line ends, whitespace runs (and tabs) folded, ends trimmed. */
export function comparableText(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n').replace(/\s+/g, ' ').trim();
}

/** Whether a transcript's user-turn text is this message (CLIs may wrap it, e.g. Claude's pasted-content tags). */
export function transcriptShowsText(recorded: string, sent: string): boolean {
  const want = comparableText(sent);
  if (want === '') return false;
  return comparableText(recorded).includes(want);
}
