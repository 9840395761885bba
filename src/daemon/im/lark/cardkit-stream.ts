// Typewriter text for Feishu: a CardKit card entity in streaming mode, sent by card_id, whose one markdown element is
// given the whole text so far with a strictly increasing `sequence`, then closed (streaming_mode false).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../../platform/log.js';
import type { ImResult, TextStream, TextStreamLimits } from '../types.js';
import type { ChatPlace } from '../../ground/anchor.js';
import type { ApiResult, LarkApi } from './client.js';
import type { ApiKind } from './delivery.js';
import { escapeLarkMarkdown, larkMarkdownCost, neutralizeTextTags } from './lark-escape.js';

export const CARDKIT_STREAM = {
  /** The element the text streams into (a letter first, ≤ 20 characters). */
  elementId: 'answer',
  /** Escaped text per card: the whole card must stay under Feishu's 30 KB, header and JSON quoting included. */
  partBytes: 24 * 1024,
  /** CardKit streaming takes ≤ 10 operations a second per card; 150 ms keeps clear of the edge. */
  minIntervalMs: 150,
  /** Chat-list preview length. */
  summaryChars: 50,
} as const;

export const CARDKIT_LIMITS: TextStreamLimits = { partBytes: CARDKIT_STREAM.partBytes, cost: larkMarkdownCost, minIntervalMs: CARDKIT_STREAM.minIntervalMs };

interface Body { code?: number; msg?: string; data?: { card_id?: string } }

export interface CardkitDeps {
  api: LarkApi;
  retry<T>(kind: ApiKind, op: () => Promise<ApiResult<T>>): Promise<ApiResult<T>>;
  /** Sends an interactive message body (reply in the topic when replyTo is given); resolves with its message id. */
  post(place: ChatPlace, content: string, replyTo?: string): Promise<ApiResult<string>>;
  log: Logger;
}

/** One bot's CardKit streams; remembers when the app cannot use CardKit so later answers go as text at once. */
export class CardkitStreams {
  private unavailable: string | null = null;

  constructor(private readonly deps: CardkitDeps) {}

  async open(place: ChatPlace, title: string, replyTo?: string): Promise<ImResult<TextStream>> {
    if (this.unavailable) return { ok: false, code: 'unsupported', message: this.unavailable, retryable: false };
    const card = {
      schema: '2.0',
      config: {
        update_multi: true, streaming_mode: true, summary: { content: preview(title) },
        streaming_config: { print_frequency_ms: { default: 30 }, print_step: { default: 2 }, print_strategy: 'fast' },
      },
      header: { template: 'green', title: { tag: 'plain_text', content: title } },
      body: { elements: [{ tag: 'markdown', element_id: CARDKIT_STREAM.elementId, content: '' }] },
    };
    const created = await this.deps.retry('send', () => this.deps.api.call<Body>(
      'create card entity',
      (c, auth) => c.cardkit.v1.card.create({ data: { type: 'card_json', data: JSON.stringify(card) } }, auth) as Promise<Body>,
    ));
    if (!created.ok) {
      // A refusal (no cardkit scope, an old private deployment without the API) will not change: stop asking.
      if (created.code === 'refused') {
        this.unavailable = created.message;
        this.deps.log.warn({ code: created.larkCode, detail: created.message }, 'CardKit unavailable for this bot; answers go as text messages');
      }
      return { ok: false, code: created.code === 'refused' ? 'unsupported' : created.code, message: created.message, retryable: created.retryable };
    }
    const cardId = created.value.data?.card_id;
    if (!cardId) return { ok: false, code: 'invalid_response', message: 'create card entity answered without a card_id', retryable: false };
    const sent = await this.deps.post(place, JSON.stringify({ type: 'card', data: { card_id: cardId } }), replyTo);
    if (!sent.ok) return { ok: false, code: sent.code, message: sent.message, retryable: sent.retryable };
    return { ok: true, value: new CardkitStream(this.deps, cardId, sent.value) };
  }
}

class CardkitStream implements TextStream {
  private sequence = 0;
  private shown = '';

  constructor(private readonly deps: CardkitDeps, private readonly cardId: string, readonly messageId: string) {}

  async update(text: string): Promise<ImResult<void>> {
    if (text === this.shown) return { ok: true, value: undefined };
    const content = escapeLarkMarkdown(text);
    const r = await this.deps.retry('patch', () => {
      const sequence = ++this.sequence;
      return this.deps.api.call('stream card text', (c, auth) => c.cardkit.v1.cardElement.content(
        { path: { card_id: this.cardId, element_id: CARDKIT_STREAM.elementId }, data: { content, sequence, uuid: randomUUID() } }, auth));
    });
    if (!r.ok) return { ok: false, code: r.code, message: r.message, retryable: r.retryable };
    this.shown = text;
    return { ok: true, value: undefined };
  }

  async close(text: string): Promise<ImResult<void>> {
    const last = await this.update(text);
    const settings = JSON.stringify({ config: { streaming_mode: false, summary: { content: preview(text) } } });
    const r = await this.deps.retry('patch', () => {
      const sequence = ++this.sequence;
      return this.deps.api.call('close card stream', (c, auth) => c.cardkit.v1.card.settings({ path: { card_id: this.cardId }, data: { settings, sequence, uuid: randomUUID() } }, auth));
    });
    if (!last.ok) return last;
    return r.ok ? { ok: true, value: undefined } : { ok: false, code: r.code, message: r.message, retryable: r.retryable };
  }
}

/** The chat-list preview: one line, short, and a mention tag in it broken (it is plain text, but never risk a ping). */
function preview(text: string): string {
  const flat = neutralizeTextTags(text.replace(/\s+/g, ' ').trim());
  return flat.length > CARDKIT_STREAM.summaryChars ? `${flat.slice(0, CARDKIT_STREAM.summaryChars - 1)}…` : flat;
}
