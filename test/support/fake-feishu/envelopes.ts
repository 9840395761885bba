// Builders for the schema-2.0 event envelopes Feishu pushes: im.message.receive_v1 and card.action.trigger.
import { randomBytes } from 'node:crypto';

export function hexId(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

let counter = 0;
/** A platform-looking id, unique within the process (a counter after the random part). */
export function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}${hexId(12)}${counter.toString(16).padStart(4, '0')}`;
}

export interface EnvelopeApp {
  appId: string;
  tenantKey: string;
  /** Webhook apps: the verification token their events carry. */
  webhook?: { verificationToken?: string };
}

export interface MentionSpec {
  /** Placeholder key in the text, e.g. "@_user_1". */
  key: string;
  openId: string;
  name: string;
}

export interface MessageEnvelopeInput {
  eventId: string;
  messageId: string;
  chatId: string;
  chatType: 'p2p' | 'group';
  senderOpenId: string;
  senderType?: string;
  messageType: string;
  /** Already a JSON string, as the platform sends it (tests may pass a broken one). */
  content: string;
  rootId?: string;
  parentId?: string;
  threadId?: string;
  mentions?: MentionSpec[];
  createTime: number;
}

export function messageEnvelope(app: EnvelopeApp, m: MessageEnvelopeInput): Record<string, unknown> {
  const message: Record<string, unknown> = {
    message_id: m.messageId,
    create_time: String(m.createTime),
    update_time: String(m.createTime),
    chat_id: m.chatId,
    chat_type: m.chatType,
    message_type: m.messageType,
    content: m.content,
    user_agent: 'Mozilla/5.0 fake-feishu',
  };
  if (m.rootId) message.root_id = m.rootId;
  if (m.parentId) message.parent_id = m.parentId;
  if (m.threadId) message.thread_id = m.threadId;
  if (m.mentions?.length) {
    message.mentions = m.mentions.map((x) => ({
      key: x.key,
      id: { union_id: `on_${hexId(8)}`, user_id: '', open_id: x.openId },
      name: x.name,
      tenant_key: app.tenantKey,
    }));
  }
  return {
    schema: '2.0',
    header: {
      event_id: m.eventId,
      token: app.webhook?.verificationToken ?? 'fake-verification-token',
      create_time: String(m.createTime),
      event_type: 'im.message.receive_v1',
      tenant_key: app.tenantKey,
      app_id: app.appId,
    },
    event: {
      sender: {
        sender_id: { union_id: `on_${m.senderOpenId.slice(3, 19)}`, user_id: m.senderOpenId.slice(3, 11), open_id: m.senderOpenId },
        sender_type: m.senderType ?? 'user',
        tenant_key: app.tenantKey,
      },
      message,
    },
  };
}

export interface CardActionEnvelopeInput {
  eventId: string;
  messageId: string;
  chatId: string;
  operatorOpenId: string;
  value: unknown;
  tag?: string;
  /** A form submit: the fields as typed (action.form_value) and the submit button's name (action.name). */
  formValue?: Record<string, string>;
  name?: string;
  createTime: number;
}

export function cardActionEnvelope(app: EnvelopeApp, c: CardActionEnvelopeInput): Record<string, unknown> {
  return {
    schema: '2.0',
    header: {
      event_id: c.eventId,
      token: app.webhook?.verificationToken ?? 'fake-verification-token',
      create_time: String(c.createTime * 1000),
      event_type: 'card.action.trigger',
      tenant_key: app.tenantKey,
      app_id: app.appId,
    },
    event: {
      operator: { tenant_key: app.tenantKey, user_id: c.operatorOpenId.slice(3, 11), open_id: c.operatorOpenId, union_id: `on_${hexId(8)}` },
      token: `c-${hexId(20)}`,
      action: { value: c.value, tag: c.tag ?? 'button', ...(c.formValue ? { form_value: c.formValue, name: c.name ?? '' } : {}) },
      host: 'im_message',
      context: { open_message_id: c.messageId, open_chat_id: c.chatId },
    },
  };
}
