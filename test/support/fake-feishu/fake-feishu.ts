// FakeFeishu: a fake open platform on 127.0.0.1 that the real SDK talks to, plus the control API tests drive it with.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeAccounts, type FakeAccountsOptions } from './accounts.js';
import { cardActionEnvelope, hexId, messageEnvelope, type MentionSpec } from './envelopes.js';
import { handleHttp } from './http-api.js';
import { FakeState, nextId, type EndpointName, type FakeApp, type FakeAppSpec, type FakeMessage, type Failure } from './state.js';
import { WsHub, type AckResult, type ClientConfig } from './ws-hub.js';

export type { AckResult, ClientConfig, EndpointName, FakeApp, FakeAppSpec, FakeMessage, Failure };

export interface FakeFeishuOptions {
  apps: FakeAppSpec[];
  /** Seconds; defaults are short so reconnects in tests take well under a second. */
  clientConfig?: Partial<ClientConfig>;
  /** Lifetime of issued tenant tokens, seconds (Feishu: 7200). */
  tokenTtlSec?: number;
  /** Event payloads longer than this many bytes are split into fragments (sum/seq). */
  fragmentBytes?: number;
  /** How long an injected event waits for its ACK before the inject call resolves with ack: null. */
  ackTimeoutMs?: number;
}

const DEFAULTS = {
  // Short reconnect timings so a dropped socket is back within ~0.5 s in tests (the platform uses 120/30 s).
  clientConfig: { PingInterval: 30, ReconnectCount: -1, ReconnectInterval: 0.25, ReconnectNonce: 0.1 } satisfies ClientConfig,
  tokenTtlSec: 7200,
  fragmentBytes: 4096,
  ackTimeoutMs: 10_000,
} as const;

export interface InjectMessageInput {
  /** Which bot receives it; defaults to the first app. */
  appId?: string;
  chatType?: 'p2p' | 'group';
  chatId?: string;
  senderOpenId?: string;
  senderType?: string;
  /** Text of a text message; may contain @_user_N placeholders matching `mentions` (N = index + 1). */
  text?: string;
  /** Raw content string (overrides text), e.g. invalid JSON. */
  content?: string;
  messageType?: string;
  /** Thread: root message id (thread_id is generated when omitted). */
  rootId?: string;
  /** An explicit quote ("reply" in the client): the quoted message's id as parent_id (root_id too when not in a thread). */
  quoteId?: string;
  threadId?: string;
  /** Other people mentioned, in placeholder order. */
  mentions?: Array<{ openId: string; name: string }>;
  /** Prepends "@_user_K " for this bot (or the listed bots' app ids) and adds the mention(s). */
  mentionBot?: boolean | string[];
  messageId?: string;
  eventId?: string;
  /** Deliver the same event (same event_id) twice, as Feishu does on retries. */
  deliverTwice?: boolean;
}

export interface InjectResult {
  eventId: string;
  messageId: string;
  chatId: string;
  rootId?: string;
  threadId?: string;
  /** ACK of the (first) delivery; null when none came in time. */
  ack: AckResult | null;
}

export interface InjectCardActionInput {
  appId?: string;
  messageId: string;
  chatId?: string;
  operatorOpenId?: string;
  value: unknown;
  eventId?: string;
  deliverTwice?: boolean;
  /** A form submit: action.form_value and the submit button's action.name. */
  formValue?: Record<string, string>;
  name?: string;
}

export class FakeFeishu {
  readonly state: FakeState;
  private readonly hub: WsHub;
  private readonly server: Server;
  private config: ClientConfig;
  private port = 0;
  private readonly opts: Required<Omit<FakeFeishuOptions, 'apps' | 'clientConfig'>>;
  /** Open ids used as default senders, one per app. */
  readonly defaultUser = `ou_${hexId(16)}`;
  /** Webhook POST results, for webhook-mode apps. */
  readonly webhookResponses: Array<{ appId: string; status: number; body: string }> = [];

  private constructor(options: FakeFeishuOptions) {
    this.opts = {
      tokenTtlSec: options.tokenTtlSec ?? DEFAULTS.tokenTtlSec,
      fragmentBytes: options.fragmentBytes ?? DEFAULTS.fragmentBytes,
      ackTimeoutMs: options.ackTimeoutMs ?? DEFAULTS.ackTimeoutMs,
    };
    this.config = { ...DEFAULTS.clientConfig, ...options.clientConfig };
    this.state = new FakeState(() => this.opts.tokenTtlSec);
    for (const a of options.apps) this.state.addApp(a);
    this.hub = new WsHub({ clientConfig: () => this.config, fragmentBytes: this.opts.fragmentBytes });
    const ctx = { state: this.state, hub: this.hub, wsBaseUrl: () => `ws://127.0.0.1:${this.port}`, clientConfig: () => this.config };
    this.server = createServer((req, res) => {
      handleHttp(req, res, ctx).catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
    this.server.on('upgrade', (req, socket, head) => this.hub.handleUpgrade(req, socket, head));
  }

  static async start(options: FakeFeishuOptions): Promise<FakeFeishu> {
    const fake = new FakeFeishu(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** Use as the bot's `domain`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  app(appId?: string): FakeApp {
    const app = appId ? this.state.apps.get(appId) : this.state.apps.values().next().value;
    if (!app) throw new Error(`fake-feishu: unknown app ${appId ?? '(none configured)'}`);
    return app;
  }

  // ---- recorded state ----
  get calls() { return this.state.calls; }
  get messages() { return this.state.messages; }
  get uploads() { return this.state.uploads; }
  get fileUploads() { return this.state.fileUploads; }
  /** CardKit card entities by card_id (streamed text updates, settings, the message each was sent as). */
  get cardEntities() { return this.state.cardkit.entities; }
  /**
   * Registers a merged-forward message `parentId` (inject it with messageType merge_forward) whose children are these
   * files/pictures; their bytes download only through the parent's id, as on the real platform.
   */
  addMergeForward(parentId: string, chatId: string, children: { kind: 'image' | 'file'; key: string; name?: string; bytes: Buffer }[]): void {
    this.state.forwards.set(parentId, {
      chatId,
      children: children.map((c, i) => ({
        messageId: `${parentId}_child${i}`, msgType: c.kind,
        content: JSON.stringify(c.kind === 'image' ? { image_key: c.key } : { file_key: c.key, file_name: c.name ?? 'file' }),
      })),
    });
    for (const c of children) this.addResource(parentId, c.key, c.kind, c.bytes);
  }
  /**
   * A text message someone else posted in the chat that the bot never received (a group message that did not mention
   * it): it exists only to be quoted (read back through get_message).
   */
  addChatMessage(input: { messageId: string; chatId: string; chatType?: 'p2p' | 'group'; text: string; appId?: string }): void {
    const app = this.app(input.appId);
    this.state.inbound.set(input.messageId, { messageId: input.messageId, appId: app.appId, chatId: input.chatId, chatType: input.chatType ?? 'p2p', msgType: 'text', content: JSON.stringify({ text: input.text }) });
  }
  /** Makes `bytes` downloadable as resource `key` of message `messageId` (inject the message with that id). */
  addResource(messageId: string, key: string, type: 'image' | 'file', bytes: Buffer): void { this.state.resources.set(key, { messageId, type, bytes }); }
  get reactions() { return this.state.reactions; }
  /** Pin/unpin calls of the time-sensitive feed card, in order. */
  get feedCards() { return this.state.feedCards; }
  /** In-app urgent (buzz) calls, in order. */
  get urgents() { return this.state.urgents; }
  /** Endpoints the app lacks the scope for ('feed_card', 'urgent_app'): they answer 99991672. */
  get missingScopes() { return this.state.missingScopes; }
  get acks() { return this.hub.acks; }
  get pingsReceived() { return this.hub.pingsReceived; }
  get connectionsOpened() { return this.hub.connectionsOpened; }
  connectionCount(appId?: string): number { return this.hub.connectionCount(appId); }
  message(id: string): FakeMessage | undefined { return this.state.message(id); }
  tokensIssued(appId?: string): number { return this.state.tokensIssued.get(this.app(appId).appId) ?? 0; }

  // ---- faults ----
  setClientConfig(c: Partial<ClientConfig>): void { this.config = { ...this.config, ...c }; }
  failNext(endpoint: EndpointName, n: number, failure: Failure = { status: 429, code: 99991400, msg: 'request trigger frequency limit' }): void {
    const headers = failure.status === 429 ? { 'x-ogw-ratelimit-limit': '50', 'x-ogw-ratelimit-reset': '1', ...failure.headers } : failure.headers;
    this.state.failNext(endpoint, n, { ...failure, headers });
  }
  /** The next n uploads answer HTTP 200 with a business error (the SDK then returns null). */
  failUpload(n: number, code = 234009): void { this.state.failNext('upload', n, { status: 200, code, msg: 'fake upload failure' }); }
  revokeTokens(appId?: string): void { this.state.revokeTokens(appId); }
  /**
   * Switches an app to webhook delivery (POST to url, encrypted and signed when encryptKey is set; events carry
   * verificationToken, as Feishu's do, default "fake-verification-token"); undefined = websocket.
   */
  setWebhook(appId: string, webhook: { url: string; encryptKey?: string; verificationToken?: string } | undefined): void { this.app(appId).webhook = webhook; }
  dropConnections(appId?: string): void { this.hub.dropConnections(appId); }
  /** Recalls a sent message: PATCH then fails with 230011. */
  deleteMessage(messageId: string): void { this.mustMessage(messageId).deleted = true; }
  /** Puts a message past the update window: PATCH then fails with 230031. */
  expireMessage(messageId: string): void { this.mustMessage(messageId).expired = true; }

  private mustMessage(id: string): FakeMessage {
    const m = this.state.message(id);
    if (!m) throw new Error(`fake-feishu: no message ${id}`);
    return m;
  }

  // ---- events in ----
  async injectMessage(input: InjectMessageInput): Promise<InjectResult> {
    const app = this.app(input.appId);
    const chatType = input.chatType ?? 'p2p';
    const chatId = input.chatId ?? (chatType === 'p2p' ? `oc_p2p_${hexId(12)}` : `oc_${hexId(16)}`);
    const messageId = input.messageId ?? nextId('om_');
    const threadId = input.rootId ? (input.threadId ?? this.threadOf(input.rootId)) : input.threadId;
    const mentions: MentionSpec[] = (input.mentions ?? []).map((m, i) => ({ key: `@_user_${i + 1}`, openId: m.openId, name: m.name }));
    let text = input.text ?? '';
    if (input.mentionBot) {
      const bots = input.mentionBot === true ? [app] : input.mentionBot.map((id) => this.app(id));
      const prefix = bots.map((b) => {
        const key = `@_user_${mentions.length + 1}`;
        mentions.push({ key, openId: b.botOpenId, name: b.botName });
        return key;
      });
      text = `${prefix.join(' ')} ${text}`;
    }
    const content = input.content ?? JSON.stringify({ text });
    const msgType = input.messageType ?? 'text';
    this.state.inbound.set(messageId, { messageId, appId: app.appId, chatId, chatType, rootId: input.rootId, threadId, msgType, content });
    // Outside a thread a reply's root is the quoted message; inside one the root stays the topic's.
    const rootId = input.rootId ?? input.quoteId;
    const eventId = input.eventId ?? hexId(16);
    const envelope = messageEnvelope(app, {
      eventId, messageId, chatId, chatType, content,
      senderOpenId: input.senderOpenId ?? this.defaultUser, senderType: input.senderType,
      messageType: msgType, rootId, parentId: input.quoteId ?? input.rootId, threadId, mentions, createTime: Date.now(),
    });
    const ack = await this.push(app, JSON.stringify(envelope), input.deliverTwice ?? false, true);
    return { eventId, messageId, chatId, rootId: input.rootId, threadId, ack };
  }

  /** A user taps a card button whose callback value is `value`; resolves with the ACK (its `response` holds the toast). */
  async injectCardAction(input: InjectCardActionInput): Promise<{ eventId: string; ack: AckResult | null; response: unknown }> {
    const app = this.app(input.appId);
    const sent = this.state.message(input.messageId);
    const eventId = input.eventId ?? hexId(16);
    const envelope = cardActionEnvelope(app, {
      eventId, messageId: input.messageId, chatId: input.chatId ?? sent?.chatId ?? `oc_${hexId(16)}`,
      operatorOpenId: input.operatorOpenId ?? this.defaultUser, value: input.value, createTime: Math.floor(Date.now() / 1000),
      ...(input.formValue ? { formValue: input.formValue, name: input.name } : {}),
    });
    const ack = await this.push(app, JSON.stringify(envelope), input.deliverTwice ?? false, true);
    return { eventId, ack, response: ack?.response };
  }

  /** Taps the button labelled `label` on the current version of a sent card (fails if there is none). */
  async tapButton(messageId: string, label: string, operatorOpenId?: string): Promise<{ eventId: string; ack: AckResult | null; response: unknown }> {
    const m = this.mustMessage(messageId);
    const value = findButtonValue(m.content, label);
    if (value === undefined) throw new Error(`fake-feishu: no callback button "${label}" on ${messageId}`);
    return this.injectCardAction({ appId: m.appId, messageId, chatId: m.chatId, operatorOpenId, value });
  }

  /** Types `text` into the form on the current version of a sent card and taps its submit button (form_value). */
  async submitForm(messageId: string, text: string, operatorOpenId?: string): Promise<{ eventId: string; ack: AckResult | null; response: unknown }> {
    const m = this.mustMessage(messageId);
    const form = findForm(m.content);
    if (!form) throw new Error(`fake-feishu: no form with a text input and a submit button on ${messageId}`);
    return this.injectCardAction({ appId: m.appId, messageId, chatId: m.chatId, operatorOpenId, value: form.value, formValue: { [form.input]: text }, name: form.submit });
  }

  /** Pushes any payload string as an event frame (malformed events). Resolves with the ACK or null (the SDK drops some silently). */
  async injectRaw(payload: string, opts: { appId?: string; ackTimeoutMs?: number } = {}): Promise<AckResult | null> {
    const app = this.app(opts.appId);
    if (app.webhook) return this.postWebhook(app, payload);
    return this.hub.deliver(app.appId, new TextEncoder().encode(payload), { ackTimeoutMs: opts.ackTimeoutMs ?? 1500, redeliver: false });
  }

  private async push(app: FakeApp, payload: string, twice: boolean, redeliver: boolean): Promise<AckResult | null> {
    const once = () => app.webhook
      ? this.postWebhook(app, payload)
      : this.hub.deliver(app.appId, new TextEncoder().encode(payload), { ackTimeoutMs: this.opts.ackTimeoutMs, redeliver });
    if (!twice) return once();
    const [first] = await Promise.all([once(), once()]);
    return first;
  }

  private async postWebhook(app: FakeApp, payload: string): Promise<AckResult | null> {
    const hook = app.webhook!;
    let body = payload;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (hook.encryptKey) {
      const key = createHash('sha256').update(hook.encryptKey).digest();
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-cbc', key, iv);
      const encrypted = Buffer.concat([iv, cipher.update(payload, 'utf8'), cipher.final()]).toString('base64');
      body = JSON.stringify({ encrypt: encrypted });
      const ts = String(Math.floor(Date.now() / 1000));
      const nonce = hexId(8);
      headers['x-lark-request-timestamp'] = ts;
      headers['x-lark-request-nonce'] = nonce;
      headers['x-lark-signature'] = createHash('sha256').update(ts + nonce + hook.encryptKey + body).digest('hex');
    }
    try {
      const res = await fetch(hook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.opts.ackTimeoutMs) });
      const text = await res.text();
      this.webhookResponses.push({ appId: app.appId, status: res.status, body: text });
      let response: unknown;
      try { response = text ? JSON.parse(text) : undefined; } catch { response = text; }
      return { code: res.status, response };
    } catch {
      return null;
    }
  }

  private threadOf(rootId: string): string {
    const known = this.state.message(rootId)?.threadId ?? this.state.inbound.get(rootId)?.threadId;
    return known ?? `omt_${hexId(8)}`;
  }

  /** Polls `predicate` (every 20 ms) until it returns a truthy value, which is returned; rejects after timeoutMs. */
  async waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = predicate();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`fake-feishu: timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private accounts?: FakeAccounts;

  /** The accounts service of scan-to-create (HTTPS, its own port); apps it creates join this fake's apps. */
  async startAccounts(options?: FakeAccountsOptions): Promise<FakeAccounts> {
    this.accounts ??= await FakeAccounts.start(this.state, options);
    return this.accounts;
  }

  async close(): Promise<void> {
    await this.accounts?.close();
    this.hub.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Finds a button by its label anywhere in a card and returns its callback value. */
export function findButtonValue(card: unknown, label: string): unknown {
  if (!card || typeof card !== 'object') return undefined;
  if (Array.isArray(card)) {
    for (const c of card) {
      const v = findButtonValue(c, label);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  const o = card as Record<string, unknown>;
  if (o.tag === 'button' && (o.text as Record<string, unknown> | undefined)?.content === label) {
    const behaviors = (o.behaviors as Array<Record<string, unknown>> | undefined) ?? [];
    const cb = behaviors.find((b) => b.type === 'callback');
    return cb?.value ?? o.value;
  }
  for (const v of Object.values(o)) {
    const found = findButtonValue(v, label);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** All button labels on a card, in order (for assertions). */
export function buttonLabels(card: unknown): string[] {
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) { n.forEach(walk); return; }
    const o = n as Record<string, unknown>;
    if (o.tag === 'button') out.push(String((o.text as Record<string, unknown> | undefined)?.content ?? ''));
    Object.values(o).forEach(walk);
  };
  walk(card);
  return out;
}

/** The first form of a card: its input's name and its submit button's name and callback value. */
function findForm(card: unknown): { input: string; submit: string; value: unknown } | undefined {
  if (!card || typeof card !== 'object') return undefined;
  if (Array.isArray(card)) {
    for (const c of card) {
      const f = findForm(c);
      if (f) return f;
    }
    return undefined;
  }
  const o = card as Record<string, unknown>;
  if (o.tag === 'form') {
    const els = (o.elements as Record<string, unknown>[] | undefined) ?? [];
    const input = els.find((e) => e.tag === 'input');
    const submit = els.find((e) => e.tag === 'button' && e.form_action_type === 'submit');
    const cb = ((submit?.behaviors as Record<string, unknown>[] | undefined) ?? []).find((b) => b.type === 'callback');
    if (input && submit && cb) return { input: String(input.name), submit: String(submit.name ?? ''), value: cb.value };
  }
  for (const v of Object.values(o)) {
    const f = findForm(v);
    if (f) return f;
  }
  return undefined;
}
