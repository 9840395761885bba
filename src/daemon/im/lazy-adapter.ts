// An IM adapter whose implementation is imported on first use: the daemon registers its stored sessions before it
// pays for the Lark SDK (≈0.6 s to import, issue 14), so `status` answers with every session while the SDK loads.
import type { CardModel } from '../../shared/card-model.js';
import type { CardRef, ChatPlace, ConnectionState, ImAdapter, ImHandlers, ImResult, InboundAttachment, MediaLimits, OutboundMedia, TextStream, TextStreamLimits } from './types.js';

export class LazyImAdapter implements ImAdapter {
  private loaded: ImAdapter | undefined;
  private loading: Promise<ImAdapter> | undefined;

  constructor(
    readonly appId: string,
    readonly botName: string,
    private readonly load: () => Promise<ImAdapter>,
  ) {}

  /** Imports and builds the real adapter once; every call waits for it. */
  ready(): Promise<ImAdapter> {
    this.loading ??= this.load().then((im) => (this.loaded = im));
    return this.loading;
  }

  get mediaLimits(): MediaLimits | undefined {
    return this.loaded?.mediaLimits;
  }

  async connect(handlers: ImHandlers): Promise<ImResult<void>> {
    return (await this.ready()).connect(handlers);
  }

  state(): { state: ConnectionState; detail?: string } {
    return this.loaded?.state() ?? { state: this.loading ? 'connecting' : 'stopped' };
  }

  async sendText(place: ChatPlace, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    return (await this.ready()).sendText(place, text, replyTo);
  }

  async sendCard(place: ChatPlace, card: CardModel, replyTo?: string): Promise<ImResult<CardRef>> {
    return (await this.ready()).sendCard(place, card, replyTo);
  }

  async updateCard(ref: CardRef, card: CardModel): Promise<ImResult<void>> {
    return (await this.ready()).updateCard(ref, card);
  }

  /** Before the adapter loads no card was replaced yet: a card stands for itself. */
  resolveCard(ref: CardRef): CardRef {
    return this.loaded?.resolveCard?.(ref) ?? ref;
  }

  async uploadImage(png: Uint8Array): Promise<ImResult<{ imageRef: string }>> {
    return (await this.ready()).uploadImage(png);
  }

  async uploadFile(data: Uint8Array, fileName: string): Promise<ImResult<{ fileRef: string }>> {
    const im = await this.ready();
    return im.uploadFile ? im.uploadFile(data, fileName) : unsupported('uploadFile');
  }

  async sendMedia(place: ChatPlace, media: OutboundMedia, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    const im = await this.ready();
    return im.sendMedia ? im.sendMedia(place, media, replyTo) : unsupported('sendMedia');
  }

  async downloadAttachment(att: InboundAttachment, maxBytes: number): Promise<ImResult<Uint8Array>> {
    const im = await this.ready();
    return im.downloadAttachment ? im.downloadAttachment(att, maxBytes) : unsupported('downloadAttachment');
  }

  get textStreamLimits(): TextStreamLimits | undefined {
    return this.loaded?.textStreamLimits;
  }

  async openTextStream(place: ChatPlace, opts: { title: string; replyTo?: string }): Promise<ImResult<TextStream>> {
    const im = await this.ready();
    return im.openTextStream ? im.openTextStream(place, opts) : unsupported('openTextStream');
  }

  async sendMention(place: ChatPlace, userId: string, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    const im = await this.ready();
    return im.sendMention ? im.sendMention(place, userId, text, replyTo) : unsupported('sendMention');
  }

  async pinChat(place: ChatPlace, userId: string, on: boolean): Promise<ImResult<void>> {
    const im = await this.ready();
    return im.pinChat ? im.pinChat(place, userId, on) : unsupported('pinChat');
  }

  async buzz(messageId: string, userId: string): Promise<ImResult<void>> {
    const im = await this.ready();
    return im.buzz ? im.buzz(messageId, userId) : unsupported('buzz');
  }

  async react(messageId: string, emoji: string): Promise<ImResult<void>> {
    return (await this.ready()).react(messageId, emoji);
  }

  async dmUser(userId: string, text: string): Promise<ImResult<{ messageId: string }>> {
    return (await this.ready()).dmUser(userId, text);
  }

  /** Never loaded: nothing to dispose (and nothing is imported just to be disposed). */
  async dispose(): Promise<void> {
    if (this.loading) await (await this.loading).dispose();
  }
}

function unsupported<T>(what: string): ImResult<T> {
  return { ok: false, code: 'unsupported', message: `this chat cannot ${what}`, retryable: false };
}

/** A member added to ImAdapter must be forwarded here too: this fails to compile until it is. */
type Unforwarded = Exclude<keyof ImAdapter, keyof LazyImAdapter>;
export const LAZY_ADAPTER_FORWARDS_ALL: [Unforwarded] extends [never] ? true : never = true;
