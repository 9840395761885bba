// The fake platform's recorded state: apps, tokens, messages, uploads, reactions, calls, injected failures.
import { hexId } from './envelopes.js';
import { FakeCardkit } from './cardkit.js';

export interface FakeAppSpec {
  appId: string;
  appSecret: string;
  botName?: string;
  botOpenId?: string;
  tenantKey?: string;
  /** When set, events for this app are POSTed here (webhook mode) instead of pushed over the websocket. */
  webhook?: { url: string; encryptKey?: string; verificationToken?: string };
}

export interface FakeApp {
  appId: string;
  appSecret: string;
  botName: string;
  botOpenId: string;
  tenantKey: string;
  webhook?: { url: string; encryptKey?: string; verificationToken?: string };
}

export type EndpointName = 'token' | 'ws_endpoint' | 'send' | 'reply' | 'patch' | 'upload' | 'upload_file' | 'resource' | 'get_message' | 'reaction' | 'bot_info'
  | 'card_create' | 'card_content' | 'card_settings' | 'feed_card' | 'urgent_app';

/** A time-sensitive (pinned) feed card change: `feedCardId` is "bot_time_sentive" for the bot's private chats, else the group's chat id. */
export interface FakeFeedCardCall {
  appId: string;
  feedCardId: string;
  timeSensitive: boolean;
  userIds: string[];
  at: number;
}

/** An in-app urgent (buzz) on one of the bot's messages. */
export interface FakeUrgent {
  appId: string;
  messageId: string;
  userIds: string[];
  at: number;
}

export interface Failure {
  status: number;
  code: number;
  msg?: string;
  headers?: Record<string, string>;
}

export interface RecordedCall {
  endpoint: EndpointName;
  appId?: string;
  method: string;
  path: string;
  status: number;
  code: number;
  msg?: string;
  /** For message endpoints: the message sent, replied to or patched. */
  messageId?: string;
  at: number;
}

export interface FakeMessage {
  messageId: string;
  appId: string;
  chatId: string;
  chatType: 'p2p' | 'group';
  msgType: string;
  /** Parsed content of the current version. */
  content: unknown;
  /** Every version, oldest first: [0] is what was sent, then each accepted PATCH. */
  history: unknown[];
  /** The message this one replies to. */
  parentId?: string;
  rootId?: string;
  threadId?: string;
  replyInThread: boolean;
  deleted: boolean;
  /** Past Feishu's update window: PATCH fails with "too old". */
  expired: boolean;
  createdAt: number;
  /** Patch times, for the per-message 5/s limit. */
  patchTimes: number[];
  /** Sent as a CardKit entity (`{"type":"card","data":{"card_id"}}`): content then follows the entity. */
  cardId?: string;
}

export interface InboundRecord {
  messageId: string;
  appId: string;
  chatId: string;
  chatType: 'p2p' | 'group';
  rootId?: string;
  threadId?: string;
  /** What GET /im/v1/messages/:id returns for it (a quoted message is read back this way). */
  msgType?: string;
  content?: string;
}

export interface FakeUpload {
  imageKey: string;
  appId: string;
  imageType: string;
  size: number;
  bytes: Buffer;
}

/** A file uploaded through POST /im/v1/files (file_type, file_name and the bytes, as the platform keeps them). */
export interface FakeFileUpload {
  fileKey: string;
  appId: string;
  fileType: string;
  fileName: string;
  size: number;
  bytes: Buffer;
}

export interface FakeReaction {
  reactionId: string;
  messageId: string;
  appId: string;
  emoji: string;
}

interface TokenInfo {
  appId: string;
  expiresAt: number;
  revoked: boolean;
}

export { nextId } from './envelopes.js';

export class FakeState {
  readonly apps = new Map<string, FakeApp>();
  readonly calls: RecordedCall[] = [];
  readonly messages: FakeMessage[] = [];
  readonly inbound = new Map<string, InboundRecord>();
  readonly uploads: FakeUpload[] = [];
  readonly fileUploads: FakeFileUpload[] = [];
  /** Resources of inbound messages, served by GET /im/v1/messages/:id/resources/:key (key → owner and bytes). */
  /** Merged-forward messages: parent id → its children (msg_type and content), as GET /im/v1/messages/:id lists them. */
  readonly forwards = new Map<string, { chatId: string; children: { messageId: string; msgType: string; content: string }[] }>();
  readonly resources = new Map<string, { messageId: string; type: 'image' | 'file'; bytes: Buffer }>();
  readonly reactions: FakeReaction[] = [];
  readonly feedCards: FakeFeedCardCall[] = [];
  readonly urgents: FakeUrgent[] = [];
  /** Endpoints the app was not granted the scope for: they answer 99991672 every time, as the real platform does. */
  readonly missingScopes = new Set<EndpointName>();
  private readonly tokens = new Map<string, TokenInfo>();
  private readonly failures = new Map<EndpointName, Failure[]>();
  /** Counts how many tenant tokens were issued per app (token cache tests). */
  readonly tokensIssued = new Map<string, number>();

  /** CardKit entities; a message sent by card_id shows the entity's card, every change a new history version. */
  readonly cardkit = new FakeCardkit((appId, key) => this.knownImage(appId, key), (e) => {
    const m = e.sentAs ? this.message(e.sentAs) : undefined;
    if (!m) return;
    m.content = structuredClone(e.card);
    m.history.push(m.content);
  });

  constructor(private readonly tokenTtlSec: () => number) {}

  addApp(spec: FakeAppSpec): FakeApp {
    const app: FakeApp = {
      appId: spec.appId,
      appSecret: spec.appSecret,
      botName: spec.botName ?? `Bot-${spec.appId.slice(-4)}`,
      botOpenId: spec.botOpenId ?? `ou_${hexId(16)}`,
      tenantKey: spec.tenantKey ?? hexId(8),
      webhook: spec.webhook,
    };
    this.apps.set(app.appId, app);
    return app;
  }

  issueToken(appId: string): { token: string; expire: number } {
    const token = `t-${hexId(20)}`;
    const expire = this.tokenTtlSec();
    this.tokens.set(token, { appId, expiresAt: Date.now() + expire * 1000, revoked: false });
    this.tokensIssued.set(appId, (this.tokensIssued.get(appId) ?? 0) + 1);
    return { token, expire };
  }

  /** Resolves a bearer token to its app, or says why it is refused. */
  checkToken(authorization: string | undefined): { ok: true; appId: string } | { ok: false; code: number; msg: string } {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token) return { ok: false, code: 99991661, msg: 'Missing access token for authorization' };
    const info = this.tokens.get(token);
    if (!info || info.revoked || info.expiresAt <= Date.now()) return { ok: false, code: 99991663, msg: 'Invalid access token for authorization' };
    return { ok: true, appId: info.appId };
  }

  revokeTokens(appId?: string): void {
    for (const info of this.tokens.values()) if (!appId || info.appId === appId) info.revoked = true;
  }

  failNext(endpoint: EndpointName, n: number, failure: Failure): void {
    const list = this.failures.get(endpoint) ?? [];
    for (let i = 0; i < n; i++) list.push(failure);
    this.failures.set(endpoint, list);
  }

  takeFailure(endpoint: EndpointName): Failure | undefined {
    return this.failures.get(endpoint)?.shift();
  }

  pendingFailures(endpoint: EndpointName): number {
    return this.failures.get(endpoint)?.length ?? 0;
  }

  message(id: string): FakeMessage | undefined {
    return this.messages.find((m) => m.messageId === id);
  }

  knownFile(appId: string, key: string): boolean {
    return this.fileUploads.some((u) => u.appId === appId && u.fileKey === key);
  }

  knownImage(appId: string, key: string): boolean {
    return this.uploads.some((u) => u.appId === appId && u.imageKey === key);
  }
}
