// The IM adapter contract: what the daemon's core needs from a chat platform (Feishu/Lark now, others later).
import type { CardActionValue, CardModel } from '../../shared/card-model.js';
import type { CliSpec } from '../../shared/config.js';
import type { CodePointCost } from '../../shared/utf8-parts.js';
import type { ChatPlace } from '../ground/anchor.js';

/** A picture or file carried by an inbound message, fetched later with `ImAdapter.downloadAttachment`. */
export interface InboundAttachment {
  kind: 'image' | 'file';
  /** The platform's resource key (Feishu: image_key / file_key). */
  key: string;
  /** The sender's file name, when the platform gives one. */
  name?: string;
  /** The message that owns the resource (a merged-forward child differs from the event's message). */
  messageId: string;
}

/** An inbound user message, already validated and normalised by the adapter. */
export interface InboundMessage {
  kind: 'message';
  appId: string;
  /** Platform event id (dedupe key when present) and message id (always the dedupe fallback). */
  eventId?: string;
  messageId: string;
  place: ChatPlace;
  senderId: string;
  senderType: 'user' | 'bot' | 'app';
  /** Plain text with mention placeholders of *this* bot removed and other mentions rendered as @name. */
  text: string;
  /** True when this bot was @-mentioned. */
  mentionsBot: boolean;
  /** Message types we do not handle (audio, sticker, …) arrive with text '' and this set. */
  unsupportedType?: string;
  /** Pictures and files (image and file messages, images in rich text). */
  attachments?: InboundAttachment[];
  /** The message this one explicitly quotes (a reply in the client; not merely the topic's root). */
  quotedId?: string;
  /** What the quoted message said and carried, read by the adapter; a prompt brings it along, marked as a quote. */
  quote?: { text: string; attachments: InboundAttachment[] };
  createTime: number;
  /**
   * What the person chose for the session this message opens, on platforms where a topic is created with a form
   * (the local console: project and CLI). Ignored when the topic already has a session; Feishu never sets it.
   */
  newSession?: { cli?: CliSpec; cwd?: string };
}

/** A tap on a card button. */
export interface InboundCardAction {
  kind: 'card_action';
  appId: string;
  eventId?: string;
  messageId: string;
  chatId: string;
  operatorId: string;
  value: CardActionValue;
  /** What the person typed into the card's text box (a form submit), kept exactly as typed. */
  typedText?: string;
}

export type InboundEvent = InboundMessage | InboundCardAction;

/** An inbound event the adapter could not read (missing fields, content that is not JSON, a foreign button value). */
export interface InboundRejected {
  appId: string;
  reason: string;
  eventId?: string;
  messageId?: string;
  /** Known when the event got far enough to say where it came from (so the router may answer there). */
  place?: ChatPlace;
  senderId?: string;
}

/** What the adapter answers to a card tap right away (must be fast: Feishu waits 3 s). */
export interface CardActionReply {
  toast?: { type: 'info' | 'success' | 'error' | 'warning'; content: string };
}

export type ImResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string; retryable: boolean };

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped';

export interface ImHandlers {
  onEvent(ev: InboundEvent): Promise<CardActionReply | void>;
  onState?(state: ConnectionState, detail?: string): void;
  /** Malformed events; the adapter has already logged them. Optional: ignore them if you like. */
  onRejected?(rejected: InboundRejected): void;
}

/** A handle on a card the adapter sent; the adapter keeps the platform ids (RenderState). */
export interface CardRef {
  messageId: string;
}

export type OutboundMedia = { kind: 'image'; imageRef: string } | { kind: 'file'; fileRef: string };

export interface MediaLimits {
  imageBytes: number;
  fileBytes: number;
}

/** A card whose text grows in place while a reader watches (Feishu: a CardKit entity in streaming mode). */
export interface TextStream {
  readonly messageId: string;
  /** Shows the whole text so far; each call extends the previous one. */
  update(text: string): Promise<ImResult<void>>;
  /** Shows the final text and ends streaming. */
  close(text: string): Promise<ImResult<void>>;
}

/** What one streamed card holds and how fast it may change. */
export interface TextStreamLimits {
  /** Largest text one stream carries, as counted by `cost` (escaping included). */
  partBytes: number;
  cost: CodePointCost;
  /** Least time between two updates of one stream (the platform's per-card pace). */
  minIntervalMs: number;
}

export interface ImAdapter {
  readonly appId: string;
  readonly botName: string;
  connect(handlers: ImHandlers): Promise<ImResult<void>>;
  sendText(place: ChatPlace, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>>;
  sendCard(place: ChatPlace, card: CardModel, replyTo?: string): Promise<ImResult<CardRef>>;
  /** Replaces a card's content (latest wins; the adapter coalesces and rate-limits). */
  updateCard(ref: CardRef, card: CardModel): Promise<ImResult<void>>;
  uploadImage(png: Uint8Array): Promise<ImResult<{ imageRef: string }>>;
  /** Uploads a file attachment. Optional: a chat that cannot carry files says so where one is sent. */
  uploadFile?(data: Uint8Array, fileName: string): Promise<ImResult<{ fileRef: string }>>;
  /** Posts an uploaded picture or file as a message of its own. */
  sendMedia?(place: ChatPlace, media: OutboundMedia, replyTo?: string): Promise<ImResult<{ messageId: string }>>;
  /** Downloads an inbound attachment; more than `maxBytes` is refused without keeping the rest. */
  downloadAttachment?(att: InboundAttachment, maxBytes: number): Promise<ImResult<Uint8Array>>;
  /** What the platform accepts, so the core can refuse early with a clear reason. */
  readonly mediaLimits?: MediaLimits;
  /**
   * Opens a streamed text card (the typewriter answer). Optional: without it, or when it fails, text goes as messages.
   * `unsupported` means the platform or app cannot stream at all (remembered; later calls fail at once).
   */
  openTextStream?(place: ChatPlace, opts: { title: string; replyTo?: string }): Promise<ImResult<TextStream>>;
  readonly textStreamLimits?: TextStreamLimits;
  react(messageId: string, emoji: string): Promise<ImResult<void>>;
  // Attention (issue 16); optional: a platform without them singles nobody out.
  /** A short text message that @-mentions one person (the text itself can mention nobody). */
  sendMention?(place: ChatPlace, userId: string, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>>;
  /** Pins (on) or unpins the chat at the top of one person's chat list. */
  pinChat?(place: ChatPlace, userId: string, on: boolean): Promise<ImResult<void>>;
  /** Buzzes one person about one of the bot's messages (an urgent notification). */
  buzz?(messageId: string, userId: string): Promise<ImResult<void>>;
  dmUser(userId: string, text: string): Promise<ImResult<{ messageId: string }>>;
  dispose(): Promise<void>;
}
