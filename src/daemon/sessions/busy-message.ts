// A message that arrives while its session's CLI works (issue 30 item 4): pure decisions on what its card offers and
// what a tap on it does. The default is to wait; "Steer now" types it into the running CLI (only where the CLI takes
// input while it works, cli-spec.ts CLI_STEERS); "Interrupt and send" stops the turn and sends it next. Who may tap is
// the router's decision (the buttons' command has the operators' level, commands/busy-buttons.ts).
import { cliSteersOf, type CliSpec } from '../../shared/cli-spec.js';
import type { CardButton } from '../../shared/card-model.js';
import type { MessageKey, Translate } from '../../shared/i18n.js';
import type { HurryHow, HurryOutcome, SessionStatus } from '../../shared/ipc.js';

/** Where the waiting message is when the tap is handled, as the daemon knows it (the worker's queue has the last word). */
export type QueueState = 'queued' | 'sent' | 'unknown';

/** A turn begun while the CLI is in one of these states waits in the worker's queue behind the running turn. */
export function waitsBehindTurn(status: SessionStatus): boolean {
  return status === 'working';
}

/** The choices a waiting message's card offers, in card order (waiting itself needs no button: it is the default). */
export function busyChoices(cli: CliSpec): HurryHow[] {
  return cliSteersOf(cli) ? ['steer', 'interrupt'] : ['interrupt'];
}

const BUTTON_LABEL: Record<HurryHow, MessageKey> = { steer: 'busy.button.steer', interrupt: 'busy.button.interrupt' };

export function busyButtons(sessionId: string, turnId: string, cli: CliSpec, t: Translate): CardButton[] {
  return busyChoices(cli).map((how) => ({
    label: t(BUTTON_LABEL[how]),
    style: how === 'interrupt' ? 'danger' : 'primary',
    value: { action: 'hurry', sessionId, turnId, how },
  }));
}

export type TapOutcome =
  /** The worker is asked to take the message out of its queue and carry out the choice. */
  | { kind: 'act'; how: HurryHow }
  /** The message already went to the CLI (the turn ended meanwhile, or another tap won): nothing is sent twice. */
  | { kind: 'already_sent' }
  /** The message is not known to this session any more (closed, or from before a restart). */
  | { kind: 'gone' }
  /** Steer on a CLI that cannot take it (a stale or forged tap): refused, the message keeps waiting. */
  | { kind: 'not_offered' };

/** What a tap on a waiting message's card does, by the message's queue state and the session's CLI. */
export function busyTapOutcome(how: HurryHow, queue: QueueState, cli: CliSpec): TapOutcome {
  if (how === 'steer' && !cliSteersOf(cli)) return { kind: 'not_offered' };
  if (queue === 'sent') return { kind: 'already_sent' };
  if (queue === 'unknown') return { kind: 'gone' };
  return { kind: 'act', how };
}

/** Carries out a tap: passes it to the worker when the decision is to act (a worker that is gone: the message is too). */
export function hurryWaiting(queue: QueueState, cli: CliSpec, how: HurryHow, send: () => string): TapOutcome {
  const outcome = busyTapOutcome(how, queue, cli);
  if (outcome.kind === 'act' && send() !== 'sent') return { kind: 'gone' };
  return outcome;
}

/** The daemon's answer to a tap it did not pass on, in the chat. */
export const TAP_REFUSAL: Record<Exclude<TapOutcome['kind'], 'act'>, MessageKey> = {
  already_sent: 'busy.alreadySent',
  gone: 'busy.gone',
  not_offered: 'busy.notOffered',
};

/** What the card says once the worker carried out (or declined) a choice. */
export function hurryNotice(outcome: HurryOutcome, how: HurryHow): MessageKey {
  switch (outcome) {
    case 'steered':
      return 'busy.done.steered';
    case 'interrupted':
      return 'busy.done.interrupted';
    case 'not_queued':
      return 'busy.alreadySent';
    case 'waits':
      return how === 'steer' ? 'busy.steerWaits' : 'busy.interruptWaits';
  }
}
