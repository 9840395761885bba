// Pure: the text typed into a session's CLI for one prompt — the person's words, and what goes with them (a quoted
// message, saved attachments, notes), decided by what the CLI does with typed text (shared/cli-spec.ts CLI_INPUT).
import { cliInputOf, type CliSpec } from '../../shared/cli-spec.js';
import { mentionPath } from './attachment-plan.js';

/** Marks quoted words for a model CLI: a label, then each line as `> …` (the quoted text never reads as the person's own). */
export const QUOTE_LABEL = 'Quoted message:';

export interface PromptParts {
  /** What the person wrote in this message. */
  own: string;
  /** The text of the message this one quotes (empty or absent: no quote). */
  quote?: string;
  /** Saved attachments, as paths relative to the working directory (generated names, see storedName). */
  files: readonly string[];
  /** Attachments that were not saved, in words (they may carry a sender's file name). */
  notSaved: readonly string[];
  /** Said to a model CLI when the person wrote nothing (the attachments are the message). */
  instruction: string;
}

/**
 * Words the person did not write, made inert for a model CLI: `@` after a space or at a line's start is how Claude Code
 * and Gemini pull a file into the prompt (notes/clis.md), so it becomes the full-width ＠ (U+FF20), which they leave alone
 * and a model still reads as an at sign.
 */
export function inertForModel(text: string): string {
  return text.replace(/(^|\s)@/gm, '$1\uff20');
}

/**
 * The quote for a model CLI: the label first (so no quoted line is the start of the input, where `!` and `/` switch
 * Claude Code and Codex into a shell or a local command), then every line behind `> `.
 */
export function quoteBlock(quote: string): string {
  const lines = inertForModel(quote).split('\n').map((l) => `> ${l}`);
  return [QUOTE_LABEL, ...lines].join('\n');
}

/**
 * What is typed. A model CLI gets the quote (marked), the person's words (or the instruction), one line per saved file,
 * and a note per file not saved. A program (shell, custom) runs every line it is given, so it gets only the person's
 * words and the saved files' generated paths, each on its own line (inert: letters, digits, `.`, `-`, `/`); the quote
 * and the notes are not typed (the chat shows them).
 */
export function typedPrompt(cli: CliSpec, parts: PromptParts): string {
  if (cliInputOf(cli) === 'program') {
    const own = parts.own.trim() ? [parts.own] : [];
    return [...own, ...parts.files].join('\n');
  }
  const quote = parts.quote?.trim() ? [quoteBlock(parts.quote), ''] : [];
  const head = parts.own.trim() || (parts.files.length === 0 && parts.notSaved.length === 0) ? parts.own : parts.instruction;
  const tail = [...parts.files.map((p) => mentionPath(cli, p)), ...parts.notSaved.map((r) => `(not saved: ${inertForModel(r)})`)];
  return [...quote, head, ...(tail.length ? ['', ...tail] : [])].join('\n');
}
