// ConsoleAdapter: the ImAdapter of the local console — a chat on the daemon's web page instead of a Feishu app.
import type { CardActionValue, CardModel } from '../../../shared/card-model.js';
import type { Locale } from '../../../shared/i18n.js';
import type { CliChoice } from '../../../shared/console-cli.js';
import type { ConsoleChoices, ConsoleClientMessage, ConsoleEntry, ConsoleMedia, ConsoleServerMessage } from '../../../shared/console-protocol.js';
import { CONSOLE_PROTOCOL_VERSION } from '../../../shared/console-protocol.js';
import type { Logger } from '../../../platform/log.js';
import type { CardActionReply, CardRef, ImAdapter, ImHandlers, ImResult, InboundAttachment, InboundMessage, MediaLimits, OutboundMedia } from '../types.js';
import type { ChatPlace } from '../../ground/anchor.js';
import { INBOUND_LIMITS, LARK_MEDIA_LIMITS } from '../media-limits.js';
import { imageExtension } from '../../../shared/image-kind.js';
import { ConsoleMediaStore } from './console-media.js';
import { ConsoleChat, newConsoleId } from './console-chat.js';
import { ConsoleChatFile } from './console-chat-file.js';

/**
 * The console's pseudo app id: sessions-console.json, bot-state-console.json and dedupe keys use it like a bot's.
 * Not `cli_…`, so it can never collide with a Feishu app.
 */
export const CONSOLE_APP_ID = 'console';
/** The one person at the console: whoever holds the console cookie, i.e. the owner of this larkmux. */
export const CONSOLE_USER_ID = 'console-user';
/** All topics live in one "group chat" whose topics are threads (the Feishu thread model, one session per topic). */
export const CONSOLE_CHAT_ID = 'console';

export interface ConsoleAdapterOptions {
  logger: Logger;
  /** LARKMUX_HOME: the conversation is saved there (console-chat.json); without it, it lives in memory only. */
  home?: string;
  clis: readonly CliChoice[];
  projects: readonly { label: string; path: string }[];
  /** The largest file the composer may attach: the console bot's `attachments.maxFileMiB` (the default), as on Feishu. */
  uploadBytes?: number;
  now?: () => number;
}

type Listener = (msg: ConsoleServerMessage) => void;

const ok = <T>(value: T): ImResult<T> => ({ ok: true, value });
const fail = (code: string, message: string): ImResult<never> => ({ ok: false, code, message, retryable: false });

export class ConsoleAdapter implements ImAdapter {
  readonly appId = CONSOLE_APP_ID;
  readonly botName = 'console';
  readonly chat = new ConsoleChat();
  /** Files and pictures both ways (the composer's uploads, `larkmux send`), served behind the console cookie. */
  readonly media = new ConsoleMediaStore();
  /** What a session may send: the same caps as Feishu, so `larkmux send` behaves alike in both. */
  readonly mediaLimits: MediaLimits = LARK_MEDIA_LIMITS;
  private handlers: ImHandlers | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly file: ConsoleChatFile | null;
  readonly uploadBytes: number;

  constructor(private readonly opts: ConsoleAdapterOptions) {
    this.now = opts.now ?? Date.now;
    this.uploadBytes = opts.uploadBytes ?? INBOUND_LIMITS.maxFileBytes;
    this.log = opts.logger.child({ im: 'console' });
    this.file = opts.home ? new ConsoleChatFile(opts.home, this.log) : null;
  }

  async connect(handlers: ImHandlers): Promise<ImResult<void>> {
    this.handlers = handlers;
    // A damaged file is moved aside and reported in the log; the console starts with an empty conversation.
    if (this.file) await this.file.attach(this.chat);
    handlers.onState?.('connected');
    return ok(undefined);
  }

  /** Every message for the pages; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private broadcast(msg: ConsoleServerMessage): void {
    for (const l of this.listeners) {
      try {
        l(msg);
      } catch (err) {
        this.log.warn({ err }, 'console listener threw');
      }
    }
  }

  choices(): ConsoleChoices {
    return { clis: this.opts.clis.map((c) => ({ id: c.id, label: c.label })), projects: [...this.opts.projects] };
  }

  hello(locale?: Locale): ConsoleServerMessage {
    return { type: 'hello', protocol: CONSOLE_PROTOCOL_VERSION, ...(locale ? { locale } : {}), choices: this.choices(), uploadBytes: this.uploadBytes, ...this.chat.snapshot() };
  }

  /** One file from the composer's upload POST, kept until a message names it (too large was refused before reading on). */
  upload(bytes: Uint8Array, name: string): ConsoleMedia {
    return this.media.add(bytes, name, 'image');
  }

  // ── from the page ──────────────────────────────────────────────────────────

  /** One parsed message from a page, on behalf of the console user; an error text for the page, or null. */
  async receive(userId: string, msg: ConsoleClientMessage): Promise<CardActionReply | { error: string } | void> {
    if (msg.type === 'action') return this.action(userId, msg.entryId, msg.value);
    const attached = (msg.attachments ?? []).map((ref) => this.media.get(ref)?.media);
    if (attached.some((m) => !m)) return { error: 'unknown_attachment' };
    if (!msg.text.trim() && attached.length === 0) return { error: 'empty_message' };
    const media = attached as ConsoleMedia[];
    if (msg.type === 'new_topic') return this.newTopic(userId, msg, media);
    return this.send(userId, msg.topicId, msg.text, media);
  }

  private newTopic(userId: string, msg: Extract<ConsoleClientMessage, { type: 'new_topic' }>, media: ConsoleMedia[]): { error: string } | void {
    const cli = this.opts.clis.find((c) => c.id === msg.cli);
    if (!cli) return { error: 'unknown_cli' };
    if (!this.opts.projects.some((p) => p.path === msg.project)) return { error: 'unknown_project' };
    // The topic is named after its first message, whose id anchors the session (as a Feishu topic's root does).
    const messageId = newConsoleId('m');
    const title = msg.text.split('\n').find((l) => l.trim())?.trim().slice(0, 80) ?? media[0]?.name.slice(0, 80) ?? '…';
    const topic = { id: messageId, title, cli: cli.label, project: msg.project, createdAt: this.now() };
    this.chat.addTopic(topic);
    this.broadcast({ type: 'topic', topic, requestId: msg.requestId });
    this.inbound(userId, messageId, { chatId: CONSOLE_CHAT_ID, chatType: 'group' }, msg.text, media, { cli: cli.spec, cwd: msg.project });
  }

  private send(userId: string, topicId: string, text: string, media: ConsoleMedia[]): { error: string } | void {
    const topic = this.chat.topic(topicId);
    if (!topic) return { error: 'unknown_topic' };
    // Every message carries the topic's choice: after /close the next message starts the same CLI in the same folder.
    const cli = this.opts.clis.find((c) => c.label === topic.cli);
    this.inbound(userId, newConsoleId('m'), { chatId: CONSOLE_CHAT_ID, chatType: 'group', rootId: topicId }, text, media, { ...(cli ? { cli: cli.spec } : {}), cwd: topic.project });
  }

  private inbound(userId: string, messageId: string, place: ChatPlace, text: string, media: ConsoleMedia[], newSession?: InboundMessage['newSession']): void {
    const topicId = place.rootId ?? messageId;
    const entry: ConsoleEntry = { kind: 'user', id: messageId, topicId, text, at: this.now(), ...(media.length ? { attachments: media } : {}) };
    // Attachments reach the CLI as a Feishu message's do: the router saves them through downloadAttachment.
    const attachments: InboundAttachment[] = media.map((m) => ({ kind: m.kind, key: m.ref, messageId, ...(m.name ? { name: m.name } : {}) }));
    this.chat.put(entry);
    this.broadcast({ type: 'entry', entry });
    const ev: InboundMessage = {
      kind: 'message', appId: this.appId, messageId, place, senderId: userId, senderType: 'user', text, mentionsBot: true, createTime: this.now(),
      ...(attachments.length ? { attachments } : {}), ...(newSession ? { newSession } : {}),
    };
    // Like a Feishu ACK: the page does not wait for the turn.
    void Promise.resolve(this.handlers?.onEvent(ev)).catch((err) => this.log.error({ err }, 'console message handler threw'));
  }

  private async action(userId: string, entryId: string, value: CardActionValue): Promise<CardActionReply | { error: string }> {
    const entry = this.chat.entry(entryId);
    if (!entry || entry.kind !== 'card' || !belongsTo(value, entry.card)) return { error: 'unknown_button' };
    const reply = await this.handlers?.onEvent({
      kind: 'card_action', appId: this.appId, eventId: newConsoleId('ev'), messageId: entryId, chatId: CONSOLE_CHAT_ID, operatorId: userId, value,
    });
    return reply ?? {};
  }

  // ── to the page ────────────────────────────────────────────────────────────

  private topicFor(place: ChatPlace, replyTo?: string): string | undefined {
    const id = place.rootId ?? (replyTo ? (this.chat.topicOf(replyTo) ?? replyTo) : undefined);
    return id && this.chat.topic(id) ? id : undefined;
  }

  async sendText(place: ChatPlace, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    return this.post(place, replyTo, (topicId) => ({ kind: 'text', id: newConsoleId('t'), topicId, text, at: this.now() }));
  }

  async sendCard(place: ChatPlace, card: CardModel, replyTo?: string): Promise<ImResult<CardRef>> {
    return this.post(place, replyTo, (topicId) => ({ kind: 'card', id: newConsoleId('c'), topicId, card, at: this.now() }));
  }

  /** Stores a new entry in the topic the place (or the message replied to) belongs to, and shows it on every page. */
  private post(place: ChatPlace, replyTo: string | undefined, entryIn: (topicId: string) => ConsoleEntry): ImResult<{ messageId: string }> {
    const topicId = this.topicFor(place, replyTo);
    if (!topicId) return fail('unknown_topic', 'the console topic is gone');
    const entry = entryIn(topicId);
    this.chat.put(entry);
    this.broadcast({ type: 'entry', entry });
    return ok({ messageId: entry.id });
  }

  async updateCard(ref: CardRef, card: CardModel): Promise<ImResult<void>> {
    const entry = this.chat.updateCard(ref.messageId, card);
    if (!entry) return fail('message_gone', 'the console card is gone');
    this.broadcast({ type: 'entry', entry });
    return ok(undefined);
  }

  async uploadImage(png: Uint8Array): Promise<ImResult<{ imageRef: string }>> {
    if (png.byteLength === 0) return fail('empty_image', 'refusing to keep an empty image');
    return ok({ imageRef: this.chat.addImage(png) });
  }

  async uploadFile(data: Uint8Array, fileName: string): Promise<ImResult<{ fileRef: string }>> {
    if (data.byteLength === 0) return fail('empty_file', 'refusing to keep an empty file');
    return ok({ fileRef: this.media.add(data, fileName, 'file').ref });
  }

  /** A picture (uploadImage) or file (uploadFile) as an entry of its own: inline, or a download behind the cookie. */
  async sendMedia(place: ChatPlace, media: OutboundMedia, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    const topicId = this.topicFor(place, replyTo);
    if (!topicId) return fail('unknown_topic', 'the console topic is gone');
    let held: ConsoleMedia | undefined;
    if (media.kind === 'file') held = this.media.get(media.fileRef)?.media;
    else {
      // Moved out of the screenshots (which leave as cards move on) so the picture stays while its entry does.
      const png = this.chat.image(media.imageRef);
      held = png ? this.media.add(png, `image.${imageExtension(png)}`, 'image') : undefined;
    }
    if (!held) return fail('media_gone', 'the uploaded file is gone');
    const entry: ConsoleEntry = { kind: 'media', id: newConsoleId('f'), topicId, media: held, at: this.now() };
    this.chat.put(entry);
    this.broadcast({ type: 'entry', entry });
    return ok({ messageId: entry.id });
  }

  /** The composer's upload named by a message, for the session's folder (save-attachments.ts, as for Feishu). */
  async downloadAttachment(att: InboundAttachment, maxBytes: number): Promise<ImResult<Uint8Array>> {
    const held = this.media.get(att.key);
    if (!held) return fail('media_gone', 'the attached file is gone (the daemon was restarted)');
    if (held.bytes.byteLength > maxBytes) return fail('too_large', `larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`);
    return ok(held.bytes);
  }

  async react(messageId: string, emoji: string): Promise<ImResult<void>> {
    const entry = this.chat.entry(messageId);
    if (!entry || entry.kind !== 'user') return fail('message_gone', 'the console message is gone');
    const next: ConsoleEntry = { ...entry, reaction: emoji.slice(0, 64) };
    this.chat.put(next);
    this.broadcast({ type: 'entry', entry: next });
    return ok(undefined);
  }

  async dmUser(_userId: string, text: string): Promise<ImResult<{ messageId: string }>> {
    this.broadcast({ type: 'direct', text });
    return ok({ messageId: newConsoleId('d') });
  }

  async dispose(): Promise<void> {
    this.handlers = null;
    this.listeners.clear();
    await this.file?.dispose();
  }
}

/** A tap is honoured only for the card it came from: the value must name that card's session (or picker). */
function belongsTo(value: CardActionValue, card: CardModel): boolean {
  if (value.action === 'project') return card.kind === 'picker' && card.anchorKey === value.anchorKey;
  if (value.action === 'adopt') return card.kind === 'adopt' && card.anchorKey === value.anchorKey;
  if (value.action === 'schedule') return card.kind === 'schedules' && card.rows.some((r) => r.scheduleId === value.scheduleId);
  if (card.kind === 'schedules') return false;
  if (card.kind === 'picker' || card.kind === 'adopt') return false;
  if (value.action === 'select') return card.kind === 'selection' && card.sessionId === value.sessionId && card.promptId === value.promptId;
  return card.kind === 'stream' && card.sessionId === value.sessionId;
}
