// The fake CardKit: card entities (POST /cardkit/v1/cards), streamed element text (PUT …/elements/:id/content) and
// settings (PATCH …/settings), with the platform's rules: JSON 2.0 only, an entity is sent once, `sequence` strictly
// increases per card, text is streamed only while `streaming_mode` is on, an element has a size cap, and each card
// takes at most 10 operations a second (the documented streaming pace).
import { CODES, PLATFORM_LIMITS, validateCard, type Refusal } from './validate.js';
import { nextId } from './envelopes.js';

export const CARDKIT_LIMITS = {
  /** Streaming guidance: at most 10 updates per second per card. */
  opsPerCardPerSecond: 10,
  /** One markdown element's text; past it the platform answers 230099 ("element exceeds the limit", ErrCode 11310). */
  elementBytes: 100 * 1024,
} as const;

/** CardKit business codes (as the SDK's stream controller and community reports name them). */
export const CARDKIT_CODES = {
  cardNotFound: 300301,
  alreadySent: 300311,
  streamingClosed: 300309,
  sequenceNotIncreasing: 300317,
  elementNotFound: 300302,
  elementTooLarge: CODES.cardContentFailed,
  frequency: CODES.frequency,
} as const;

export interface FakeCardEntity {
  cardId: string;
  appId: string;
  /** The card as it stands now (element text streamed in, settings merged). */
  card: Record<string, unknown>;
  lastSequence: number;
  /** Each accepted content update: element, text, sequence (for asserting what a reader watched grow). */
  updates: { elementId: string; content: string; sequence: number; at: number }[];
  settings: { sequence: number; settings: Record<string, unknown> }[];
  sentAs?: string;
  opTimes: number[];
}

export type CardkitReply = { ok: true; data: Record<string, unknown> } | { ok: false; refusal: Refusal };

const refuse = (code: number, msg: string): CardkitReply => ({ ok: false, refusal: { code, msg } });

function findElement(card: Record<string, unknown>, elementId: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  const walk = (n: unknown): void => {
    if (found || !n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    const o = n as Record<string, unknown>;
    if (o.element_id === elementId) found = o;
    else for (const v of Object.values(o)) walk(v);
  };
  walk((card.body as Record<string, unknown> | undefined)?.elements);
  return found;
}

export class FakeCardkit {
  readonly entities = new Map<string, FakeCardEntity>();

  constructor(private readonly knownImage: (appId: string, key: string) => boolean, private readonly onChange: (e: FakeCardEntity) => void) {}

  private takeOp(e: FakeCardEntity): boolean {
    const now = Date.now();
    e.opTimes = e.opTimes.filter((t) => now - t < 1000);
    if (e.opTimes.length >= CARDKIT_LIMITS.opsPerCardPerSecond) return false;
    e.opTimes.push(now);
    return true;
  }

  private owned(appId: string, cardId: string): FakeCardEntity | CardkitReply {
    const e = this.entities.get(cardId);
    return e && e.appId === appId ? e : refuse(CARDKIT_CODES.cardNotFound, 'card entity not found');
  }

  create(appId: string, body: Record<string, unknown> | null): CardkitReply {
    if (body?.type !== 'card_json' || typeof body.data !== 'string') return refuse(CODES.invalidParam, 'type must be card_json and data a JSON string');
    if (Buffer.byteLength(body.data) > PLATFORM_LIMITS.cardBytes) return refuse(CODES.bodyTooLarge, 'card over 30 KB');
    let card: unknown;
    try { card = JSON.parse(body.data); } catch { return refuse(CODES.invalidParam, 'data is not JSON'); }
    if ((card as Record<string, unknown> | null)?.schema !== '2.0') return refuse(CODES.cardContentFailed, 'card entities need card JSON 2.0');
    const bad = validateCard(card, (k) => this.knownImage(appId, k));
    if (bad) return { ok: false, refusal: bad };
    const cardId = nextId('7').replace(/[^0-9]/g, '').slice(0, 19).padEnd(19, '1');
    this.entities.set(cardId, { cardId, appId, card: card as Record<string, unknown>, lastSequence: 0, updates: [], settings: [], opTimes: [] });
    return { ok: true, data: { card_id: cardId } };
  }

  /** A message body `{"type":"card","data":{"card_id"}}`: the entity's card, once only. */
  attach(appId: string, cardId: unknown, messageId: string): { ok: true; card: Record<string, unknown> } | { ok: false; refusal: Refusal } {
    const e = typeof cardId === 'string' ? this.entities.get(cardId) : undefined;
    if (!e || e.appId !== appId) return { ok: false, refusal: { code: CARDKIT_CODES.cardNotFound, msg: 'card_id not found' } };
    if (e.sentAs) return { ok: false, refusal: { code: CARDKIT_CODES.alreadySent, msg: 'a card entity can be sent only once' } };
    e.sentAs = messageId;
    return { ok: true, card: e.card };
  }

  content(appId: string, cardId: string, elementId: string, body: Record<string, unknown> | null): CardkitReply {
    const e = this.owned(appId, cardId);
    if ('ok' in e) return e;
    const text = body?.content;
    const sequence = body?.sequence;
    if (typeof text !== 'string' || typeof sequence !== 'number' || !Number.isInteger(sequence)) return refuse(CODES.invalidParam, 'content (string) and sequence (integer) are required');
    if (!this.takeOp(e)) return refuse(CARDKIT_CODES.frequency, 'card update frequency limit');
    const config = (e.card.config ?? {}) as Record<string, unknown>;
    if (config.streaming_mode !== true) return refuse(CARDKIT_CODES.streamingClosed, 'streaming mode is closed');
    if (sequence <= e.lastSequence) return refuse(CARDKIT_CODES.sequenceNotIncreasing, `sequence ${sequence} is not greater than ${e.lastSequence}`);
    const el = findElement(e.card, elementId);
    if (!el || (el.tag !== 'markdown' && el.tag !== 'plain_text')) return refuse(CARDKIT_CODES.elementNotFound, `no text element ${elementId}`);
    if (Buffer.byteLength(text) > CARDKIT_LIMITS.elementBytes) return refuse(CARDKIT_CODES.elementTooLarge, 'element exceeds the limit (ErrCode: 11310)');
    e.lastSequence = sequence;
    el.content = text;
    e.updates.push({ elementId, content: text, sequence, at: Date.now() });
    this.onChange(e);
    return { ok: true, data: {} };
  }

  settings(appId: string, cardId: string, body: Record<string, unknown> | null): CardkitReply {
    const e = this.owned(appId, cardId);
    if ('ok' in e) return e;
    const sequence = body?.sequence;
    let settings: Record<string, unknown>;
    try { settings = JSON.parse(String(body?.settings)) as Record<string, unknown>; } catch { return refuse(CODES.invalidParam, 'settings must be a JSON string'); }
    if (typeof sequence !== 'number' || !Number.isInteger(sequence)) return refuse(CODES.invalidParam, 'sequence (integer) is required');
    if (!this.takeOp(e)) return refuse(CARDKIT_CODES.frequency, 'card update frequency limit');
    if (sequence <= e.lastSequence) return refuse(CARDKIT_CODES.sequenceNotIncreasing, `sequence ${sequence} is not greater than ${e.lastSequence}`);
    const config = settings.config as Record<string, unknown> | undefined;
    if (config && config.update_multi === false) return refuse(CODES.cardContentFailed, 'update_multi must stay true');
    e.lastSequence = sequence;
    e.card.config = { ...((e.card.config ?? {}) as Record<string, unknown>), ...(config ?? {}) };
    e.settings.push({ sequence, settings });
    this.onChange(e);
    return { ok: true, data: {} };
  }
}
