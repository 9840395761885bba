// A prompt in flight when a host's link dropped: whether it is taken as arrived, retyped, or left to the user (pure).
import { describe, expect, it } from 'vitest';
import type { TurnUsage } from '../../src/shared/usage.js';
import { inFlightStep, inFlightVerdict, type InFlightStep, type InFlightTranscript, type InFlightVerdict } from '../../src/worker/lifecycle/in-flight.js';

const usage: TurnUsage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
const text = 'echo "a $(b)" 中文 🙂';
const rows: [string, string, InFlightTranscript, InFlightVerdict][] = [
  ['no transcript (custom CLI, raw command)', text, { kind: 'none' }, { verdict: 'unknown', why: 'no_transcript' }],
  ['a transcript that cannot be read now', text, { kind: 'unreadable' }, { verdict: 'unknown', why: 'unreadable' }],
  ['read, nothing since the hand-over', text, { kind: 'read', events: [] }, { verdict: 'absent' }],
  ['read, only other prompts since', text, { kind: 'read', events: [{ kind: 'user_turn', text: 'something else' }, { kind: 'turn_end', finalText: 'x' }] }, { verdict: 'absent' }],
  ['recorded, its turn still running', text, { kind: 'read', events: [{ kind: 'user_turn', text }] }, { verdict: 'arrived' }],
  ['recorded with folded whitespace and wrapped', text, { kind: 'read', events: [{ kind: 'user_turn', text: `<pasted>\n  ${text.replace(/ /g, '\n')}\n</pasted>` }] }, { verdict: 'arrived' }],
  ['absorbed into a running turn', text, { kind: 'read', events: [{ kind: 'absorbed_prompt', text }] }, { verdict: 'arrived' }],
  ['recorded and answered already', text, { kind: 'read', events: [{ kind: 'identity', nativeSessionId: 's' }, { kind: 'user_turn', text }, { kind: 'turn_end', finalText: 'done', usage }] },
    { verdict: 'arrived', answer: { finalText: 'done', usage } }],
  ['an earlier turn end is not its answer', text, { kind: 'read', events: [{ kind: 'turn_end', finalText: 'older' }, { kind: 'user_turn', text }] }, { verdict: 'arrived' }],
  ['an empty prompt never matches', '   ', { kind: 'read', events: [{ kind: 'user_turn', text: 'x' }] }, { verdict: 'absent' }],
];

describe('inFlightVerdict', () => {
  it.each(rows)('%s', (_name, sent, transcript, want) => {
    expect(inFlightVerdict(sent, transcript)).toEqual(want);
  });
});

// Reported delivered before the link dropped (its turn was running, its answer not come): never typed again, never
// called lost — followed, or answered at once; said delivered only when the daemon was never told.
const answer = { finalText: 'done', usage };
const steps: [string, InFlightVerdict, boolean, InFlightStep][] = [
  ['absent, never reported: typed', { verdict: 'absent' }, false, { step: 'type' }],
  ['unknown, never reported: the topic told', { verdict: 'unknown', why: 'no_transcript' }, false, { step: 'tell_unknown', why: 'no_transcript' }],
  ['arrived and running, never reported', { verdict: 'arrived' }, false, { step: 'follow', report: true }],
  ['arrived and answered, never reported', { verdict: 'arrived', answer }, false, { step: 'answer', report: true, answer }],
  ['delivered before, running', { verdict: 'arrived' }, true, { step: 'follow', report: false }],
  ['delivered before, answered while the link was down', { verdict: 'arrived', answer }, true, { step: 'answer', report: false, answer }],
  ['delivered before, no transcript (a shell): followed, not called lost', { verdict: 'unknown', why: 'no_transcript' }, true, { step: 'follow', report: false }],
  ['delivered before, unreadable now: followed', { verdict: 'unknown', why: 'unreadable' }, true, { step: 'follow', report: false }],
  ['delivered before, absent since the hand-over (a clock far behind): never retyped', { verdict: 'absent' }, true, { step: 'follow', report: false }],
];

describe('inFlightStep', () => {
  it.each(steps)('%s', (_name, verdict, deliveredBefore, want) => {
    expect(inFlightStep(verdict, deliveredBefore)).toEqual(want);
  });
});
