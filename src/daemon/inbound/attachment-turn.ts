// A prompt made ready for the CLI: its attachments saved within the bot's limits, refusals told, the typed text composed.
import type { BotConfig, CliSpec } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import { cliInputOf } from '../../shared/cli-spec.js';
import type { ImAdapter, InboundAttachment, InboundMessage } from '../im/types.js';
import type { ChatPlace } from '../ground/anchor.js';
import { ImageWait } from './image-wait.js';
import { inboundLimitsOf } from '../im/media-limits.js';
import { ATTACHMENT_ONLY_INSTRUCTION } from './attachment-plan.js';
import { saveAttachments, type SavedAttachments } from './save-attachments.js';
import { typedPrompt } from './typed-prompt.js';
import { excludeUploadsOnce } from './git-exclude.js';
import type { OpenUploadFolder } from '../../platform/upload-dir.js';

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
  /** The session's folder is on another host: files are written there (remote-upload.ts), not on this machine. */
  remoteFolder?: OpenUploadFolder;
}

/** What one prompt types into the CLI, and what the turn card tells about it. */
export interface TypedTurn {
  text: string;
  /** A quote was left out (a program CLI gets none). */
  quoteLeftOut: boolean;
  /** `<sender's name> → <stored path>` per saved file with a name: the name is shown, never typed. */
  savedAs: string[];
}

/** A sender's file name on one line, for the card (its markdown is escaped there). */
const shownName = (name: string): string => name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');

/**
 * The text typed for a prompt (typed-prompt.ts): the person's words; for a model CLI also the quoted message and its
 * attachments. Attachments are saved first; what exceeded a limit is told to the person in the chat.
 */
export async function typedForTurn(turn: AttachmentTurn, own: string, msg: InboundMessage): Promise<TypedTurn> {
  const program = cliInputOf(turn.cli) === 'program';
  const quote = msg.quote;
  const attachments = [...(program ? [] : (quote?.attachments ?? [])), ...(msg.attachments ?? [])];
  const res = attachments.length ? await saveFor(turn, attachments) : { saved: [], refused: [], failed: [] };
  const picturesOnly = attachments.length > 0 && attachments.every((a) => a.kind === 'image');
  const instruction = picturesOnly ? turn.t('attachments.lookAtImage') : ATTACHMENT_ONLY_INSTRUCTION;
  const files = res.saved.map((f) => f.path);
  const text = typedPrompt(turn.cli, { own, quote: quote?.text, files, notSaved: [...res.refused, ...res.failed].map((r) => r.typed), instruction });
  const savedAs = res.saved.flatMap((f) => (f.name ? [`${shownName(f.name)} → ${f.path}`] : []));
  return { text, quoteLeftOut: program && quote !== undefined && (quote.text.trim() !== '' || quote.attachments.length > 0), savedAs };
}

async function saveFor(turn: AttachmentTurn, attachments: readonly InboundAttachment[]): Promise<SavedAttachments> {
  // Before anything lands in a repository's work tree, git is told to leave it out (`git add -A` must not commit it).
  // (A folder on another host is not a repository here: its exclude file is left as it is.)
  if (!turn.remoteFolder) {
    const excluded = await excludeUploadsOnce(turn.cwd).catch((e: Error) => turn.log.warn({ err: e.message }, 'could not add .larkmux/ to the repository\'s info/exclude'));
    if (excluded === 'added') turn.log.info('.larkmux/ added to the repository\'s info/exclude');
  }
  const res = await saveAttachments(turn.im, turn.cwd, attachments, new Date(), inboundLimitsOf(turn.limits), turn.remoteFolder);
  turn.log.info({ saved: res.saved.length, refused: res.refused.length, failed: res.failed.length, ...(res.blocked ? { blocked: res.blocked } : {}), ...(turn.remoteFolder ? { remote: true } : {}) }, 'attachments saved');
  if (res.blocked) await turn.im.sendText(turn.place, turn.t('attachments.linkRefused', { path: res.blocked }), turn.replyTo);
  else if (res.refused.length > 0) await turn.im.sendText(turn.place, turn.t('attachments.notSaved', { list: res.refused.map((r) => r.shown).join('\n') }), turn.replyTo);
  // A copy that failed is told with its reason; the message itself still goes (the CLI is told a file is missing).
  if (res.failed.length > 0) await turn.im.sendText(turn.place, turn.t('attachments.copyFailed', { list: res.failed.map((r) => r.shown).join('\n') }), turn.replyTo);
  return res;
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
