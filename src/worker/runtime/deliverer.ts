// Delivers one message: has-session probe, text, Enter after the adapter's delay, then proof from evidence.
import type { Logger } from '../../shared/log.js';
import type { SessionBackend } from '../backend/types.js';
import type { CliAdapter } from '../cli/types.js';
import { DELIVERY_TIMING, judgeDelivery, type DeliveryEvidence, type DeliveryTiming } from '../lifecycle/delivery.js';
import type { QueuedMessage } from '../lifecycle/input-machine.js';
import { lookAt, sleep } from './pane.js';

export type DeliveryResult =
  | { result: 'delivered'; evidence: DeliveryEvidence; enterRetries: number }
  | { result: 'failed'; reason: string }
  | { result: 'lost'; reason: string };

export interface DelivererDeps {
  backend: SessionBackend;
  adapter: CliAdapter;
  log: Logger;
  /** Count of user turns the transcript has recorded so far (evidence when it grows). */
  userTurnsSeen(): number;
  /** Reads the transcript now instead of waiting for the next poll. */
  pollTranscript(): Promise<void>;
  /** Called just before the text goes in (the shell adapter snapshots the pane for its final output). */
  beforeSend?(message: QueuedMessage): Promise<void>;
  timing?: Partial<DeliveryTiming>;
}

export async function deliver(deps: DelivererDeps, message: QueuedMessage): Promise<DeliveryResult> {
  const timing = { ...DELIVERY_TIMING, ...deps.timing };
  // Once running, a message costs one has-session probe and the send: no screen polling before sending.
  const probe = await deps.backend.probe();
  if (probe.state === 'missing') return { result: 'lost', reason: 'the tmux session is gone' };
  if (probe.state === 'exists' && probe.paneDead) return { result: 'lost', reason: `the CLI exited (status ${probe.exitStatus ?? '?'})` };
  await deps.beforeSend?.(message);
  const turnsBefore = deps.userTurnsSeen();
  // The adapter's submit method: `paste` sends even a short line as one bracketed paste (multi-line always is).
  const typed = await deps.backend.sendText(message.text, { paste: deps.adapter.submit.method === 'paste' });
  if (!typed.ok) return typed.code === 'missing' ? { result: 'lost', reason: typed.message } : { result: 'failed', reason: `typing failed: ${typed.message}` };
  await sleep(deps.adapter.submit.enterDelayMs);
  // Watch the output from the moment Enter goes in: a line-oriented program answers it with a newline.
  let newlineAfterEnter = false;
  const watch = deps.adapter.submit.newlineProvesEnter
    ? deps.backend.onOutput((text) => {
        if (text.includes('\n')) newlineAfterEnter = true;
      })
    : null;
  try {
    return await confirm();
  } finally {
    watch?.dispose();
  }

  async function confirm(): Promise<DeliveryResult> {
    const firstEnterAt = Date.now();
    let lastEnterAt = firstEnterAt;
    let enterRetries = 0;
    const enter = await deps.backend.sendKey('enter');
    if (!enter.ok) return { result: 'failed', reason: `Enter failed: ${enter.message}` };
    const hasTranscript = deps.adapter.transcript !== null && !message.raw;
    for (;;) {
      await sleep(timing.checkEveryMs);
      if (hasTranscript) await deps.pollTranscript();
      const look = await lookAt(deps.backend, deps.adapter);
      if (!look.ok) {
        if (look.code === 'missing') return { result: 'lost', reason: look.message };
        continue;
      }
      const now = Date.now();
      const verdict = judgeDelivery({
        sinceEnterMs: now - lastEnterAt,
        totalMs: now - firstEnterAt,
        userTurnSeen: deps.userTurnsSeen() > turnsBefore,
        screen: look.look.screen,
        composer: look.look.composer,
        enterRetries,
        hasTranscript,
        newlineAfterEnter,
      }, timing);
      switch (verdict.verdict) {
        case 'delivered':
          return { result: 'delivered', evidence: verdict.evidence, enterRetries };
        case 'failed':
          return { result: 'failed', reason: verdict.reason };
        case 'press_enter_again': {
          enterRetries += 1;
          deps.log.info({ turnId: message.turnId }, 'delivery: text still in the input box; pressing Enter again');
          const again = await deps.backend.sendKey('enter');
          if (!again.ok) return { result: 'failed', reason: `Enter failed: ${again.message}` };
          lastEnterAt = Date.now();
          break;
        }
        case 'wait':
          break;
      }
    }
  }
}
