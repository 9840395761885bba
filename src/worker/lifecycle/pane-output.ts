// Final output for CLIs without a transcript (shell, custom): the pane lines that appeared after the input (pure).
import { shellOutputSince, shellPromptBack, shellTookCommand, withoutReturnedPrompt } from '../cli/shell.js';
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
  const freshLines = newLinesSince(before, after);
  const fresh = freshLines.join('\n');
  if (cli === 'shell') {
    // The echo scrolled out (output longer than the capture): what is left is output, up to the prompt that came back.
    return shellOutputSince(fresh, input) ?? shellOutputSince(after, input) ?? withoutReturnedPrompt(freshLines).join('\n');
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
  if (input.split('\n').length > fresh.length && shellTookCommand(after, input)) return true;
  return outputScrolledPastCommand(before, after, input);
}

/**
 * Lines of `before` above its prompt (compared as a block) and of the input (each alone) looked for in `after`. A
 * fresh shell has nothing above its prompt: then a capture of more lines than any output that leaves its command on
 * screen would need stands in for the block (the capture holds 2000 lines of history).
 */
const SCROLL_EVIDENCE = { beforeBlockLines: 3, inputLinesChecked: 50, anchorChars: 24, linesWithoutBefore: 500 } as const;

/**
 * Output longer than the capture: the command's echo and everything before it scrolled out (`seq 1 5000`). Only
 * the command's own output can do that — the last lines above the old prompt are gone, and no line of the command
 * is left on screen (a paste still arriving shows its lines; one that has not landed leaves `before` in place).
 */
function outputScrolledPastCommand(before: string, after: string, input: string): boolean {
  const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
  const block = screenLines(before).slice(0, -1).map(flat).filter((l) => l !== '').slice(-SCROLL_EVIDENCE.beforeBlockLines);
  const a = screenLines(after).map(flat);
  if (block.length === 0 && a.length < SCROLL_EVIDENCE.linesWithoutBefore) return false;
  for (let i = 0; block.length > 0 && i + block.length <= a.length; i++) if (block.every((l, j) => a[i + j] === l)) return false;
  const inputLines = input.split('\n');
  const n = SCROLL_EVIDENCE.inputLinesChecked;
  const checked = inputLines.length > 2 * n ? [...inputLines.slice(0, n), ...inputLines.slice(-n)] : inputLines;
  const anchors = checked.map((l) => flat(l).slice(0, SCROLL_EVIDENCE.anchorChars)).filter((l) => l.length >= 3);
  return !a.some((line) => anchors.some((anchor) => line.includes(anchor)));
}

/**
 * Whether the visible screen proves the turn for `input` is over, so its end need not wait for output silence: a
 * shell back at the prompt it took the command at (shellPromptBack). Others: never (silence or a transcript decides).
 */
export function paneShowsTurnEnd(cli: CliId, screenText: string, input: string): boolean {
  return cli === 'shell' && shellPromptBack(screenText, input);
}
