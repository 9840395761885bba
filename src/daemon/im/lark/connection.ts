// Event transports: the SDK's long connection (WSClient, default) and a webhook over node:http (EventDispatcher + signature check).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as lark from '@larksuiteoapi/node-sdk';
import { APP_ID_RE } from '../../../shared/config.js';
import { scrubSecrets, type Logger } from '../../../platform/log.js';
import { readCapped } from '../../../platform/read-capped.js';
import type { ConnectionState, ImResult } from '../types.js';
import { resolveDomain, sdkLogger, type LarkCredentials } from './client.js';
import { authenticateWebhook, webhookIsAuthenticated, WEBHOOK_UNAUTHENTICATED } from './webhook-auth.js';

export const CONNECTION_TIMING = {
  /** How long connect() waits for the first socket before reporting; the SDK keeps trying afterwards. */
  firstConnectWaitMs: 20_000,
  /** Webhook bodies above this are refused (Feishu events are a few KB). */
  maxWebhookBodyBytes: 1024 * 1024,
} as const;

/** What a transport hands raw (SDK-flattened) events to; the return value becomes the ACK / HTTP answer. */
export interface RawEventSink {
  message(data: unknown): Promise<unknown>;
  cardAction(data: unknown): Promise<unknown>;
}

export interface LarkConnection {
  start(): Promise<ImResult<void>>;
  state(): { state: ConnectionState; detail?: string };
  dispose(): Promise<void>;
}

/** Long-connection bootstrap codes the SDK treats as fatal, with the fix for each. */
const FATAL_HINTS: Record<string, string> = {
  '1': 'Feishu says the system is busy; try again later',
  '403': 'forbidden: enable "receive events through persistent connection" in the developer console',
  '514': 'authentication failed: check appId and appSecret',
  '1000040350': 'too many long connections for this app: stop other instances',
};

export function describeFatal(message: string): string {
  const code = /code=(\d+)/.exec(message)?.[1];
  const hint = code ? FATAL_HINTS[code] : undefined;
  return scrubSecrets(hint ? `${message} (${hint})` : message);
}

abstract class StateHolder {
  protected current: { state: ConnectionState; detail?: string } = { state: 'stopped' };
  constructor(protected readonly onState: (s: ConnectionState, detail?: string) => void, protected readonly log: Logger) {}

  protected set(state: ConnectionState, detail?: string): void {
    if (this.current.state === state && this.current.detail === detail) return;
    this.current = detail === undefined ? { state } : { state, detail };
    this.log.info({ state, detail }, 'lark connection state');
    this.onState(state, detail);
  }

  state(): { state: ConnectionState; detail?: string } {
    return this.current;
  }
}

function dispatcher(log: Logger, sink: RawEventSink, encryptKey?: string, verificationToken?: string): lark.EventDispatcher {
  return new lark.EventDispatcher({ encryptKey, verificationToken, logger: sdkLogger(log), loggerLevel: lark.LoggerLevel.warn }).register<Record<string, (d: unknown) => Promise<unknown>>>({
    'im.message.receive_v1': (d: unknown) => sink.message(d),
    // Card callbacks come over the long connection as ordinary event frames of this type.
    'card.action.trigger': (d: unknown) => sink.cardAction(d),
  });
}

export class WsConnection extends StateHolder implements LarkConnection {
  private client: lark.WSClient | null = null;
  private firstReady: ((r: ImResult<void>) => void) | null = null;
  private waitTimer: NodeJS.Timeout | null = null;

  constructor(private readonly creds: LarkCredentials, private readonly sink: RawEventSink, log: Logger, onState: (s: ConnectionState, d?: string) => void) {
    super(onState, log);
  }

  start(): Promise<ImResult<void>> {
    if (!APP_ID_RE.test(this.creds.appId)) {
      // The SDK would log and return silently, never connecting and never calling onError.
      const detail = `app id "${this.creds.appId}" is not cli_ followed by 16 hex digits; the long connection refuses it`;
      this.set('failed', detail);
      return Promise.resolve({ ok: false, code: 'bad_app_id', message: detail, retryable: false });
    }
    this.set('connecting');
    return new Promise((resolve) => {
      this.firstReady = resolve;
      this.waitTimer = setTimeout(() => this.settle({ ok: false, code: 'connect_timeout', message: 'no long connection yet; still trying', retryable: true }), CONNECTION_TIMING.firstConnectWaitMs);
      this.client = new lark.WSClient({
        appId: this.creds.appId,
        appSecret: this.creds.appSecret,
        domain: resolveDomain(this.creds.domain),
        logger: sdkLogger(this.log),
        loggerLevel: lark.LoggerLevel.warn,
        autoReconnect: true,
        onReady: () => { this.set('connected'); this.settle({ ok: true, value: undefined }); },
        onReconnecting: () => this.set('reconnecting'),
        onReconnected: () => this.set('connected'),
        onError: (err: Error) => {
          const detail = describeFatal(err.message);
          this.set('failed', detail);
          this.settle({ ok: false, code: 'connect_failed', message: detail, retryable: false });
        },
      });
      void this.client.start({ eventDispatcher: dispatcher(this.log, this.sink) });
    });
  }

  private settle(r: ImResult<void>): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = null;
    const f = this.firstReady;
    this.firstReady = null;
    f?.(r);
  }

  async dispose(): Promise<void> {
    this.settle({ ok: false, code: 'stopped', message: 'connection disposed', retryable: false });
    this.client?.close({ force: true });
    this.client = null;
    this.set('stopped');
  }
}

export interface WebhookOptions {
  host: string;
  port: number;
  /** Events (and v2 card callbacks) arrive here. */
  path: string;
  /** Legacy card callback URL (CardActionHandler); defaults to `${path}/card`. */
  cardPath?: string;
  encryptKey?: string;
  verificationToken?: string;
}

/** Webhook transport. We route by exact path ourselves (the SDK's adaptDefault never answers other URLs). */
export class WebhookConnection extends StateHolder implements LarkConnection {
  private server: Server | null = null;
  private readonly events: lark.EventDispatcher;
  private readonly cards: lark.CardActionHandler;
  port = 0;

  constructor(private readonly opts: WebhookOptions, private readonly sink: RawEventSink, log: Logger, onState: (s: ConnectionState, d?: string) => void) {
    super(onState, log);
    this.events = dispatcher(log, sink, opts.encryptKey, opts.verificationToken);
    this.cards = new lark.CardActionHandler({ encryptKey: opts.encryptKey, verificationToken: opts.verificationToken, logger: sdkLogger(log), loggerLevel: lark.LoggerLevel.warn }, (d: unknown) => sink.cardAction(d));
  }

  start(): Promise<ImResult<void>> {
    if (!webhookIsAuthenticated(this.opts)) {
      // An open endpoint would let anyone who finds the URL post events "from" the owner (issue 13).
      this.set('failed', WEBHOOK_UNAUTHENTICATED);
      return Promise.resolve({ ok: false, code: 'webhook_unauthenticated', message: WEBHOOK_UNAUTHENTICATED, retryable: false });
    }
    this.set('connecting');
    return new Promise((resolve) => {
      const server = createServer((req, res) => void this.handle(req, res));
      server.once('error', (e: Error) => {
        this.set('failed', `webhook listen failed: ${e.message}`);
        resolve({ ok: false, code: 'listen_failed', message: e.message, retryable: false });
      });
      server.listen(this.opts.port, this.opts.host, () => {
        this.port = (server.address() as AddressInfo).port;
        this.server = server;
        this.set('connected');
        resolve({ ok: true, value: undefined });
      });
    });
  }

  /** Can also be mounted on another server: returns false when the URL is not ours. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const cardPath = this.opts.cardPath ?? `${this.opts.path}/card`;
    if (pathname !== this.opts.path && pathname !== cardPath) {
      res.writeHead(404).end();
      return false;
    }
    if (req.method !== 'POST') { res.writeHead(405).end(); return true; }
    const read = await readCapped(req, CONNECTION_TIMING.maxWebhookBodyBytes, { onOverflow: 'destroy' });
    if (read.kind !== 'body') { res.writeHead(413).end(); return true; }
    const raw = read.data;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      res.writeHead(400).end('{"msg":"body is not JSON"}');
      return true;
    }
    const auth = authenticateWebhook(
      { headers: req.headers, raw: raw.toString('utf8'), body, legacyCardPath: pathname === cardPath, nowSec: Date.now() / 1000 },
      this.opts,
    );
    if (!auth.ok) {
      this.log.warn({ path: pathname, reason: auth.reason }, 'unauthenticated webhook request refused');
      res.writeHead(401).end('{"msg":"unauthenticated"}');
      return true;
    }
    const data = Object.assign(Object.create({ headers: req.headers }) as object, body);
    const challenge = this.challenge(auth.plain);
    if (challenge !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge }));
      return true;
    }
    try {
      const out = pathname === this.opts.path ? await this.events.invoke(data, { needCheck: false }) : await this.cards.invoke(data);
      res.writeHead(200, { 'content-type': 'application/json' }).end(out === undefined || typeof out === 'string' ? '{}' : JSON.stringify(out));
    } catch (e) {
      this.log.warn({ err: scrubSecrets((e as Error).message) }, 'webhook handler failed');
      res.writeHead(500).end('{}');
    }
    return true;
  }

  private challenge(plain: Record<string, unknown>): string | undefined {
    return plain.type === 'url_verification' && typeof plain.challenge === 'string' ? plain.challenge : undefined;
  }

  async dispose(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
    this.set('stopped');
  }
}
