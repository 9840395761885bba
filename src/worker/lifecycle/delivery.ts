// Proven delivery: after text + Enter, judge from evidence whether the CLI took the message (pure).
import type { ScreenState } from '../cli/types.js';
import { failure, failureText, type Failure } from '../../shared/failure.js';

export const DELIVERY_TIMING = {
  /** Screen checks after Enter; evidence (busy, cleared composer) shows within a few hundred ms. */
  checkEveryMs: 150,
  /** Notes: Codex/Gemini sometimes drop the Enter; waiting ~2–4 s for the busy signature tells a drop from a slow start. */
  repressAfterMs: 2_500,
  /**
   * With a transcript, one send waits this long for the user-turn record of *this* text. Claude, Codex and Gemini
   * write it within a second of taking the Enter; 12 s leaves room for a loaded machine. There is no fallback to
   * "the composer emptied": Claude empties it for a local command it swallowed too (issue 12).
   */
  transcriptProofMs: 12_000,
  /** A busy CLI without the record (its own work, or ours unrecorded) is given this long in all before failing. */
  transcriptGiveUpMs: 30_000,
  /** Without a transcript: after this long without evidence the message is reported as not delivered. */
  giveUpMs: 10_000,
  /** Enter is pressed again at most this many times per send (notes: a second Enter sends it; a third would be blind). */
  maxEnterRetries: 1,
  /** The text is sent at most this many times (the composer is cleared before the second). */
  maxSends: 2,
} as const;

export type DeliveryTiming = { [K in keyof typeof DELIVERY_TIMING]: number };

export type DeliveryEvidence = 'transcript' | 'busy' | 'composer_cleared' | 'echo';

export interface DeliveryObservation {
  /** Since the (last) Enter. */
  sinceEnterMs: number;
  /** Since the first Enter of the current send. */
  totalMs: number;
  /** Since the first Enter of the first send. */
  overallMs?: number;
  /** The transcript recorded a user turn with this message's text after it was sent. */
  userTurnSeen: boolean;
  screen: ScreenState;
  /** adapter.composerText of the same capture. */
  composer: string | null;
  enterRetries: number;
  /** The CLI keeps a transcript and this is a prompt (not a raw CLI command): only the transcript proves delivery. */
  hasTranscript: boolean;
  /** How many times the text has been sent (1 for the first). */
  sends?: number;
  /** The pane printed a newline after Enter and the adapter says that proves it (line-oriented programs). */
  newlineAfterEnter?: boolean;
  /**
   * Steered into a working CLI (issue 30 item 4): the CLI holds it in its own queue until its next step (Claude Code
   * records it only then, after a long tool call too), so no give-up while the CLI still works.
   */
  steered?: boolean;
  /** Since the screen last showed the CLI working (or since Enter): a steered message's proof may follow its turn's end. */
  sinceBusyMs?: number;
}

export type DeliveryVerdict =
  | { verdict: 'delivered'; evidence: DeliveryEvidence }
  | { verdict: 'press_enter_again' }
  | { verdict: 'wait' }
  /** Clear the composer and send the text once more. */
  | { verdict: 'resend'; reason: string; failure: Failure }
  /** Not delivered; the composer must be cleared so the text is never glued onto a later prompt. */
  | { verdict: 'failed'; reason: string; failure: Failure };

function textIsLeft(o: DeliveryObservation): boolean {
  return o.composer !== null && o.composer !== '';
}

function shouldRepress(o: DeliveryObservation, timing: DeliveryTiming): boolean {
  // Re-press only when the text visibly sits in the input box and no dialog could take the Enter instead.
  return textIsLeft(o) && o.screen.kind !== 'selection' && o.enterRetries < timing.maxEnterRetries && o.sinceEnterMs >= timing.repressAfterMs;
}

function noProof(o: DeliveryObservation, what: Failure): Failure {
  if (o.screen.kind === 'selection') return failure('dialog_showing', o.screen.title);
  if (textIsLeft(o)) return failure('text_left', o.enterRetries + 1);
  return what;
}

/** A verdict with its reason in English for the log; the daemon words `failure` in the bot's language. */
function because<V extends 'failed' | 'resend'>(verdict: V, f: Failure): { verdict: V; reason: string; failure: Failure } {
  return { verdict, reason: failureText('en', f), failure: f };
}

/** A CLI with a transcript: delivered only when the transcript records this text as a user turn. */
function judgeByTranscript(o: DeliveryObservation, timing: DeliveryTiming): DeliveryVerdict {
  if (shouldRepress(o, timing)) return { verdict: 'press_enter_again' };
  const sends = o.sends ?? 1;
  const overall = o.overallMs ?? o.totalMs;
  if (o.steered) {
    if (o.screen.kind === 'busy' && !textIsLeft(o)) return { verdict: 'wait' };
    // Claude records a steered prompt when it hands it to the model, and flushes that with the turn's end: the screen
    // may show the turn over before the record lands. The proof gets its usual time from when the CLI stopped working.
    if ((o.sinceBusyMs ?? 0) < timing.transcriptProofMs) return { verdict: 'wait' };
  }
  if (overall >= timing.transcriptGiveUpMs) return because('failed', noProof(o, failure('not_recorded')));
  if (o.totalMs < timing.transcriptProofMs) return { verdict: 'wait' };
  // A busy CLI may be working on it and write the record late: sending again could run it twice.
  if (o.screen.kind === 'busy') return { verdict: 'wait' };
  const why = noProof(o, failure('enter_not_recorded'));
  if (sends < timing.maxSends && o.screen.kind === 'ready') return because('resend', why);
  return because('failed', why);
}

export function judgeDelivery(o: DeliveryObservation, timing: DeliveryTiming = DELIVERY_TIMING): DeliveryVerdict {
  if (o.userTurnSeen) return { verdict: 'delivered', evidence: 'transcript' };
  if (o.screen.kind === 'exited') return because('failed', failure('exited_while_sending'));
  if (o.hasTranscript) return judgeByTranscript(o, timing);
  if (o.newlineAfterEnter) return { verdict: 'delivered', evidence: 'echo' };
  const textLeft = textIsLeft(o);
  // A permission prompt after Enter means the CLI took the message and is already working on it.
  if (o.screen.kind === 'selection' && o.screen.selectionKind === 'permission') return { verdict: 'delivered', evidence: 'busy' };
  if (o.screen.kind === 'busy' && !textLeft) return { verdict: 'delivered', evidence: 'busy' };
  // The box emptied and the CLI is back at its prompt (a very fast turn, or a shell command that finished).
  if (o.composer === '' && o.screen.kind === 'ready') return { verdict: 'delivered', evidence: 'composer_cleared' };
  if (o.totalMs >= timing.giveUpMs) return because('failed', noProof(o, failure('no_evidence')));
  if (shouldRepress(o, timing)) return { verdict: 'press_enter_again' };
  return { verdict: 'wait' };
}
