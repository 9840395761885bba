// Parses raw Feishu events (as the SDK's dispatcher hands them over) into InboundMessage / InboundCardAction, never throwing.
import { ANSWER_FORM } from './attention-card.js';
import { z } from 'zod';
import { CardActionValueSchema } from '../../../shared/card-model.js';
import type { InboundAttachment, InboundCardAction, InboundMessage } from '../types.js';
import type { ChatPlace } from '../../ground/anchor.js';

export interface ParseContext {
  appId: string;
  /** This bot's open_id (from bot/v3/info); without it, mentions are matched by bot name. */
  botOpenId?: string;
  botName?: string;
  now: number;
}

export type Parsed<T> =
  | { ok: true; event: T }
  | { ok: false; reason: string; eventId?: string; messageId?: string; place?: ChatPlace; senderId?: string };

const MentionSchema = z.object({
  key: z.string(),
  id: z.object({ open_id: z.string().optional() }).partial().optional(),
  name: z.string().optional(),
});
type Mention = z.infer<typeof MentionSchema>;

const MessageEventSchema = z.object({
  event_id: z.string().optional(),
  sender: z.object({
    sender_id: z.object({ open_id: z.string().optional(), user_id: z.string().optional(), union_id: z.string().optional() }).optional(),
    sender_type: z.string().optional(),
  }),
  message: z.object({
    message_id: z.string().min(1),
    chat_id: z.string().min(1),
    chat_type: z.string(),
    message_type: z.string().min(1),
    content: z.string(),
    root_id: z.string().optional(),
    parent_id: z.string().optional(),
    thread_id: z.string().optional(),
    create_time: z.string().optional(),
    mentions: z.array(MentionSchema).optional(),
  }),
});

const CardActionSchemaV2 = z.object({
  event_id: z.string().optional(),
  operator: z.object({ open_id: z.string().min(1) }),
  action: z.object({ value: z.unknown(), form_value: z.record(z.string(), z.unknown()).optional() }),
  context: z.object({ open_message_id: z.string().min(1), open_chat_id: z.string().optional() }),
});

/** Legacy (1.0) card callback body: flat fields. */
const CardActionSchemaV1 = z.object({
  open_id: z.string().min(1),
  open_message_id: z.string().min(1),
  open_chat_id: z.string().optional(),
  action: z.object({ value: z.unknown() }),
});

/** zod issues as one short line naming the fields. */
function describe(err: z.ZodError): string {
  return err.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'event'}: ${i.message}`).join('; ');
}

function parseJsonObject(s: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Message types we turn into text; anything else arrives with `unsupportedType`. */
const TEXT_TYPES = new Set(['text', 'post']);

/** Received posts are {title, content:[[…]]}; some clients wrap them per locale ({zh_cn:{…}}). */
function postBody(content: Record<string, unknown>): Record<string, unknown> | undefined {
  return Array.isArray(content.content) ? content : (Object.values(content).find((v) => v && typeof v === 'object' && Array.isArray((v as Record<string, unknown>).content)) as Record<string, unknown> | undefined);
}

/** Flattens a rich-text (post) body: paragraphs of text/a/at/code elements → plain lines. */
export function postToText(content: Record<string, unknown>): string {
  const body = postBody(content);
  if (!body) return '';
  const lines: string[] = [];
  if (typeof body.title === 'string' && body.title) lines.push(body.title);
  for (const para of body.content as unknown[]) {
    if (!Array.isArray(para)) continue;
    lines.push(para.map((el: Record<string, unknown>) => {
      if (el.tag === 'at') return String(el.user_id ?? '');
      if (el.tag === 'text' || el.tag === 'a' || el.tag === 'code_block' || el.tag === 'md') return String(el.text ?? '');
      return '';
    }).join(''));
  }
  return lines.join('\n');
}

function isThisBot(m: Mention, ctx: ParseContext): boolean {
  if (ctx.botOpenId) return m.id?.open_id === ctx.botOpenId;
  return !!ctx.botName && m.name === ctx.botName;
}

/** The image keys of `img` elements in a rich-text (post) body, in order. */
export function postImageKeys(content: Record<string, unknown>): string[] {
  const body = postBody(content);
  const keys: string[] = [];
  for (const para of (body?.content as unknown[] | undefined) ?? []) {
    if (!Array.isArray(para)) continue;
    for (const el of para as Record<string, unknown>[]) if (el?.tag === 'img' && typeof el.image_key === 'string' && el.image_key) keys.push(el.image_key);
  }
  return keys;
}

/**
 * The children of a merged-forward message, from GET /im/v1/messages/:id (`items`: the parent, then children with
 * `upper_message_id`). Pictures and files become attachments downloaded *through the parent* (the resource API refuses
 * a child's id); text and rich text become lines of the prompt.
 */
export function forwardedContent(items: unknown, parentId: string): { text: string; attachments: InboundAttachment[] } {
  const children = (Array.isArray(items) ? (items as Record<string, unknown>[]) : []).filter((it) => it && it.upper_message_id === parentId);
  return itemsContent(children, parentId);
}

/** Text lines and attachments of message items (GET /im/v1/messages/:id); resources are fetched through `owner`. */
function itemsContent(items: readonly Record<string, unknown>[], owner: string): { text: string; attachments: InboundAttachment[] } {
  const lines: string[] = [];
  const attachments: InboundAttachment[] = [];
  for (const it of items) {
    const content = parseJsonObject(String((it.body as Record<string, unknown> | undefined)?.content ?? ''));
    if (!content) continue;
    if (it.msg_type === 'image' && typeof content.image_key === 'string') attachments.push({ kind: 'image', key: content.image_key, messageId: owner });
    else if (it.msg_type === 'file' && typeof content.file_key === 'string') {
      attachments.push({ kind: 'file', key: content.file_key, messageId: owner, ...(typeof content.file_name === 'string' ? { name: content.file_name } : {}) });
    } else if (it.msg_type === 'text' && typeof content.text === 'string') lines.push(content.text);
    else if (it.msg_type === 'post') {
      lines.push(postToText(content));
      for (const key of postImageKeys(content)) attachments.push({ kind: 'image', key, messageId: owner });
    }
  }
  return { text: lines.join('\n'), attachments };
}

/** The quoted message itself (the first item with its id): its text and its pictures and files, fetched by its own id. */
export function quotedContent(items: unknown, quotedId: string): { text: string; attachments: InboundAttachment[] } {
  const own = (Array.isArray(items) ? (items as Record<string, unknown>[]) : []).filter((it) => it && it.message_id === quotedId).slice(0, 1);
  return itemsContent(own, quotedId);
}

/**
 * The message a reply explicitly quotes. In a thread every message carries the topic's root as parent, so there a
 * parent counts only when it is not the root; outside a thread any parent is a quote.
 */
export function explicitQuoteId(msg: { parent_id?: string; root_id?: string; thread_id?: string }): string | undefined {
  if (!msg.parent_id) return undefined;
  if (msg.thread_id && msg.parent_id === msg.root_id) return undefined;
  return msg.parent_id;
}

/** Replaces @_user_N placeholders: this bot's are removed, others become @name. */
export function resolveMentions(text: string, mentions: readonly Mention[], ctx: ParseContext): { text: string; mentionsBot: boolean } {
  let out = text;
  let mentionsBot = false;
  // Longest keys first so "@_user_1" never eats the prefix of "@_user_10".
  for (const m of [...mentions].sort((a, b) => b.key.length - a.key.length)) {
    const mine = isThisBot(m, ctx);
    if (mine && out.includes(m.key)) mentionsBot = true;
    out = out.split(m.key).join(mine ? '' : `@${m.name ?? 'someone'}`);
  }
  out = out.replace(/@_all\b/g, '@all');
  return { text: out.replace(/[ \t]{2,}/g, ' ').replace(/^[ \t]+|[ \t]+$/gm, '').trim(), mentionsBot };
}

function senderType(t: string | undefined): InboundMessage['senderType'] {
  return t === 'user' ? 'user' : t === 'bot' ? 'bot' : 'app';
}

export function parseMessageEvent(raw: unknown, ctx: ParseContext): Parsed<InboundMessage> {
  const eventId = typeof (raw as { event_id?: unknown } | null)?.event_id === 'string' ? (raw as { event_id: string }).event_id : undefined;
  const res = MessageEventSchema.safeParse(raw);
  if (!res.success) return { ok: false, reason: `malformed message event (${describe(res.error)})`, eventId };
  const { sender, message: msg } = res.data;
  const chatType = msg.chat_type === 'p2p' ? 'p2p' : msg.chat_type === 'group' || msg.chat_type === 'topic_group' ? 'group' : null;
  const senderId = sender.sender_id?.open_id ?? sender.sender_id?.user_id ?? '';
  const place: ChatPlace | undefined = chatType ? { chatId: msg.chat_id, chatType } : undefined;
  if (place && msg.root_id) place.rootId = msg.root_id;
  if (place && msg.thread_id) place.threadId = msg.thread_id;
  const fail = (reason: string): Parsed<InboundMessage> => ({ ok: false, reason, eventId, messageId: msg.message_id, place, senderId: senderId || undefined });
  if (!place) return fail(`unknown chat_type "${msg.chat_type}"`);
  if (!senderId) return fail('sender has no open_id');

  const mentions = msg.mentions ?? [];
  const base: InboundMessage = {
    kind: 'message', appId: ctx.appId, messageId: msg.message_id, place, senderId,
    senderType: senderType(sender.sender_type), text: '',
    mentionsBot: mentions.some((m) => isThisBot(m, ctx)),
    createTime: Number(msg.create_time) || ctx.now,
  };
  if (eventId) base.eventId = eventId;
  const quotedId = explicitQuoteId(msg);
  if (quotedId) base.quotedId = quotedId;
  if (msg.message_type === 'image' || msg.message_type === 'file') {
    const content = parseJsonObject(msg.content);
    const key = msg.message_type === 'image' ? content?.image_key : content?.file_key;
    if (typeof key !== 'string' || !key) return fail(`${msg.message_type} message content has no key`);
    const name = typeof content?.file_name === 'string' && content.file_name ? { name: content.file_name } : {};
    return { ok: true, event: { ...base, attachments: [{ kind: msg.message_type, key, ...name, messageId: msg.message_id }] } };
  }
  if (!TEXT_TYPES.has(msg.message_type)) return { ok: true, event: { ...base, unsupportedType: msg.message_type } };

  const content = parseJsonObject(msg.content);
  if (!content) return fail(`content of a ${msg.message_type} message is not a JSON object`);
  let text: string;
  if (msg.message_type === 'text') {
    if (typeof content.text !== 'string') return fail('text message content has no "text" string');
    text = content.text;
  } else {
    text = postToText(content);
  }
  const resolved = resolveMentions(text, mentions, ctx);
  const images = msg.message_type === 'post' ? postImageKeys(content).map((key) => ({ kind: 'image' as const, key, messageId: msg.message_id })) : [];
  return { ok: true, event: { ...base, text: resolved.text, mentionsBot: base.mentionsBot || resolved.mentionsBot, ...(images.length ? { attachments: images } : {}) } };
}

export function parseCardActionEvent(raw: unknown, ctx: ParseContext): Parsed<InboundCardAction> {
  const eventId = typeof (raw as { event_id?: unknown } | null)?.event_id === 'string' ? (raw as { event_id: string }).event_id : undefined;
  let fields: { operatorId: string; messageId: string; chatId: string; value: unknown; form?: Record<string, unknown> };
  const v2 = CardActionSchemaV2.safeParse(raw);
  if (v2.success) {
    fields = { operatorId: v2.data.operator.open_id, messageId: v2.data.context.open_message_id, chatId: v2.data.context.open_chat_id ?? '', value: v2.data.action.value, form: v2.data.action.form_value };
  } else {
    const v1 = CardActionSchemaV1.safeParse(raw);
    if (!v1.success) return { ok: false, reason: `malformed card action (${describe(v2.error)})`, eventId };
    fields = { operatorId: v1.data.open_id, messageId: v1.data.open_message_id, chatId: v1.data.open_chat_id ?? '', value: v1.data.action.value };
  }
  // Some clients deliver the value as a JSON string.
  const rawValue = typeof fields.value === 'string' ? (parseJsonObject(fields.value) ?? fields.value) : fields.value;
  const value = CardActionValueSchema.safeParse(rawValue);
  if (!value.success) return { ok: false, reason: 'card button value is not one of ours (an old or foreign card)', eventId, messageId: fields.messageId, senderId: fields.operatorId };
  const event: InboundCardAction = { kind: 'card_action', appId: ctx.appId, messageId: fields.messageId, chatId: fields.chatId, operatorId: fields.operatorId, value: value.data };
  // A typed answer arrives as form_value of the card's answer form (attention-card.ts), taken as it was typed.
  const typed = fields.form?.[ANSWER_FORM.input];
  if (typeof typed === 'string') event.typedText = typed;
  if (eventId) event.eventId = eventId;
  return { ok: true, event };
}
