// A login shell as a "CLI": ready when the prompt is back; the final output is the pane lines after the command.
import { PANE_DEAD, screenLines } from './screen.js';
import type { CliAdapter, LaunchContext, CliLaunchSpec, ScreenState } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';
import { CLI_INPUT } from '../../shared/cli-spec.js';

/** The last line of a waiting shell ends with a prompt character and a space (bash `$`/`#`, zsh `%`, fish `>`). */
const PROMPT_END = /[$#%>❯]\s?$/;

function lastNonBlank(lines: readonly string[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return lines[i]!;
  return null;
}

export function classifyShell(screenText: string): ScreenState {
  if (PANE_DEAD.test(screenText)) return { kind: 'exited' };
  const last = lastNonBlank(screenLines(screenText));
  if (last === null) return { kind: 'unknown' };
  // Only a bare prompt is ready: `$ sleep 10` as the last line is a command still running (shells don't drop Enter).
  return PROMPT_END.test(last) ? { kind: 'ready' } : { kind: 'busy' };
}

/** Text typed after the prompt on the last line ('' for a bare prompt), or null when no prompt is showing. */
export function shellComposerText(screenText: string): string | null {
  const last = lastNonBlank(screenLines(screenText));
  if (last === null) return null;
  const m = /^(.*?[$#%>❯]) (.*)$/.exec(last);
  if (m) return m[2]!.trim();
  return PROMPT_END.test(last) ? '' : null;
}

export const SHELL_ECHO = {
  /**
   * Characters of the command's first and last line used to find its echo. A long command wraps (and readline's
   * redraw of a line taller than the screen leaves remnants beside it), so the whole line is rarely on one row;
   * its ends are. Long enough not to match stray output, short enough to fit a narrow pane's row.
   */
  anchorChars: 24,
} as const;

/** A tab shows as spaces up to the next stop: any run of blanks compares as one space. */
const flat = (t: string) => t.replace(/\s+/g, ' ');

/**
 * Index of the line where the echoed command ends: the last prompt line showing the start of `input`, then the
 * first line from there showing its end. null while the command is not (fully) on screen.
 */
export function shellCommandEnd(lines: readonly string[], input: string): number | null {
  return shellCommandSpan(lines, input)?.end ?? null;
}

/** Where the echoed command is: its prompt line (`head`; null when scrolled out of `lines`) and its last line. */
function shellCommandSpan(lines: readonly string[], input: string): { head: number | null; end: number } | null {
  const span = (head: number | null, end: number | null) => (end === null ? null : { head, end });
  const inputLines = input.split('\n');
  const head = flat(inputLines[0]!.trim()).slice(0, SHELL_ECHO.anchorChars);
  const tail = flat(inputLines[inputLines.length - 1]!.trim()).slice(-SHELL_ECHO.anchorChars);
  const lastShowing = (from: number, to: number): number | null => {
    for (let j = to; j >= from; j--) if (flat(lines[j]!).includes(tail)) return j;
    return null;
  };
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!flat(lines[i]!).includes(head) || !/[$#%>❯] /.test(lines[i]!)) continue;
    if (i + inputLines.length - 1 < lines.length) {
      for (let j = i + inputLines.length - 1; j < lines.length; j++) if (flat(lines[j]!).includes(tail)) return span(i, j);
      return null;
    }
    // Taller than the screen below its head: readline shows a window of a huge paste (remnants beside it), so the end
    // is the last line showing it.
    return span(i, lastShowing(i + 1, lines.length - 1));
  }
  // A command with more lines than the capture holds (a 200 KB heredoc) has scrolled its head out: its end alone
  // anchors it — the last line showing the end of its last line.
  return inputLines.length >= lines.length ? span(null, lastShowing(0, lines.length - 1)) : null;
}

/**
 * The shell is back at the prompt it showed the command at: the echoed command, then output, then (as the last line)
 * that same prompt again — the command exited, so the turn is over without waiting out a silence. A different prompt
 * (a `cd`), a prompt-like output line ("45%"), or a command whose echo scrolled off proves nothing: silence decides.
 */
export function shellPromptBack(screenText: string, input: string): boolean {
  const lines = screenLines(screenText);
  const cmd = shellCommandSpan(lines, input);
  if (!cmd || cmd.head === null) return false;
  const headLine = flat(lines[cmd.head]!);
  const prompt = headLine.slice(0, headLine.indexOf(flat(input.split('\n')[0]!.trim()).slice(0, SHELL_ECHO.anchorChars))).trim();
  if (!PROMPT_END.test(prompt)) return false;
  let last = lines.length - 1;
  while (last > cmd.end && lines[last]!.trim() === '') last--;
  return last > cmd.end && flat(lines[last]!).trim() === prompt;
}

/**
 * The command's output: the lines after the echoed command (the prompt line showing `input`, and its wrapped or
 * continued lines), up to (not including) the prompt that came back. null when the command line is not on screen.
 */
export function shellOutputSince(screenText: string, input: string): string | null {
  const lines = screenLines(screenText);
  const last = shellCommandEnd(lines, input);
  if (last === null) return null;
  return withoutReturnedPrompt(lines.slice(last + 1)).join('\n');
}

/** Output lines without the trailing blank lines and the prompt that came back after them. */
export function withoutReturnedPrompt(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  if (end > 0 && PROMPT_END.test(lines[end - 1]!.trimEnd() + ' ')) end--;
  return lines.slice(0, end);
}

/**
 * The shell took the command: its whole echo is on screen and something follows it (output or the next prompt),
 * i.e. Enter was read after the last character. Until then a bare prompt on screen is the screen *before* the
 * command, however quiet the pane (a slow paste on a loaded machine).
 */
export function shellTookCommand(screenText: string, input: string): boolean {
  const lines = screenLines(screenText);
  const last = shellCommandEnd(lines, input);
  return last !== null && lines.slice(last + 1).some((l) => l.trim() !== '');
}

export function shellLaunch(ctx: LaunchContext): CliLaunchSpec {
  return { argv: [...(ctx.command ?? ['/bin/bash']), '-l', ...(ctx.extraArgs ?? [])], env: { HOME: ctx.home, ...ctx.botEnv } };
}

export const shellAdapter: CliAdapter = {
  id: 'shell',
  displayName: 'Shell',
  launch: shellLaunch,
  // A shell reads typed-ahead input itself; a single line is typed, Enter follows almost at once.
  // A running command leaves `$ cmd` as the last line, which looks like unsent text: the newline after Enter is the proof.
  submit: { method: 'keys', enterDelayMs: 50, typeAheadWhileBusy: true, newlineProvesEnter: true },
  literal: LITERAL_TEXT.shell,
  input: CLI_INPUT.shell,
  nativeId: { kind: 'none' },
  classify: classifyShell,
  composerText: shellComposerText,
  choiceKeys: () => [],
  startupDefaults: [],
  // A shell shows no dialog after its prompt: the first prompt is typed into at once (issue 31: +2 s per cold start).
  lateStartupDialogs: false,
  // What runs in it (top, less, a REPL) owns the keys until it ends: a take-over types into it (issue 32).
  hostsPrograms: true,
  seedFiles: () => [],
  transcript: null,
};
