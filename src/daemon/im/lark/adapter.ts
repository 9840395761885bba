// LarkAdapter: the ImAdapter for Feishu/Lark — wires connection, event parsing, card rendering, client and delivery together.
import { randomUUID } from 'node:crypto';
import { APP_ID_RE, botLocale, type BotConfig } from '../../../shared/config.js';
import { t, type Locale } from '../../../shared/i18n.js';
import type { CardModel } from '../../../shared/card-model.js';
import { scrubSecrets, type Logger } from '../../../platform/log.js';
import { withDeadline } from '../../../platform/deadline.js';
import { readCapped } from '../../../platform/read-capped.js';
import { splitByBytes } from '../../../shared/utf8-parts.js';
import type { CardActionReply, CardRef, ConnectionState, ImAdapter, ImHandlers, ImResult, InboundAttachment, InboundEvent, InboundMessage, MediaLimits, OutboundMedia, TextStream, TextStreamLimits } from '../types.js';
import type { ChatPlace } from '../../ground/anchor.js';
import { renderCard } from './cards.js';
import { CARDKIT_LIMITS, CardkitStreams } from './cardkit-stream.js';
import { LarkApi, type ApiResult } from './client.js';
import { WebhookConnection, WsConnection, type LarkConnection, type RawEventSink } from './connection.js';
import { AppBudget, CardPatcher, DELIVERY_LIMITS, realClock, withRetries, type ApiKind, type Clock, type DeliveryLimits } from './delivery.js';
import type { LarkFailure } from './errors.js';
import { forwardedContent, quotedContent, parseCardActionEvent, parseMessageEvent, type Parsed } from './events.js';
import { fetchBotIdentity, type BotIdentity } from './identity.js';
import { neutralizeTextTags } from './lark-escape.js';
import { LarkAttentionApi } from './attention-api.js';
import { MENTIONABLE_ID } from '../../ground/attention.js';

// Feishu's upload limits live in ../media-limits.ts (the console shares them without loading the SDK).
import { LARK_MEDIA_LIMITS } from '../media-limits.js';

/** Feishu's file_type for an upload, by extension; everything else is a generic `stream`. */
const LARK_FILE_TYPES: Record<string, 'opus' | 'mp4' | 'pdf' | 'doc' | 'xls' | 'ppt'> = {
  opus: 'opus', mp4: 'mp4', pdf: 'pdf', doc: 'doc', docx: 'doc', xls: 'xls', xlsx: 'xls', ppt: 'ppt', pptx: 'ppt',
};

export const ADAPTER_TIMING = {
  /** Feishu shows error 200340 when a card callback is not answered within 3 s; we answer by 2.5 s whatever happens. */
  ackDeadlineMs: 2500,
  /** Text bodies are capped at 150 KB; longer text is split into messages of at most this many bytes. */
  maxTextBytes: 140 * 1024,
} as const;

export type LarkBotConfig = Pick<BotConfig, 'name' | 'appId' | 'appSecret' | 'domain' | 'events' | 'encryptKey' | 'verificationToken'> & Partial<Pick<BotConfig, 'locale'>>;

export interface LarkAdapterOptions {
  bot: LarkBotConfig;
  logger: Logger;
  /** Webhook mode only: where to listen. */
  webhook?: { host?: string; port: number; path?: string };
  limits?: Partial<DeliveryLimits>;
  clock?: Clock;
  ackDeadlineMs?: number;
}

interface CardOrigin {
  place: ChatPlace;
  replyTo?: string;
}

interface SentBody {
  code?: number;
  msg?: string;
  data?: { message_id?: string };
}

export class LarkAdapter implements ImAdapter {
  readonly appId: string;
  readonly botName: string;
  /** Cards are rendered in the bot's locale (status names, key and button words). */
  private readonly locale: Locale;
  readonly api: LarkApi;
  readonly mediaLimits: MediaLimits = LARK_MEDIA_LIMITS;
  readonly textStreamLimits: TextStreamLimits = CARDKIT_LIMITS;
  private readonly cardkit: CardkitStreams;
  private identity: BotIdentity | null = null;
  private connection: LarkConnection | null = null;
  private handlers: ImHandlers | null = null;
  private readonly limits: DeliveryLimits;
  private readonly clock: Clock;
  private readonly budget: AppBudget;
  private readonly patcher: CardPatcher;
  private readonly origins = new Map<string, CardOrigin>();
  private readonly attention: LarkAttentionApi;
  private readonly log: Logger;
  private disposed = false;
  /** A failure found before any transport started (bad app id, refused credentials). */
  private earlyFailure: { state: ConnectionState; detail: string } | null = null;

  constructor(private readonly opts: LarkAdapterOptions) {
    this.appId = opts.bot.appId;
    this.botName = opts.bot.name;
    this.locale = botLocale(opts.bot);
    this.log = opts.logger.child({ bot: opts.bot.name, appId: opts.bot.appId });
    this.api = new LarkApi({ appId: opts.bot.appId, appSecret: opts.bot.appSecret, domain: opts.bot.domain }, this.log);
    this.limits = { ...DELIVERY_LIMITS, ...opts.limits };
    this.clock = opts.clock ?? realClock;
    this.budget = new AppBudget(this.limits, this.clock);
    this.patcher = new CardPatcher({
      patch: (id, content) => this.api.call('patch card', (c, auth) => c.im.v1.message.patch({ path: { message_id: id }, data: { content } }, auth)),
      replace: (id, content) => this.replaceCard(id, content),
      budget: this.budget, limits: this.limits, clock: this.clock, log: this.log,
    });
    this.cardkit = new CardkitStreams({
      api: this.api, log: this.log,
      retry: (kind, op) => this.retry(kind, op),
      post: (place, content, replyTo) => this.post(place, 'interactive', content, replyTo),
    });
    this.attention = new LarkAttentionApi(this.api, (op) => this.retry('other', op), this.log);
  }

  async connect(handlers: ImHandlers): Promise<ImResult<void>> {
    this.handlers = handlers;
    if (this.opts.bot.events !== 'webhook' && !APP_ID_RE.test(this.appId)) {
      // The SDK's long connection logs and returns silently for such ids: never connects, never calls onError.
      return this.failEarly('bad_app_id', `app id "${this.appId}" is not cli_ followed by 16 hex digits; the long connection refuses it`);
    }
    const who = await fetchBotIdentity(this.api);
    if (who.ok) this.identity = who.value;
    else {
      this.log.warn({ code: who.code, detail: who.message }, 'could not read bot identity; mentions are matched by name');
      if (who.code === 'auth_failed') {
        // Credentials refused outright (wrong secret): report it now instead of waiting for the socket.
        return this.failEarly('auth_failed', `credentials refused: ${who.message}`);
      }
    }
    const sink: RawEventSink = { message: (d) => this.onRawMessage(d), cardAction: (d) => this.onRawCardAction(d) };
    const onState = (s: ConnectionState, d?: string) => this.handlers?.onState?.(s, d);
    const b = this.opts.bot;
    this.connection = b.events === 'webhook'
      ? new WebhookConnection({ host: this.opts.webhook?.host ?? '127.0.0.1', port: this.opts.webhook?.port ?? 0, path: this.opts.webhook?.path ?? `/lark/${b.appId}/events`, encryptKey: b.encryptKey, verificationToken: b.verificationToken }, sink, this.log, onState)
      : new WsConnection({ appId: b.appId, appSecret: b.appSecret, domain: b.domain }, sink, this.log, onState);
    return this.connection.start();
  }

  private failEarly(code: string, detail: string): ImResult<void> {
    this.earlyFailure = { state: 'failed', detail };
    this.log.error({ detail }, 'lark connection failed');
    this.handlers?.onState?.('failed', detail);
    return { ok: false, code, message: detail, retryable: false };
  }

  /** The connection as it stands (not part of ImAdapter: the daemon learns it from onState; tests read it here). */
  state(): { state: ConnectionState; detail?: string } {
    return this.connection?.state() ?? this.earlyFailure ?? { state: 'stopped' };
  }

  /** Port of the webhook listener (webhook mode), for tests and `status`. */
  get webhookPort(): number | undefined {
    return this.connection instanceof WebhookConnection ? this.connection.port : undefined;
  }

  get botOpenId(): string | undefined {
    return this.identity?.openId;
  }

  // ---- inbound ----

  private parseCtx() {
    return { appId: this.appId, botOpenId: this.identity?.openId, botName: this.identity?.name || this.botName, now: this.clock.now() };
  }

  private rejected(kind: string, r: Extract<Parsed<unknown>, { ok: false }>): void {
    this.log.warn({ kind, reason: r.reason, eventId: r.eventId, messageId: r.messageId }, 'inbound event rejected');
    try {
      this.handlers?.onRejected?.({ appId: this.appId, reason: r.reason, eventId: r.eventId, messageId: r.messageId, place: r.place, senderId: r.senderId });
    } catch (e) {
      this.log.error({ err: scrubSecrets((e as Error).message) }, 'onRejected handler threw');
    }
  }

  /** Calls the core's handler but never holds the ACK longer than the deadline; late work carries on. */
  private dispatch(ev: InboundEvent): Promise<CardActionReply | void> {
    const h = this.handlers;
    if (!h || this.disposed) return Promise.resolve();
    const work = Promise.resolve()
      .then(() => h.onEvent(ev))
      .catch((e: unknown) => {
        this.log.error({ err: scrubSecrets((e as Error)?.message ?? String(e)), kind: ev.kind }, 'event handler threw');
      });
    return withDeadline(work, this.opts.ackDeadlineMs ?? ADAPTER_TIMING.ackDeadlineMs, () => undefined);
  }

  private async onRawMessage(data: unknown): Promise<unknown> {
    const r = parseMessageEvent(data, this.parseCtx());
    if (!r.ok) { this.rejected('message', r); return undefined; }
    this.log.debug({ eventId: r.event.eventId, messageId: r.event.messageId, chatType: r.event.place.chatType }, 'message received');
    // Messages need no answer: do not hold the ACK for the whole turn (a merged forward first fetches its children).
    // A merged forward first fetches its children, a quoting reply its quoted message; anything else goes at once.
    if (r.event.unsupportedType !== 'merge_forward' && !r.event.quotedId) {
      void this.dispatch(r.event);
      return undefined;
    }
    const forward = r.event.unsupportedType === 'merge_forward' ? this.expandForward(r.event) : Promise.resolve(r.event);
    void forward.then((ev) => (ev.quotedId ? this.readQuote(ev) : ev)).then((ev) => this.dispatch(ev));
    return undefined;
  }

  /** A merged-forward message with its children's text and attachments; left as unsupported when they cannot be read. */
  private async expandForward(ev: InboundMessage): Promise<InboundMessage> {
    const r = await this.retry('send', () => this.api.call<{ code?: number; data?: { items?: unknown } }>(
      'get merged forward',
      (c, auth) => c.im.v1.message.get({ path: { message_id: ev.messageId } }, auth) as Promise<{ code?: number; data?: { items?: unknown } }>,
    ));
    if (!r.ok) {
      this.log.warn({ code: r.code, messageId: ev.messageId }, 'could not read a merged-forward message');
      return ev;
    }
    const { text, attachments } = forwardedContent(r.value.data?.items, ev.messageId);
    if (!text && attachments.length === 0) return ev;
    const { unsupportedType: _dropped, ...rest } = ev;
    // Forwarded words are someone else's: a leading label keeps a forwarded "/close" from being taken as a command.
    return { ...rest, text: text ? `Forwarded messages:\n${text}` : '', ...(attachments.length ? { attachments } : {}) };
  }

  /** A reply's quoted message, read back (GET /im/v1/messages/:id); without it the reply goes on as it is. */
  private async readQuote(ev: InboundMessage): Promise<InboundMessage> {
    const id = ev.quotedId!;
    const r = await this.retry('send', () => this.api.call<{ code?: number; data?: { items?: unknown } }>(
      'get quoted message',
      (c, auth) => c.im.v1.message.get({ path: { message_id: id } }, auth) as Promise<{ code?: number; data?: { items?: unknown } }>,
    ));
    if (!r.ok) {
      this.log.warn({ code: r.code, messageId: ev.messageId }, 'could not read a quoted message');
      return ev;
    }
    const quote = quotedContent(r.value.data?.items, id);
    return quote.text || quote.attachments.length ? { ...ev, quote } : ev;
  }

  private async onRawCardAction(data: unknown): Promise<unknown> {
    const r = parseCardActionEvent(data, this.parseCtx());
    if (!r.ok) {
      this.rejected('card_action', r);
      return { toast: { type: 'warning', content: t(this.locale, 'tap.buttonInactive') } };
    }
    const reply = await this.dispatch(r.event);
    return reply?.toast ? { toast: reply.toast } : undefined;
  }

  // ---- outbound ----

  private retry<T>(kind: ApiKind, op: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    return withRetries(kind, op, { budget: this.budget, limits: this.limits, clock: this.clock, isDisposed: () => this.disposed });
  }

  /** Sends a message to a chat or, with replyTo, as a reply (in the topic when the place is a thread). */
  private async post(place: ChatPlace, msgType: string, content: string, replyTo?: string): Promise<ApiResult<string>> {
    // One uuid per logical message: Feishu dedupes retries of the same uuid for an hour.
    const uuid = randomUUID();
    const inThread = !!(place.threadId || place.rootId);
    const res = await this.retry('send', () => replyTo
      ? this.api.call<SentBody>('reply', (c, auth) => c.im.v1.message.reply({ path: { message_id: replyTo }, data: { content, msg_type: msgType, reply_in_thread: inThread, uuid } }, auth) as Promise<SentBody>)
      : this.api.call<SentBody>('send', (c, auth) => c.im.v1.message.create({ params: { receive_id_type: 'chat_id' }, data: { receive_id: place.chatId, msg_type: msgType, content, uuid } }, auth) as Promise<SentBody>));
    if (!res.ok) return res;
    const id = res.value.data?.message_id;
    return id ? { ok: true, value: id } : { ok: false, code: 'invalid_response', message: 'send answered without a message_id', retryable: false };
  }

  async sendText(place: ChatPlace, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    let first: string | undefined;
    for (const part of splitByBytes(text, ADAPTER_TIMING.maxTextBytes)) {
      // A CLI's answer is text: an `<at user_id="all">` in it must not ping the group (lark-escape.ts).
      const r = await this.post(place, 'text', JSON.stringify({ text: neutralizeTextTags(part) }), replyTo);
      if (!r.ok) return toIm(r);
      first ??= r.value;
    }
    return { ok: true, value: { messageId: first ?? '' } };
  }

  async sendCard(place: ChatPlace, card: CardModel, replyTo?: string): Promise<ImResult<CardRef>> {
    const r = await this.post(place, 'interactive', JSON.stringify(renderCard(card, this.locale)), replyTo);
    if (!r.ok) return toIm(r);
    this.origins.set(r.value, { place, replyTo });
    return { ok: true, value: { messageId: r.value } };
  }

  async updateCard(ref: CardRef, card: CardModel): Promise<ImResult<void>> {
    const r = await this.patcher.update(ref.messageId, JSON.stringify(renderCard(card, this.locale)));
    return r.ok ? { ok: true, value: undefined } : toIm(r);
  }

  private async replaceCard(oldId: string, content: string): Promise<ApiResult<string>> {
    const origin = this.origins.get(oldId);
    if (!origin) return { ok: false, code: 'message_gone', message: `card ${oldId} cannot be patched and its chat is unknown`, retryable: false };
    let r = await this.post(origin.place, 'interactive', content, origin.replyTo);
    // The message we replied to may be gone too: fall back to the chat itself.
    if (!r.ok && origin.replyTo) r = await this.post(origin.place, 'interactive', content);
    if (r.ok) this.origins.set(r.value, origin);
    return r;
  }

  openTextStream(place: ChatPlace, opts: { title: string; replyTo?: string }): Promise<ImResult<TextStream>> {
    return this.cardkit.open(place, opts.title, opts.replyTo);
  }

  async uploadImage(png: Uint8Array): Promise<ImResult<{ imageRef: string }>> {
    if (png.byteLength === 0) return { ok: false, code: 'empty_image', message: 'refusing to upload an empty image', retryable: false };
    const image = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    const r = await this.retry('upload', () => this.api.call<{ image_key?: string } | null>(
      'upload image',
      (c, auth) => c.im.v1.image.create({ data: { image_type: 'message', image } }, auth),
      // The SDK returns res.data ({image_key}) and null on an HTTP-200 business error.
      (body) => !!body?.image_key,
    ));
    if (!r.ok) return toIm(r.code === 'invalid_response' ? { ...r, code: 'upload_failed', message: 'image upload refused (the platform answered without an image_key)' } : r);
    return { ok: true, value: { imageRef: r.value!.image_key! } };
  }

  async uploadFile(data: Uint8Array, fileName: string): Promise<ImResult<{ fileRef: string }>> {
    if (data.byteLength === 0) return { ok: false, code: 'empty_file', message: 'refusing to upload an empty file', retryable: false };
    const file = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
    const r = await this.retry('upload', () => this.api.call<{ file_key?: string } | null>(
      'upload file',
      (c, auth) => c.im.v1.file.create({ data: { file_type: LARK_FILE_TYPES[ext] ?? 'stream', file_name: fileName, file } }, auth),
      (body) => !!body?.file_key,
    ));
    if (!r.ok) return toIm(r.code === 'invalid_response' ? { ...r, code: 'upload_failed', message: 'file upload refused (the platform answered without a file_key)' } : r);
    return { ok: true, value: { fileRef: r.value!.file_key! } };
  }

  async downloadAttachment(att: InboundAttachment, maxBytes: number): Promise<ImResult<Uint8Array>> {
    const r = await this.retry('upload', () => this.api.call<{ data?: Buffer; tooLarge?: boolean }>(
      'download attachment',
      async (c, auth) => {
        const res = await c.im.v1.messageResource.get({ path: { message_id: att.messageId, file_key: att.key }, params: { type: att.kind } }, auth);
        return readDownload(res.getReadableStream(), maxBytes);
      },
      (body) => !!body?.data || !!body?.tooLarge,
    ));
    if (!r.ok) return toIm(r);
    if (r.value.tooLarge || !r.value.data) return { ok: false, code: 'too_large', message: `larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`, retryable: false };
    return { ok: true, value: r.value.data };
  }

  async sendMedia(place: ChatPlace, media: OutboundMedia, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    const r = media.kind === 'image'
      ? await this.post(place, 'image', JSON.stringify({ image_key: media.imageRef }), replyTo)
      : await this.post(place, 'file', JSON.stringify({ file_key: media.fileRef }), replyTo);
    return r.ok ? { ok: true, value: { messageId: r.value } } : toIm(r);
  }

  async react(messageId: string, emoji: string): Promise<ImResult<void>> {
    const r = await this.retry('reaction', () => this.api.call('react', (c, auth) => c.im.v1.messageReaction.create({ path: { message_id: messageId }, data: { reaction_type: { emoji_type: emoji } } }, auth)));
    return r.ok ? { ok: true, value: undefined } : toIm(r);
  }

  async sendMention(place: ChatPlace, userId: string, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    if (!MENTIONABLE_ID.test(userId)) return { ok: false, code: 'bad_user', message: 'not an open id', retryable: false };
    const r = await this.post(place, 'text', JSON.stringify({ text: `<at user_id="${userId}"></at> ${neutralizeTextTags(text)}` }), replyTo);
    return r.ok ? { ok: true, value: { messageId: r.value } } : toIm(r);
  }

  pinChat(place: ChatPlace, userId: string, on: boolean): Promise<ImResult<void>> {
    return this.attention.pinChat(place, userId, on);
  }

  buzz(messageId: string, userId: string): Promise<ImResult<void>> {
    return this.attention.buzz(messageId, userId);
  }

  async dmUser(userId: string, text: string): Promise<ImResult<{ messageId: string }>> {
    const uuid = randomUUID();
    const r = await this.retry('send', () => this.api.call<SentBody>('dm', (c, auth) => c.im.v1.message.create({ params: { receive_id_type: 'open_id' }, data: { receive_id: userId, msg_type: 'text', content: JSON.stringify({ text }), uuid } }, auth) as Promise<SentBody>));
    if (!r.ok) return toIm(r);
    const id = r.value.data?.message_id;
    return id ? { ok: true, value: { messageId: id } } : { ok: false, code: 'invalid_response', message: 'send answered without a message_id', retryable: false };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.patcher.dispose();
    await this.connection?.dispose();
    this.connection = null;
    this.handlers = null;
  }
}

/** Reads a download stream, stopping (and dropping what came) once it passes maxBytes; a stream error rejects. */
async function readDownload(stream: NodeJS.ReadableStream, maxBytes: number): Promise<{ data?: Buffer; tooLarge?: boolean }> {
  const read = await readCapped(stream, maxBytes, { onOverflow: 'destroy' });
  if (read.kind === 'failed') throw read.error;
  return read.kind === 'too_large' ? { tooLarge: true } : { data: read.data };
}

function toIm(f: LarkFailure): { ok: false; code: string; message: string; retryable: boolean } {
  return { ok: false, code: f.code, message: f.message, retryable: f.retryable };
}
