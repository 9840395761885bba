// Proven delivery verdicts, table-driven: what the screen and transcript show after Enter decides the next step.
import { describe, expect, it } from 'vitest';
import type { ScreenState } from '../../src/worker/cli/types.js';
import { LITERAL_TEXT, literalPrompt, transcriptShowsText } from '../../src/worker/cli/literal-text.js';
import { DELIVERY_TIMING, judgeDelivery, type DeliveryObservation } from '../../src/worker/lifecycle/delivery.js';

const perm: ScreenState = { kind: 'selection', title: 'Do you want to proceed?', options: [{ label: '1. Yes' }, { label: '2. No' }], defaultIndex: 0, selectionKind: 'permission', id: 'p' };
const trust: ScreenState = { ...perm, title: 'Trust?', selectionKind: 'startup', id: 't' };
const base: DeliveryObservation = { sinceEnterMs: 200, totalMs: 200, userTurnSeen: false, screen: { kind: 'ready' }, composer: 'hello', enterRetries: 0, hasTranscript: true };
const o = (patch: Partial<DeliveryObservation>): DeliveryObservation => ({ ...base, ...patch });

describe('judgeDelivery', () => {
  const T = DELIVERY_TIMING;
  const cases: { name: string; obs: DeliveryObservation; verdict: string; detail?: string }[] = [
    { name: 'transcript recorded this text as a user turn', obs: o({ userTurnSeen: true }), verdict: 'delivered', detail: 'transcript' },
    // Without a transcript the screen is the evidence.
    { name: 'no transcript: busy and the box is empty', obs: o({ hasTranscript: false, screen: { kind: 'busy' }, composer: '' }), verdict: 'delivered', detail: 'busy' },
    { name: 'no transcript: busy with no box visible', obs: o({ hasTranscript: false, screen: { kind: 'busy' }, composer: null }), verdict: 'delivered', detail: 'busy' },
    { name: 'no transcript: a permission prompt appeared', obs: o({ hasTranscript: false, screen: perm, composer: null }), verdict: 'delivered', detail: 'busy' },
    { name: 'no transcript: box emptied', obs: o({ composer: '', hasTranscript: false }), verdict: 'delivered', detail: 'composer_cleared' },
    { name: 'a shell printed a newline after Enter while its command runs ($ cmd still the last line)', obs: o({ screen: { kind: 'busy' }, composer: 'sleep 12; echo x', hasTranscript: false, newlineAfterEnter: true }), verdict: 'delivered', detail: 'echo' },
    { name: 'the same screen without the newline is not proof', obs: o({ screen: { kind: 'busy' }, composer: 'sleep 12; echo x', hasTranscript: false }), verdict: 'wait' },
    { name: 'no transcript: gave up with the text in the box', obs: o({ hasTranscript: false, sinceEnterMs: 8_000, totalMs: T.giveUpMs, enterRetries: 1 }), verdict: 'failed', detail: 'still in the input box after 2 Enter presses' },
    { name: 'no transcript: gave up with a dialog on screen', obs: o({ hasTranscript: false, screen: trust, composer: null, totalMs: T.giveUpMs }), verdict: 'failed', detail: 'a dialog is showing' },
    { name: 'no transcript: gave up without any evidence', obs: o({ hasTranscript: false, screen: { kind: 'unknown' }, composer: null, totalMs: T.giveUpMs }), verdict: 'failed', detail: 'no evidence' },
    // With a transcript only the record of this text proves delivery (issue 12: Claude swallowed `/word` and emptied its box).
    { name: 'transcript: busy and the box is empty is not proof', obs: o({ screen: { kind: 'busy' }, composer: '' }), verdict: 'wait' },
    { name: 'transcript: a permission prompt is not proof either', obs: o({ screen: perm, composer: null }), verdict: 'wait' },
    { name: 'transcript: box emptied, record not there yet', obs: o({ composer: '', totalMs: 3_000 }), verdict: 'wait' },
    { name: 'transcript: box emptied and still no record: clear and send once more', obs: o({ composer: '', totalMs: T.transcriptProofMs }), verdict: 'resend', detail: 'did not record' },
    { name: 'transcript: no record after the second send: failed', obs: o({ composer: '', totalMs: T.transcriptProofMs, sends: 2 }), verdict: 'failed', detail: 'did not record' },
    { name: 'transcript: busy without a record is given time (never sent twice while it may be working on it)', obs: o({ screen: { kind: 'busy' }, composer: '', totalMs: T.transcriptProofMs }), verdict: 'wait' },
    { name: 'transcript: busy too long without a record: failed', obs: o({ screen: { kind: 'busy' }, composer: '', totalMs: T.transcriptGiveUpMs }), verdict: 'failed', detail: 'did not record' },
    // Steered into a working CLI (issue 30.4): it sits in the CLI's own queue until its next step; never resent.
    { name: 'steered: the CLI still works long after, box empty: wait (no give-up, no resend)', obs: o({ screen: { kind: 'busy' }, composer: '', totalMs: 10 * T.transcriptGiveUpMs, steered: true }), verdict: 'wait' },
    { name: 'steered: the CLI stopped working just now (its record may still be unwritten): wait', obs: o({ screen: { kind: 'ready' }, composer: '', totalMs: T.transcriptGiveUpMs, steered: true, sinceBusyMs: T.transcriptProofMs - 1 }), verdict: 'wait' },
    { name: 'steered: the CLI stopped working a while ago without a record: failed', obs: o({ screen: { kind: 'ready' }, composer: '', totalMs: T.transcriptGiveUpMs, steered: true, sinceBusyMs: T.transcriptProofMs }), verdict: 'failed', detail: 'did not record' },
    { name: 'steered: recorded', obs: o({ screen: { kind: 'busy' }, composer: '', userTurnSeen: true, steered: true }), verdict: 'delivered', detail: 'transcript' },
    { name: 'transcript: a dialog instead of the record is not sent into again', obs: o({ screen: trust, composer: null, totalMs: T.transcriptProofMs }), verdict: 'failed', detail: 'a dialog is showing' },
    { name: 'text still there, too early to re-press', obs: o({}), verdict: 'wait' },
    { name: 'text still there after the wait: press Enter again', obs: o({ sinceEnterMs: T.repressAfterMs, totalMs: T.repressAfterMs }), verdict: 'press_enter_again' },
    { name: 'already re-pressed once: no third Enter', obs: o({ sinceEnterMs: 5_000, totalMs: 6_000, enterRetries: 1 }), verdict: 'wait' },
    { name: 'text left after two Enters and the proof time: cleared and sent once more', obs: o({ sinceEnterMs: 9_000, totalMs: T.transcriptProofMs, enterRetries: 1 }), verdict: 'resend', detail: 'still in the input box' },
    { name: 'a dialog is showing: never re-press blindly', obs: o({ screen: trust, composer: 'hello', sinceEnterMs: 5_000, totalMs: 5_000 }), verdict: 'wait' },
    { name: 'the CLI exited', obs: o({ screen: { kind: 'exited' } }), verdict: 'failed', detail: 'exited' },
  ];
  it.each(cases)('$name', ({ obs, verdict, detail }) => {
    const v = judgeDelivery(obs);
    expect(v.verdict).toBe(verdict);
    if (v.verdict === 'delivered') expect(v.evidence).toBe(detail);
    if (v.verdict === 'failed' || v.verdict === 'resend') expect(v.reason).toContain(detail);
  });
});

describe('literal prompts per CLI (issue 12)', () => {
  const cases: [keyof typeof LITERAL_TEXT, string, string][] = [
    ['claude-code', '!touch /var/tmp/x', ' !touch /var/tmp/x'],
    ['claude-code', '/notacommand please', ' /notacommand please'],
    ['claude-code', '#remember this', '#remember this'],
    ['claude-code', '@file and ? & are prompts', '@file and ? & are prompts'],
    ['codex', '!rm -rf ~', ' !rm -rf ~'],
    ['codex', '/word x', ' /word x'],
    ['codex', 'plain 你好 🎉', 'plain 你好 🎉'],
    ['gemini', '!ls', '!ls'],
    ['shell', '!!', '!!'],
    ['custom', '/x', '/x'],
  ];
  it.each(cases)('%s: %j is sent as %j', (cli, text, sent) => {
    expect(literalPrompt(LITERAL_TEXT[cli], text)).toBe(sent);
  });

  it.each([
    ['the record holds the text as sent', 'hello world', 'hello world', true],
    ['the CLI trimmed the escape space', '!touch x', '!touch x', true],
    ['Claude wraps a long paste', '<pasted_content id="1">line one\nline two</pasted_content>', 'line one\r\nline two', true],
    ['Claude turned a tab into spaces', 'a    b', 'a\tb', true],
    ['a bash-mode record is not the prompt', '<bash-input>touch x</bash-input>', '!touch x', false],
    ['another prompt', 'something else', 'hello', false],
    ['an empty message never matches', 'anything', '   ', false],
  ])('transcript match: %s', (_n, recorded, sent, match) => {
    expect(transcriptShowsText(recorded, sent)).toBe(match);
  });
});
