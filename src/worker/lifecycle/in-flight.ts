// A prompt that was in flight when the link to its host dropped (handed to the worker there, its delivery never
// reported): did it reach the CLI? Decided from the CLI's own transcript as the worker on the host reads it again
// after the link returns (pure). Only the transcript can prove either way: a screen shows nothing about a prompt a
// worker that is gone typed or did not type, so without one (a custom CLI, a raw CLI command) the answer is unknown,
// and unknown is never retyped — a duplicate prompt does work twice; the topic is told to send it again instead.
import { transcriptShowsText } from '../cli/literal-text.js';
import type { TranscriptEvent } from '../transcript/types.js';
import type { TurnUsage } from '../../shared/usage.js';

export type InFlightTranscript =
  /** The CLI keeps none (a custom CLI), or the prompt was a raw CLI command (never recorded as a user turn). */
  | { kind: 'none' }
  /** It keeps one, but it could not be found or read now. */
  | { kind: 'unreadable' }
  /** What it recorded since the prompt was handed over (events of records written since then). */
  | { kind: 'read'; events: readonly TranscriptEvent[] };

export type InFlightVerdict =
  /** It arrived: the turn goes on; `answer` when the CLI already finished it (its turn's end is in the transcript). */
  | { verdict: 'arrived'; answer?: { finalText: string; usage?: TurnUsage } }
  /** The transcript is there and has no record of it: typed again, once. */
  | { verdict: 'absent' }
  /** No way to tell: not retyped; the topic is told it may not have arrived. */
  | { verdict: 'unknown'; why: 'no_transcript' | 'unreadable' };

export function inFlightVerdict(text: string, transcript: InFlightTranscript): InFlightVerdict {
  if (transcript.kind === 'none') return { verdict: 'unknown', why: 'no_transcript' };
  if (transcript.kind === 'unreadable') return { verdict: 'unknown', why: 'unreadable' };
  const events = transcript.events;
  const at = events.findIndex((e) => (e.kind === 'user_turn' || e.kind === 'absorbed_prompt') && transcriptShowsText(e.text, text));
  if (at < 0) return { verdict: 'absent' };
  // The first turn end after it ends its turn (a prompt typed ahead into that turn ends with it, as locally).
  const end = events.slice(at + 1).find((e): e is Extract<TranscriptEvent, { kind: 'turn_end' }> => e.kind === 'turn_end');
  return end ? { verdict: 'arrived', answer: { finalText: end.finalText, ...(end.usage ? { usage: end.usage } : {}) } } : { verdict: 'arrived' };
}

/** What the worker does with a prompt handed over again after the link dropped. */
export type InFlightStep =
  /** Not in the transcript and never reported delivered: typed, once. */
  | { step: 'type' }
  /** Nothing can tell, and it was never reported delivered: not typed; the topic is told it may not have arrived. */
  | { step: 'tell_unknown'; why: 'no_transcript' | 'unreadable' }
  /** Its turn runs: followed to its end. `report`: say it was delivered (not said before the link dropped). */
  | { step: 'follow'; report: boolean }
  /** Its turn ended already: its answer goes now. */
  | { step: 'answer'; report: boolean; answer: { finalText: string; usage?: TurnUsage } };

/**
 * `deliveredBefore`: the host reported it delivered before the link dropped (only its answer was due). Such a prompt
 * is never typed again and never called lost, whatever the transcript says or cannot say: its turn is followed.
 */
export function inFlightStep(verdict: InFlightVerdict, deliveredBefore: boolean): InFlightStep {
  const report = !deliveredBefore;
  if (verdict.verdict === 'arrived') return verdict.answer ? { step: 'answer', report, answer: verdict.answer } : { step: 'follow', report };
  if (deliveredBefore) return { step: 'follow', report };
  return verdict.verdict === 'absent' ? { step: 'type' } : { step: 'tell_unknown', why: verdict.why };
}
