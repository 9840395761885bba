// Final output for CLIs without a transcript (shell, custom): the pane lines that appeared after the input (pure).
import { shellOutputSince, shellPromptBack, shellTookCommand } from '../cli/shell.js';
import { screenLines } from '../cli/screen.js';
import type { CliId } from '../cli/types.js';

/**
 * Lines in `after` past what `before` already held. Both are captures with the same history depth, so `before`
 * (minus its last line, where the input was typed) is normally a prefix of `after`; when the history scrolled
 * off, the longest tail of `before` found in `after` anchors the diff instead.
 */
export function newLinesSince(before: string, after: string): string[] {
  const b = screenLines(before);
  const a = screenLines(after);
  const anchor = b.slice(0, -1);
  if (anchor.length === 0) return a;
  // Whole anchor first (the usual case), then ever shorter tails: bounded work even for long histories.
  const takes = [...new Set([anchor.length, Math.min(anchor.length, 20), Math.min(anchor.length, 5), 1])];
  for (const take of takes) {
    const tail = anchor.slice(anchor.length - take);
    for (let start = a.length - take; start >= 0; start--) {
      if (tail.every((l, i) => a[start + i] === l)) return a.slice(start + take);
    }
  }
  return a;
}

/** The turn's output: for a shell, the lines between the echoed command and the returned prompt. */
export function paneOutputSince(cli: CliId, before: string, after: string, input: string): string {
  const fresh = newLinesSince(before, after).join('\n');
  if (cli === 'shell') {
    const out = shellOutputSince(fresh, input) ?? shellOutputSince(after, input);
    if (out !== null) return out;
  }
  return fresh;
}

/**
 * Whether the pane proves the CLI took the turn's text, so a quiet ready screen means the turn ended. A shell: its
 * echo is complete and followed by something (captures taken with wrapped lines joined). Others: no proof from the
 * pane is possible, the delivery's proof stands.
 */
export function paneTookTurn(cli: CliId, before: string, after: string, input: string): boolean {
  if (cli !== 'shell') return true;
  const fresh = newLinesSince(before, after);
  if (shellTookCommand(fresh.join('\n'), input)) return true;
  // Fewer new lines than the command has: `before` scrolled out of the capture and its last line was found again
  // inside the command (two heredocs ending in the same terminator), so the new part is cut short. The whole capture
  // is the evidence then; a command taller than the capture is anchored by its end (shellCommandEnd).
  return input.split('\n').length > fresh.length && shellTookCommand(after, input);
}

/**
 * Whether the visible screen proves the turn for `input` is over, so its end need not wait for output silence: a
 * shell back at the prompt it took the command at (shellPromptBack). Others: never (silence or a transcript decides).
 */
export function paneShowsTurnEnd(cli: CliId, screenText: string, input: string): boolean {
  return cli === 'shell' && shellPromptBack(screenText, input);
}
