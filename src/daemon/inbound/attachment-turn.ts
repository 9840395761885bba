// A prompt's attachments made ready for the CLI: saved within the bot's limits, named in the prompt, refusals told.
import type { BotConfig, CliSpec } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import type { ChatPlace, ImAdapter, InboundAttachment, InboundMessage } from '../im/types.js';
import { ImageWait } from './image-wait.js';
import { ATTACHMENT_ONLY_INSTRUCTION, inboundLimitsOf, promptWithAttachments } from './attachment-plan.js';
import { saveAttachments } from './save-attachments.js';

export interface AttachmentTurn {
  im: ImAdapter;
  cwd: string;
  cli: CliSpec;
  limits: BotConfig['attachments'] | undefined;
  t: Translate;
  log: Logger;
  /** Where the person is told what was not saved. */
  place: ChatPlace;
  replyTo: string;
}

/** Saves the attachments and returns the prompt naming them; what exceeded a limit is told to the person as well. */
export async function promptForAttachments(turn: AttachmentTurn, text: string, attachments: readonly InboundAttachment[]): Promise<string> {
  const res = await saveAttachments(turn.im, turn.cwd, attachments, new Date(), inboundLimitsOf(turn.limits));
  turn.log.info({ saved: res.saved.length, refused: res.refused.length }, 'attachments saved');
  if (res.refused.length > 0) await turn.im.sendText(turn.place, turn.t('attachments.notSaved', { list: res.refused.join('\n') }), turn.replyTo);
  const picturesOnly = attachments.length > 0 && attachments.every((a) => a.kind === 'image');
  const instruction = picturesOnly ? turn.t('attachments.lookAtImage') : ATTACHMENT_ONLY_INSTRUCTION;
  return promptWithAttachments(text, turn.cli, res.saved, res.refused, instruction);
}

/** The bot's wait for text after a lone picture: told in a reply to the picture, sent alone when the wait ends. */
export function imageWaitFor<D extends { sessionKey: string; anchor: { place: ChatPlace } }>(
  bot: () => BotConfig, im: ImAdapter, t: Translate, deliver: (decision: D, msg: Parameters<ImageWait<D>['take']>[1]) => Promise<void>,
): ImageWait<D> {
  return new ImageWait<D>({
    waitMs: () => (bot().attachments?.imageWaitSeconds ?? 60) * 1000,
    announce: async (decision, msg, seconds) => { await im.sendText(decision.anchor.place, t('attachments.imageWaiting', { seconds }), msg.messageId); },
    expire: deliver,
  });
}

/** Marks quoted words for the CLI: a label, then each line as `> …` (the quoted text never reads as the person's own). */
export const QUOTE_LABEL = 'Quoted message:';

export function quotedPrompt(text: string, quote: { text: string }): string {
  if (!quote.text.trim()) return text;
  const lines = quote.text.split('\n').map((l) => `> ${l}`).join('\n');
  return `${QUOTE_LABEL}\n${lines}\n\n${text}`;
}

/** A prompt that quotes a message brings the quote's text (marked) and its attachments (first) along. */
export function withQuote<D extends { text: string }>(decision: D, msg: InboundMessage): { decision: D; msg: InboundMessage } {
  if (!msg.quote) return { decision, msg };
  const attachments = [...msg.quote.attachments, ...(msg.attachments ?? [])];
  return { decision: { ...decision, text: quotedPrompt(decision.text, msg.quote) }, msg: { ...msg, ...(attachments.length ? { attachments } : {}) } };
}
