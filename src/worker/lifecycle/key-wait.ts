// A screen no adapter knows that waits for a key (pure): after a short quiet time it is a question for a person.
import { keyWaitSelection } from '../cli/key-hints.js';
import { screenLines } from '../cli/screen.js';
import type { ScreenState } from '../cli/types.js';
import { STATUS_TIMING } from './status.js';

export const KEY_WAIT_TIMING = {
  /**
   * Quiet needed before an unrecognised screen with a key hint counts as waiting. A CLI at work redraws at least every
   * second (Claude's spinner, Codex's and Gemini's elapsed-seconds counters), so a screen silent for twice the idle
   * silence (STATUS_TIMING.quietMs) is not at work; short enough that the person is asked within seconds (issue 31: a
   * Claude dialog larkmux did not know read "processing" for over 90 s).
   */
  quietMs: 2 * STATUS_TIMING.quietMs,
} as const;

export interface KeyWaitLook {
  /** The screen to act on: the adapter's, or the question read from its key hints once the pane has been quiet. */
  screen: ScreenState;
  /** ms until the screen has been quiet long enough to count as waiting; null when there is nothing to wait for. */
  dueInMs: number | null;
}

/**
 * Only a screen the adapter calls `unknown` is read for hints: a ready prompt box, a busy screen (its spinner), a known
 * dialog and an exited CLI are the adapter's to say. Output restarts the quiet time, except for the question already
 * shown (`shownId`): a redraw of the same question keeps it asked.
 */
export function keyWaitLook(screen: ScreenState, screenText: string, msSinceOutput: number, shownId?: string, timing = KEY_WAIT_TIMING): KeyWaitLook {
  if (screen.kind !== 'unknown') return { screen, dueInMs: null };
  const question = keyWaitSelection(screenLines(screenText));
  if (!question) return { screen, dueInMs: null };
  if (msSinceOutput >= timing.quietMs || question.id === shownId) return { screen: question, dueInMs: null };
  return { screen, dueInMs: timing.quietMs - msSinceOutput };
}
