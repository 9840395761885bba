// Delivers one message: has-session probe, literal text, Enter after the adapter's delay, then proof from evidence;
// a second send (composer cleared first) when the proof does not come, and a cleared composer after a failure.
import type { Logger } from '../../platform/log.js';
import type { KeyName } from '../../shared/keys.js';
import { failure, failureText, type Failure } from '../../shared/failure.js';
import type { SessionBackend } from '../backend/types.js';
import { literalPrompt, transcriptShowsText } from '../cli/literal-text.js';
import type { CliAdapter } from '../cli/types.js';
import { DELIVERY_TIMING, judgeDelivery, type DeliveryEvidence, type DeliveryTiming } from '../lifecycle/delivery.js';
import type { QueuedMessage } from '../lifecycle/input-machine.js';
import { lookAt, sleep } from './pane.js';

export type DeliveryResult =
  | { result: 'delivered'; evidence: DeliveryEvidence; enterRetries: number; sends: number }
  | { result: 'failed'; reason: string; failure: Failure }
  | { result: 'lost'; reason: string };

export interface DelivererDeps {
  backend: SessionBackend;
  adapter: CliAdapter;
  log: Logger;
  /** Count of user turns the transcript has recorded so far. */
  userTurnsSeen(): number;
  /** The texts of the user turns recorded since the count was `from`. */
  userTurnTextsSince(from: number): readonly string[];
  /** Reads the transcript now instead of waiting for the next poll. */
  pollTranscript(): Promise<void>;
  /** Called just before the text goes in (the shell adapter snapshots the pane for its final output). */
  beforeSend?(message: QueuedMessage): Promise<void>;
  timing?: Partial<DeliveryTiming>;
}

export const COMPOSER_CLEARING = {
  /**
   * Ctrl-K and Ctrl-U empty the current line wherever the cursor is, in Claude, Codex, Gemini and readline (Codex
   * puts the cursor at the start of a refused /command, where Ctrl-U alone does nothing); Backspace then joins the
   * line above (Gemini's Ctrl-U stops at the line start). Harmless on an empty composer, unlike Ctrl-C (which quits
   * Codex and Gemini there) or Esc (which interrupts a turn).
   */
  keys: ['ctrl_k', 'ctrl_u', 'backspace'] as readonly KeyName[],
  /** Rounds of (lines + 1) key groups, each followed by a look at the composer. */
  rounds: 4,
  /** Enough pairs for a composer the screen shows in full; CLIs fold long pastes into one placeholder line. */
  maxPairsPerRound: 80,
  settleMs: 200,
} as const;

/** Empties the composer (verified on screen). True when it is empty or no composer is showing. */
export async function clearComposer(backend: SessionBackend, adapter: CliAdapter): Promise<boolean> {
  for (let round = 0; round < COMPOSER_CLEARING.rounds; round++) {
    const look = await lookAt(backend, adapter);
    if (!look.ok) return false;
    const text = look.look.composer;
    if (text === null || text === '') return true;
    const pairs = Math.min(COMPOSER_CLEARING.maxPairsPerRound, text.split('\n').length + 1);
    for (let i = 0; i < pairs; i++) for (const k of COMPOSER_CLEARING.keys) await backend.sendKey(k);
    await sleep(COMPOSER_CLEARING.settleMs);
  }
  const last = await lookAt(backend, adapter);
  return last.ok && (last.look.composer === null || last.look.composer === '');
}

export async function deliver(deps: DelivererDeps, message: QueuedMessage): Promise<DeliveryResult> {
  const timing = { ...DELIVERY_TIMING, ...deps.timing };
  // Once running, a message costs one has-session probe and the send: no screen polling before sending.
  const probe = await deps.backend.probe();
  if (probe.state === 'missing') return { result: 'lost', reason: 'the tmux session is gone' };
  if (probe.state === 'exists' && probe.paneDead) return { result: 'lost', reason: `the CLI exited (status ${probe.exitStatus ?? '?'})` };
  if (message.clearFirst && !(await clearComposer(deps.backend, deps.adapter))) return await failed(failure('box_not_cleared'));
  await deps.beforeSend?.(message);
  const turnsBefore = deps.userTurnsSeen();
  // A prompt goes in literally (a leading `!` or `/` escaped per CLI); a CLI command (raw) as typed.
  const text = message.raw ? message.text : literalPrompt(deps.adapter.literal, message.text);
  const hasTranscript = deps.adapter.transcript !== null && !message.raw;
  const recorded = (): boolean => deps.userTurnTextsSince(turnsBefore).some((r) => transcriptShowsText(r, message.text));

  let newlineAfterEnter = false;
  const watch = deps.adapter.submit.newlineProvesEnter
    ? deps.backend.onOutput((out) => {
        if (out.includes('\n')) newlineAfterEnter = true;
      })
    : null;
  const firstAt = Date.now();
  try {
    for (let sends = 1; ; sends++) {
      const typed = await typeIt();
      if (typed) return typed;
      const outcome = await confirm(sends);
      if (outcome !== 'resend') return outcome;
      deps.log.info({ turnId: message.turnId }, 'delivery: no transcript record of the message; clearing the input box and sending it once more');
      if (!(await clearComposer(deps.backend, deps.adapter))) return await failed(failure('box_not_cleared'));
    }
  } finally {
    watch?.dispose();
  }

  async function typeIt(): Promise<DeliveryResult | null> {
    // The adapter's submit method: `paste` sends even a short line as one bracketed paste (multi-line always is).
    const typed = await deps.backend.sendText(text, { paste: deps.adapter.submit.method === 'paste' });
    if (!typed.ok) return typed.code === 'missing' ? { result: 'lost', reason: typed.message } : await failed(failure('typing_failed', typed.message));
    await sleep(deps.adapter.submit.enterDelayMs);
    // One look before Enter: a dialog that came up meanwhile would take the Enter as its answer.
    const look = await lookAt(deps.backend, deps.adapter);
    if (!message.raw && look.ok && look.look.screen.kind === 'selection') return failed(failure('dialog_showing', look.look.screen.title));
    newlineAfterEnter = false;
    return null;
  }

  /** Not delivered: the text must not stay in the composer to be sent with a later prompt. */
  async function failed(why: Failure): Promise<DeliveryResult> {
    const cleared = await clearComposer(deps.backend, deps.adapter).catch(() => false);
    if (!cleared) deps.log.warn({ turnId: message.turnId }, 'delivery failed and the input box could not be cleared');
    return { result: 'failed', reason: failureText('en', why), failure: why };
  }

  async function confirm(sends: number): Promise<DeliveryResult | 'resend'> {
    const sendAt = Date.now();
    let lastEnterAt = sendAt;
    let lastBusyAt = sendAt;
    let enterRetries = 0;
    const enter = await deps.backend.sendKey('enter');
    if (!enter.ok) return failed(failure('enter_failed', enter.message));
    for (;;) {
      await sleep(timing.checkEveryMs);
      if (deps.adapter.transcript) await deps.pollTranscript();
      const look = await lookAt(deps.backend, deps.adapter);
      if (!look.ok) {
        if (look.code === 'missing') return { result: 'lost', reason: look.message };
        continue;
      }
      const now = Date.now();
      if (look.look.screen.kind === 'busy') lastBusyAt = now;
      const verdict = judgeDelivery({
        sinceEnterMs: now - lastEnterAt,
        totalMs: now - sendAt,
        overallMs: now - firstAt,
        userTurnSeen: hasTranscript && recorded(),
        screen: look.look.screen,
        composer: look.look.composer,
        enterRetries,
        hasTranscript,
        sends,
        newlineAfterEnter,
        ...(message.steered ? { steered: true, sinceBusyMs: now - lastBusyAt } : {}),
      }, timing);
      switch (verdict.verdict) {
        case 'delivered':
          return { result: 'delivered', evidence: verdict.evidence, enterRetries, sends };
        case 'failed':
          return failed(verdict.failure);
        case 'resend':
          return 'resend';
        case 'press_enter_again': {
          enterRetries += 1;
          deps.log.info({ turnId: message.turnId }, 'delivery: text still in the input box; pressing Enter again');
          const again = await deps.backend.sendKey('enter');
          if (!again.ok) return failed(failure('enter_failed', again.message));
          lastEnterAt = Date.now();
          break;
        }
        case 'wait':
          break;
      }
    }
  }
}
