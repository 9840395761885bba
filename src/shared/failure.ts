// Why a message or a launch failed, as data: the worker decides the code, the daemon says it in the bot's language.
// The English text (for logs and for older daemons) and the Chinese text come from the one catalogue.
import { z } from 'zod';
import { translator, type Locale, type MessageKey, type Translate } from './i18n.js';

export const FAILURE_CODES = [
  'dialog_showing',
  'text_left',
  'not_recorded',
  'enter_not_recorded',
  'no_evidence',
  'exited_while_sending',
  'typing_failed',
  'enter_failed',
  'box_not_cleared',
  'exited_after_restart',
  'tmux_unavailable',
  'launch_prepare_failed',
  'tmux_start_failed',
  'not_ready',
  'session_closed',
  'may_not_have_arrived',
] as const;
export const FailureCodeSchema = z.enum(FAILURE_CODES);
export type FailureCode = z.infer<typeof FailureCodeSchema>;

/** `detail` is technical text from the machine (a dialog title, tmux's message) shown as it came. */
export const FailureSchema = z.strictObject({ code: FailureCodeSchema, detail: z.string().max(1024).optional() });
export type Failure = z.infer<typeof FailureSchema>;

export function failure(code: FailureCode, detail?: string | number): Failure {
  return detail === undefined ? { code } : { code, detail: String(detail).slice(0, 1024) };
}

const KEYS: Record<FailureCode, MessageKey> = {
  dialog_showing: 'failure.dialog_showing',
  text_left: 'failure.text_left',
  not_recorded: 'failure.not_recorded',
  enter_not_recorded: 'failure.enter_not_recorded',
  no_evidence: 'failure.no_evidence',
  exited_while_sending: 'failure.exited_while_sending',
  typing_failed: 'failure.typing_failed',
  enter_failed: 'failure.enter_failed',
  box_not_cleared: 'failure.box_not_cleared',
  exited_after_restart: 'failure.exited_after_restart',
  tmux_unavailable: 'failure.tmux_unavailable',
  launch_prepare_failed: 'failure.launch_prepare_failed',
  tmux_start_failed: 'failure.tmux_start_failed',
  not_ready: 'failure.not_ready',
  session_closed: 'failure.session_closed',
  may_not_have_arrived: 'failure.may_not_have_arrived',
};

/** The failure in words, with a translator already bound to the reader's language. */
export function describeFailure(tr: Translate, f: Failure): string {
  return tr(KEYS[f.code], { detail: f.detail ?? '' });
}

export function failureText(locale: Locale, f: Failure): string {
  return describeFailure(translator(locale), f);
}
