// Whether a taken-over pane (attach) is ready for keys at once, without the readiness gate's wait for a prompt (pure).
import { isShellName, programName } from '../../shared/shell-names.js';

/** What tmux says about the pane's foreground at a take-over (`#{alternate_on}`, `#{pane_current_command}`). */
export interface PaneForeground {
  /** The pane is on the alternate screen: a full-screen program (top, less, vim) is drawing. */
  alternateScreen: boolean;
  /** Name of the pane's foreground process ('' when tmux could not tell). */
  command: string;
}

export type TakeoverReadiness = { atOnce: true; reason: string } | { atOnce: false };

/**
 * A program that starts other programs (a shell: CliAdapter.hostsPrograms) and, at the take-over, has one in the
 * foreground — drawing full-screen, or any process other than the shell — is not at its prompt and will not be until
 * that program ends (issue 32: `top` kept a restarted session "starting" for ~50 s, then the message went to bash).
 * The person would type into that program, so the message is typed into it now. A CLI's own pane, and a shell at its
 * prompt, keep the gate (a CLI's dialogs and prompt decide).
 */
export function takeoverReadiness(hostsPrograms: boolean, fg: PaneForeground | null): TakeoverReadiness {
  if (!hostsPrograms || fg === null) return { atOnce: false };
  if (fg.alternateScreen) return { atOnce: true, reason: `a full-screen program (${fg.command || 'unknown'}) is in the foreground` };
  // A login shell may show with a leading `-` (programName drops it); anything else is a program the shell started.
  const name = programName(fg.command.trim());
  if (name !== '' && !isShellName(name)) return { atOnce: true, reason: `${name} is in the foreground, not the shell` };
  return { atOnce: false };
}
