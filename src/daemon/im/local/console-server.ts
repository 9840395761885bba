// The console's HTTP and WebSocket side on the daemon's web port: login exchange, the page, screenshots, live updates.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONSOLE_LIMITS, CONSOLE_PATHS, ConsoleClientMessageSchema, type ConsoleServerMessage, type ConsoleUploadReply } from '../../../shared/console-protocol.js';
import { localeFromLanguageTag, t, type Locale, type MessageKey } from '../../../shared/i18n.js';
import type { Logger } from '../../../platform/log.js';
import { readCapped } from '../../../platform/read-capped.js';
import { BundledFiles, bundledPageDir, pageHeaders } from '../../../platform/bundled-files.js';
import { SESSION_ID_RE } from '../../../shared/session-key.js';
import { isLoopback } from '../../web/is-loopback.js';
import { readCookie } from '../../web/web-grants.js';
import { LINK_PAGE_HEADERS, consoleLoginPage } from '../../web/web-link-page.js';
import { CONSOLE_USER_ID, type ConsoleAdapter } from './console-adapter.js';
import { inlineImageType } from './console-media.js';
import { CONSOLE_AUTH, clearConsoleCookieHeader, consoleCookieHeader, type ConsoleAuth } from './console-auth.js';

/** URL path → bundled file; nothing outside this table is read from disk. */
const FILES = {
  [CONSOLE_PATHS.root]: 'index.html',
  '/console/console.js': 'console.js',
  '/console/console.js.map': 'console.js.map',
  '/console/style.css': 'style.css',
};

/**
 * Same-origin only, no framing. Referrer: same-origin, because under no-referrer Chromium sends `Origin: null` with the
 * sign-out form's POST, whose origin is checked; these pages' URLs hold no token (the login page has its own headers).
 */
const PAGE_HEADERS = pageHeaders("default-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'", 'same-origin');

/** The bundled page: dist/web/console next to the built daemon, or the repo's when running from source. */
export function consoleStaticDir(): string {
  return bundledPageDir('console', 'console.js');
}

export interface ConsoleServerOptions {
  adapter: ConsoleAdapter;
  /** console.allowRemote: other machines may open the console (default: loopback peers only). */
  allowRemote?: boolean;
  auth: ConsoleAuth;
  log: Logger;
  staticDir?: string;
  /** web.publicUrl: its origin is accepted for the WebSocket too; https → Secure cookies. */
  publicUrl?: string;
  /** An open session of the console (the terminal route refuses anything else). */
  ownsOpenSession(sessionId: string): boolean;
  /** A write cookie (name=value; attributes) for the console user on that session, or null when the web terminal is off. */
  writeCookie(sessionId: string, userId: string): string | null;
  /**
   * The console's language for a browser's Accept-Language: console.locale, else the browser's. Pure: asked for each
   * signed-in reply's own text; the console bot's language is decided only when a page connects (`adoptLocale`).
   */
  localeFor?(acceptLanguage: string | undefined): Locale;
  /** A page's WebSocket opened in this language: the console bot (cards, notices, toasts, web terminal) speaks it. */
  adoptLocale?(locale: Locale): void;
  /** Revocation also ends the console user's write cookies and connections on session terminals they opened. */
  revokeWriteAccess?(userId: string): void;
}

export class ConsoleServer {
  readonly prefix = '/console';
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: CONSOLE_LIMITS.maxFrameBytes });
  private readonly files: BundledFiles;
  private readonly secure: boolean;
  private readonly publicHost: string | null;

  constructor(private readonly opts: ConsoleServerOptions) {
    this.files = new BundledFiles(opts.staticDir ?? consoleStaticDir(), FILES);
    const pub = opts.publicUrl ? new URL(opts.publicUrl) : null;
    this.secure = pub?.protocol === 'https:';
    this.publicHost = pub?.host ?? null;
  }

  private authorized(req: IncomingMessage): boolean {
    return this.opts.auth.check(readCookie(req.headers.cookie, CONSOLE_AUTH.cookieName));
  }

  /** `larkmux console revoke` and the page's sign-out: every console cookie and open console connection ends. */
  revoke(): { cookies: number; connections: number } {
    const cookies = this.opts.auth.revokeAll();
    const connections = this.wss.clients.size;
    for (const c of this.wss.clients) c.terminate();
    this.opts.revokeWriteAccess?.(CONSOLE_USER_ID);
    this.opts.log.info({ cookies, connections }, 'console: every cookie revoked');
    return { cookies, connections };
  }

  private remoteRefused(req: IncomingMessage): boolean {
    if (this.opts.allowRemote || isLoopback(req.socket.remoteAddress)) return false;
    this.opts.log.warn({ peer: req.socket.remoteAddress }, 'console: refused a peer that is not this machine (console.allowRemote is off)');
    return true;
  }

  async http(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    let locale = localeFromLanguageTag(req.headers['accept-language']);
    if (this.remoteRefused(req)) return plain(res, 403, t(locale, 'console.remoteRefused'));
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return plain(res, 405, 'Method not allowed');
    if (!(req.method === 'POST' && url.pathname === CONSOLE_PATHS.upload)) req.resume(); // only the upload reads a body
    if (url.pathname === '/console') {
      res.writeHead(308, { location: `${CONSOLE_PATHS.root}${url.search}` }).end();
      return;
    }
    const token = url.searchParams.get('token');
    if (url.pathname === CONSOLE_PATHS.root && token !== null) {
      return req.method === 'POST' ? this.login(req, res, token, locale) : this.loginPage(res, locale, req.method === 'HEAD');
    }
    if ((req.method === 'POST') !== (url.pathname === CONSOLE_PATHS.signOut || url.pathname === CONSOLE_PATHS.upload)) return plain(res, 405, 'Method not allowed');
    if (!this.authorized(req)) {
      req.resume();
      this.opts.log.info({ path: url.pathname }, 'console: refused (no valid cookie)');
      return plain(res, 401, t(locale, 'console.unauthorized'));
    }
    locale = this.browserLocale(req); // this reply's text only; pictures and static files decide nothing
    if (url.pathname === CONSOLE_PATHS.signOut) return this.signOut(req, res, locale);
    if (url.pathname === CONSOLE_PATHS.upload) return this.upload(req, res, locale);
    if (url.pathname.startsWith(CONSOLE_PATHS.image)) return this.image(res, url.pathname.slice(CONSOLE_PATHS.image.length), req.method === 'HEAD');
    if (url.pathname.startsWith(CONSOLE_PATHS.file)) return this.download(res, url.pathname.slice(CONSOLE_PATHS.file.length), req.method === 'HEAD');
    if (url.pathname.startsWith(CONSOLE_PATHS.term)) return this.terminal(res, url.pathname.slice(CONSOLE_PATHS.term.length).replace(/\/$/, ''), locale);
    return this.file(res, url.pathname, req.method === 'HEAD');
  }

  /** GET/HEAD of the login link: a page with one button; previewers and prefetchers stop here and spend nothing. */
  private loginPage(res: ServerResponse, locale: Locale, headOnly: boolean): void {
    const body = consoleLoginPage(locale);
    res.writeHead(200, { ...LINK_PAGE_HEADERS, 'content-length': Buffer.byteLength(body) });
    res.end(headOnly ? undefined : body);
  }

  /** The button's POST (same origin only): token → cookie, then a redirect to the page without the token. */
  private login(req: IncomingMessage, res: ServerResponse, token: string, locale: Locale): void {
    if (!this.originAllowed(req)) {
      this.opts.log.warn('console: login POST from another origin refused (the token stays unspent)');
      return plain(res, 403, t(locale, 'console.otherOrigin'));
    }
    const cookie = this.opts.auth.exchange(token);
    if (!cookie) {
      this.opts.log.info('console: login token refused (unknown, used or expired)');
      return plain(res, 401, t(locale, 'console.badToken'));
    }
    this.opts.log.info('console: login token exchanged for a cookie');
    res.writeHead(303, { location: CONSOLE_PATHS.root, 'set-cookie': consoleCookieHeader(cookie, { secure: this.secure }), ...PAGE_HEADERS }).end();
  }

  /** The page's "sign out everywhere" form: ends every console cookie, this one included. */
  private signOut(req: IncomingMessage, res: ServerResponse, locale: Locale): void {
    if (!this.originAllowed(req)) {
      this.opts.log.warn('console: sign-out POST from another origin refused');
      return plain(res, 403, t(locale, 'console.otherOrigin'));
    }
    this.revoke();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'set-cookie': clearConsoleCookieHeader({ secure: this.secure }), ...PAGE_HEADERS });
    res.end(`${t(locale, 'console.signedOut')}\n`);
  }

  /** A screenshot or a picture, inline only when its first bytes are a picture a browser shows (never SVG or HTML). */
  private image(res: ServerResponse, ref: string, headOnly: boolean): void {
    const held = this.opts.adapter.media.get(ref);
    const bytes = this.opts.adapter.chat.image(ref) ?? (held?.media.kind === 'image' ? held.bytes : undefined);
    const type = bytes ? inlineImageType(bytes) : null;
    if (!bytes || !type) return plain(res, 404, 'Not found');
    sendBytes(res, bytes, { 'content-type': type, 'content-disposition': 'inline', ...MEDIA_HEADERS }, headOnly);
  }

  /** A file (or picture) as a download: always an attachment of an opaque type, whatever its name or bytes say. */
  private download(res: ServerResponse, ref: string, headOnly: boolean): void {
    const held = this.opts.adapter.media.get(ref);
    if (!held) return plain(res, 404, 'Not found');
    sendBytes(res, held.bytes, { 'content-type': 'application/octet-stream', 'content-disposition': attachmentDisposition(held.media.name), ...MEDIA_HEADERS }, headOnly);
  }

  /**
   * The composer's attach button: one file's raw bytes (same origin, with the cookie), within the console's
   * attachment cap. Refused early by its length when it says it is too long, else as soon as it grows past the cap.
   */
  private async upload(req: IncomingMessage, res: ServerResponse, locale: Locale): Promise<void> {
    const reply = (status: number, body: ConsoleUploadReply) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...PAGE_HEADERS, ...(status === 200 ? {} : { connection: 'close' }) }).end(JSON.stringify(body));
    };
    if (!this.originAllowed(req) || !req.headers.origin) {
      req.resume();
      this.opts.log.warn('console: upload from another origin refused');
      return reply(403, { ok: false, error: t(locale, 'console.otherOrigin') });
    }
    const cap = this.opts.adapter.uploadBytes;
    const tooLarge = () => reply(413, { ok: false, error: t(locale, 'console.attach.tooLarge', { mb: Math.floor(cap / (1024 * 1024)) }) });
    if (Number(req.headers['content-length'] ?? 0) > cap) {
      req.resume();
      return tooLarge();
    }
    const read = await readCapped(req, cap, { onOverflow: 'drain' });
    if (read.kind === 'too_large') return tooLarge();
    if (read.kind === 'failed') return;
    const body = read.data;
    if (body.byteLength === 0) return reply(400, { ok: false, error: t(locale, 'console.attach.empty') });
    const media = this.opts.adapter.upload(body, fileNameHeader(req.headers['x-file-name']));
    this.opts.log.info({ kind: media.kind, bytes: media.size }, 'console: file attached in the composer');
    reply(200, { ok: true, media });
  }

  /** The card's web-terminal button: the console user is the owner, so the terminal opens with write access. */
  private terminal(res: ServerResponse, sessionId: string, locale: Locale): void {
    if (!SESSION_ID_RE.test(sessionId) || !this.opts.ownsOpenSession(sessionId)) return plain(res, 404, 'Not found');
    const cookie = this.opts.writeCookie(sessionId, CONSOLE_USER_ID);
    if (!cookie) return plain(res, 503, t(locale, 'console.webOff'));
    this.opts.log.info({ session: sessionId.slice(0, 8) }, 'console: write cookie issued for the console user');
    res.writeHead(303, { location: `/s/${sessionId}/`, 'set-cookie': cookie, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).end();
  }

  private async file(res: ServerResponse, path: string, headOnly: boolean): Promise<void> {
    const found = await this.files.get(path);
    if (!found) return plain(res, 404, 'Not found');
    res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length, ...PAGE_HEADERS });
    res.end(headOnly ? undefined : found.body);
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(req.url ?? '/', 'http://console.invalid').pathname;
    if (path !== CONSOLE_PATHS.ws) return refuse(socket, 404);
    if (this.remoteRefused(req)) return refuse(socket, 403);
    if (!this.originAllowed(req)) {
      this.opts.log.warn('console: WebSocket from another origin refused');
      return refuse(socket, 403);
    }
    if (!this.authorized(req)) {
      this.opts.log.info('console: WebSocket refused (no valid cookie)');
      return refuse(socket, 401);
    }
    // Once per page connection: its language becomes the console bot's, before the hello that carries it.
    const locale = this.browserLocale(req);
    const cookie = readCookie(req.headers.cookie, CONSOLE_AUTH.cookieName);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.opts.adoptLocale?.(locale);
      this.serve(ws, locale, cookie);
    });
  }

  private browserLocale(req: IncomingMessage): Locale {
    const language = req.headers['accept-language'];
    return this.opts.localeFor?.(language) ?? localeFromLanguageTag(language);
  }

  private originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin) return true; // not a browser; the cookie is still required
    try {
      const host = new URL(origin).host;
      return host === req.headers.host || (this.publicHost !== null && host === this.publicHost);
    } catch {
      return false;
    }
  }

  private serve(ws: WebSocket, locale: Locale, cookie: string | null): void {
    const send = (msg: ConsoleServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };
    const toast = (level: 'error' | 'info' | 'success' | 'warning', key: MessageKey) => send({ type: 'toast', level, text: t(locale, key) });
    send(this.opts.adapter.hello(locale));
    const unsubscribe = this.opts.adapter.subscribe(send);
    ws.on('close', unsubscribe);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      // Each message is a use of the cookie: it renews the cookie's idle life, and a cookie that ended closes the socket.
      if (!this.opts.auth.check(cookie)) return ws.terminate();
      let raw: unknown;
      try {
        raw = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        raw = undefined;
      }
      const parsed = ConsoleClientMessageSchema.safeParse(raw);
      if (!parsed.success) return toast('error', 'console.error.badMessage');
      void this.opts.adapter.receive(CONSOLE_USER_ID, parsed.data).then((reply) => {
        if (reply && 'error' in reply) toast('error', ERROR_KEY[reply.error] ?? 'console.error.badMessage');
        else if (reply?.toast) send({ type: 'toast', level: reply.toast.type, text: reply.toast.content });
      }, (err: unknown) => this.opts.log.error({ err }, 'console: message handling failed'));
    });
  }

  dispose(): void {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
  }
}

const ERROR_KEY: Record<string, MessageKey> = {
  unknown_cli: 'console.error.unknownChoice',
  unknown_project: 'console.error.unknownChoice',
  unknown_topic: 'console.error.unknownTopic',
  unknown_button: 'console.error.unknownButton',
  unknown_attachment: 'console.attach.gone',
  empty_message: 'console.error.badMessage',
};

/** Pictures and downloads: nothing in them runs (sandboxed, no sniffing), private to this browser. */
const MEDIA_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'private, max-age=3600, immutable',
} as const;

function sendBytes(res: ServerResponse, bytes: Uint8Array, headers: Record<string, string>, headOnly: boolean): void {
  res.writeHead(200, { ...headers, 'content-length': bytes.byteLength });
  res.end(headOnly ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** `attachment` with the name as given (RFC 6266 `filename*`), and a plain ASCII fallback for old clients. */
function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'file';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name || 'file')}`;
}

/** The sender's file name from the upload's header (URI-encoded by the page): one line, no folders. */
function fileNameHeader(raw: string | string[] | undefined): string {
  let name = '';
  try {
    name = decodeURIComponent(typeof raw === 'string' ? raw : '');
  } catch {
    name = '';
  }
  return (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255) || 'file';
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS }).end(`${text}\n`);
}

function refuse(socket: Duplex, status: 401 | 403 | 404): void {
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status];
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
