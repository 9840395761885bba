// Proven delivery: after text + Enter, judge from evidence whether the CLI took the message (pure).
import type { ScreenState } from '../cli/types.js';

export const DELIVERY_TIMING = {
  /** Screen checks after Enter; evidence (busy, cleared composer) shows within a few hundred ms. */
  checkEveryMs: 150,
  /** Notes: Codex/Gemini sometimes drop the Enter; waiting ~2–4 s for the busy signature tells a drop from a slow start. */
  repressAfterMs: 2_500,
  /** With a transcript, an emptied composer on a ready screen waits this long for the user-turn record first. */
  transcriptGraceMs: 3_000,
  /** After this long without evidence the message is reported as not delivered. */
  giveUpMs: 10_000,
  /** Enter is pressed again at most this many times (notes: a second Enter sends it; a third would be blind). */
  maxEnterRetries: 1,
} as const;

export type DeliveryTiming = { [K in keyof typeof DELIVERY_TIMING]: number };

export type DeliveryEvidence = 'transcript' | 'busy' | 'composer_cleared' | 'echo';

export interface DeliveryObservation {
  /** Since the (last) Enter. */
  sinceEnterMs: number;
  /** Since the first Enter. */
  totalMs: number;
  /** The transcript recorded a user turn after the text was sent. */
  userTurnSeen: boolean;
  screen: ScreenState;
  /** adapter.composerText of the same capture. */
  composer: string | null;
  enterRetries: number;
  hasTranscript: boolean;
  /** The pane printed a newline after Enter and the adapter says that proves it (line-oriented programs). */
  newlineAfterEnter?: boolean;
}

export type DeliveryVerdict =
  | { verdict: 'delivered'; evidence: DeliveryEvidence }
  | { verdict: 'press_enter_again' }
  | { verdict: 'wait' }
  | { verdict: 'failed'; reason: string };

export function judgeDelivery(o: DeliveryObservation, timing: DeliveryTiming = DELIVERY_TIMING): DeliveryVerdict {
  if (o.userTurnSeen) return { verdict: 'delivered', evidence: 'transcript' };
  if (o.screen.kind === 'exited') return { verdict: 'failed', reason: 'the CLI exited while the message was being sent' };
  if (o.newlineAfterEnter) return { verdict: 'delivered', evidence: 'echo' };
  const textLeft = o.composer !== null && o.composer !== '';
  // A permission prompt after Enter means the CLI took the message and is already working on it.
  if (o.screen.kind === 'selection' && o.screen.selectionKind === 'permission') return { verdict: 'delivered', evidence: 'busy' };
  if (o.screen.kind === 'busy' && !textLeft) return { verdict: 'delivered', evidence: 'busy' };
  if (!textLeft && o.composer === '' && o.screen.kind === 'ready') {
    // The box emptied and the CLI is back at its prompt (a very fast turn, or a shell command that finished).
    if (!o.hasTranscript || o.totalMs >= timing.transcriptGraceMs) return { verdict: 'delivered', evidence: 'composer_cleared' };
  }
  if (o.totalMs >= timing.giveUpMs) {
    if (o.screen.kind === 'selection') return { verdict: 'failed', reason: `a dialog is showing instead of the input box: "${o.screen.title}"` };
    if (textLeft) return { verdict: 'failed', reason: `the text is still in the input box after ${o.enterRetries + 1} Enter presses` };
    return { verdict: 'failed', reason: 'no evidence that the CLI received the message (no transcript record, no busy signal)' };
  }
  // Re-press only when the text visibly sits in the input box and no dialog could take the Enter instead.
  if (textLeft && o.screen.kind !== 'selection' && o.enterRetries < timing.maxEnterRetries && o.sinceEnterMs >= timing.repressAfterMs) {
    return { verdict: 'press_enter_again' };
  }
  return { verdict: 'wait' };
}
