// An IM adapter whose implementation is imported on first use: the daemon registers its stored sessions before it
// pays for the Lark SDK (≈0.6 s to import, issue 14), so `status` answers with every session while the SDK loads.
import type { CardModel } from '../../shared/card-model.js';
import type { CardRef, ImAdapter, ImHandlers, ImResult, MediaLimits, TextStreamLimits } from './types.js';
import type { ChatPlace } from '../ground/anchor.js';

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

  async sendText(place: ChatPlace, text: string, replyTo?: string): Promise<ImResult<{ messageId: string }>> {
    return (await this.ready()).sendText(place, text, replyTo);
  }

  async sendCard(place: ChatPlace, card: CardModel, replyTo?: string): Promise<ImResult<CardRef>> {
    return (await this.ready()).sendCard(place, card, replyTo);
  }

  async updateCard(ref: CardRef, card: CardModel): Promise<ImResult<void>> {
    return (await this.ready()).updateCard(ref, card);
  }

  async uploadImage(png: Uint8Array): Promise<ImResult<{ imageRef: string }>> {
    return (await this.ready()).uploadImage(png);
  }

  get textStreamLimits(): TextStreamLimits | undefined {
    return this.loaded?.textStreamLimits;
  }

  // One getter per optional member, alike on purpose: spelled out, each is checked against ImAdapter's type (a loop
  // over names would need declaration merging and casts, and the check at the end of this file would then pass unseen).
  // Optional members exist exactly when the loaded adapter has them (callers test for them). Events and sends only
  // happen after connect, which loads the adapter, so they are read once it is there.
  get uploadFile(): ImAdapter['uploadFile'] {
    return this.optional('uploadFile');
  }

  get sendMedia(): ImAdapter['sendMedia'] {
    return this.optional('sendMedia');
  }

  get downloadAttachment(): ImAdapter['downloadAttachment'] {
    return this.optional('downloadAttachment');
  }

  get openTextStream(): ImAdapter['openTextStream'] {
    return this.optional('openTextStream');
  }

  get sendMention(): ImAdapter['sendMention'] {
    return this.optional('sendMention');
  }

  get pinChat(): ImAdapter['pinChat'] {
    return this.optional('pinChat');
  }

  get buzz(): ImAdapter['buzz'] {
    return this.optional('buzz');
  }

  private optional<K extends 'uploadFile' | 'sendMedia' | 'downloadAttachment' | 'openTextStream' | 'sendMention' | 'pinChat' | 'buzz'>(name: K): ImAdapter[K] {
    const im = this.loaded;
    const f = im?.[name] as ((...args: unknown[]) => unknown) | undefined;
    return (f ? f.bind(im) : undefined) as ImAdapter[K];
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

/** A member added to ImAdapter must be forwarded here too: this fails to compile until it is. */
type Unforwarded = Exclude<keyof ImAdapter, keyof LazyImAdapter>;
export const LAZY_ADAPTER_FORWARDS_ALL: [Unforwarded] extends [never] ? true : never = true;
