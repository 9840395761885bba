// A login shell as a "CLI": ready when the prompt is back; the final output is the pane lines after the command.
import { PANE_DEAD, screenLines } from './screen.js';
import type { CliAdapter, LaunchContext, LaunchSpec, ScreenState } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';

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

/**
 * The command's output: the lines after the last prompt line that shows `input`, up to (not including) the
 * prompt that came back. null when the command line is no longer on screen.
 */
export function shellOutputSince(screenText: string, input: string): string | null {
  const lines = screenLines(screenText);
  const firstInputLine = input.split('\n')[0]!.trim();
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]!.includes(firstInputLine) && /[$#%>❯] /.test(lines[i]!)) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  let end = lines.length;
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  if (end > start + 1 && PROMPT_END.test(lines[end - 1]!.trimEnd() + ' ')) end--;
  return lines.slice(start + 1 + input.split('\n').length - 1, end).join('\n');
}

export function shellLaunch(ctx: LaunchContext): LaunchSpec {
  return { argv: [...(ctx.command ?? ['/bin/bash']), '-l', ...(ctx.extraArgs ?? [])], env: { HOME: ctx.home, ...ctx.botEnv } };
}

export const shellAdapter: CliAdapter = {
  id: 'shell',
  displayName: 'Shell',
  launch: shellLaunch,
  // A shell reads typed-ahead input itself; a single line is typed, Enter follows almost at once.
  // A running command leaves `$ cmd` as the last line, which looks like unsent text: the newline after Enter is the proof.
  submit: { method: 'keys', enterDelayMs: 50, typeAheadWhileBusy: true, mayDropEnter: false, newlineProvesEnter: true },
  literal: LITERAL_TEXT.shell,
  nativeId: { kind: 'none' },
  classify: classifyShell,
  composerText: shellComposerText,
  choiceKeys: () => [],
  startupDefaults: [],
  seedFiles: () => [],
  transcript: null,
  resumeCommand: () => null,
};
