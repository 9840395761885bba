// Proven delivery verdicts, table-driven: what the screen and transcript show after Enter decides the next step.
import { describe, expect, it } from 'vitest';
import type { ScreenState } from '../../src/worker/cli/types.js';
import { DELIVERY_TIMING, judgeDelivery, type DeliveryObservation } from '../../src/worker/lifecycle/delivery.js';

const perm: ScreenState = { kind: 'selection', title: 'Do you want to proceed?', options: [{ label: '1. Yes' }, { label: '2. No' }], defaultIndex: 0, selectionKind: 'permission', id: 'p' };
const trust: ScreenState = { ...perm, title: 'Trust?', selectionKind: 'startup', id: 't' };
const base: DeliveryObservation = { sinceEnterMs: 200, totalMs: 200, userTurnSeen: false, screen: { kind: 'ready' }, composer: 'hello', enterRetries: 0, hasTranscript: true };
const o = (patch: Partial<DeliveryObservation>): DeliveryObservation => ({ ...base, ...patch });

describe('judgeDelivery', () => {
  const cases: { name: string; obs: DeliveryObservation; verdict: string; detail?: string }[] = [
    { name: 'transcript recorded the user turn', obs: o({ userTurnSeen: true }), verdict: 'delivered', detail: 'transcript' },
    { name: 'busy and the box is empty', obs: o({ screen: { kind: 'busy' }, composer: '' }), verdict: 'delivered', detail: 'busy' },
    { name: 'busy with no box visible', obs: o({ screen: { kind: 'busy' }, composer: null }), verdict: 'delivered', detail: 'busy' },
    { name: 'a permission prompt appeared', obs: o({ screen: perm, composer: null }), verdict: 'delivered', detail: 'busy' },
    { name: 'box emptied, no transcript to wait for', obs: o({ composer: '', hasTranscript: false }), verdict: 'delivered', detail: 'composer_cleared' },
    { name: 'a shell printed a newline after Enter while its command runs ($ cmd still the last line)', obs: o({ screen: { kind: 'busy' }, composer: 'sleep 12; echo x', hasTranscript: false, newlineAfterEnter: true }), verdict: 'delivered', detail: 'echo' },
    { name: 'the same screen without the newline is not proof', obs: o({ screen: { kind: 'busy' }, composer: 'sleep 12; echo x', hasTranscript: false }), verdict: 'wait' },
    { name: 'box emptied, transcript may still come', obs: o({ composer: '' }), verdict: 'wait' },
    { name: 'box emptied, transcript grace over', obs: o({ composer: '', totalMs: DELIVERY_TIMING.transcriptGraceMs }), verdict: 'delivered', detail: 'composer_cleared' },
    { name: 'text still there, too early to re-press', obs: o({}), verdict: 'wait' },
    { name: 'text still there after the wait: press Enter again', obs: o({ sinceEnterMs: DELIVERY_TIMING.repressAfterMs, totalMs: DELIVERY_TIMING.repressAfterMs }), verdict: 'press_enter_again' },
    { name: 'already re-pressed once: no third Enter', obs: o({ sinceEnterMs: 5_000, totalMs: 6_000, enterRetries: 1 }), verdict: 'wait' },
    { name: 'a dialog is showing: never re-press blindly', obs: o({ screen: trust, composer: 'hello', sinceEnterMs: 5_000, totalMs: 5_000 }), verdict: 'wait' },
    { name: 'gave up with the text in the box', obs: o({ sinceEnterMs: 8_000, totalMs: DELIVERY_TIMING.giveUpMs, enterRetries: 1 }), verdict: 'failed', detail: 'still in the input box after 2 Enter presses' },
    { name: 'gave up with a dialog on screen', obs: o({ screen: trust, composer: null, totalMs: DELIVERY_TIMING.giveUpMs }), verdict: 'failed', detail: 'a dialog is showing' },
    { name: 'gave up without any evidence', obs: o({ screen: { kind: 'unknown' }, composer: null, totalMs: DELIVERY_TIMING.giveUpMs }), verdict: 'failed', detail: 'no evidence' },
    { name: 'the CLI exited', obs: o({ screen: { kind: 'exited' } }), verdict: 'failed', detail: 'exited' },
  ];
  it.each(cases)('$name', ({ obs, verdict, detail }) => {
    const v = judgeDelivery(obs);
    expect(v.verdict).toBe(verdict);
    if (v.verdict === 'delivered') expect(v.evidence).toBe(detail);
    if (v.verdict === 'failed') expect(v.reason).toContain(detail);
  });
});
