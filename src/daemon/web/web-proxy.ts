// The daemon's one web port: checks grants for /s/<sessionId>/… and proxies HTTP and WebSocket to that session's worker.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import { localeFromLanguageTag, type Locale } from '../../shared/i18n.js';
import {
  VIEW_COOKIE_NAME, WRITE_COOKIE_NAME, clearWriteCookieHeader, readCookie, viewCookieHeader, writeCookieHeader, type WebGrants,
} from './web-grants.js';
import { hostServed, servedHostNames } from './web-host-check.js';
import { LINK_PAGE_HEADERS, writeLinkPage } from './web-link-page.js';
import { localeCookieHeader, page, plain, refuse } from './web-responses.js';
import { socketCapExceeded, viewerOf, type SocketHolder } from './web-socket-caps.js';
import { upstreamHeaders, type Access } from './web-upstream-headers.js';
import { routeOf } from './web-route.js';
import type { WebUpstream } from '../workers/worker-link.js';

export const WEB_PROXY_LIMITS = {
  /** Waking a sleeping session forks a worker and attaches tmux: seconds, not minutes. */
  resolveTimeoutMs: 30_000,
  /** The worker is on 127.0.0.1; if it does not answer in 10 s it is stuck. */
  upstreamTimeoutMs: 10_000,
  /**
   * Open WebSockets per grant: each one is a tmux client on its own pty in the worker (the host has ~4096 ptys). A
   * view link is shared by a whole group, so it gets room for a group watching at once; a write cookie is one person.
   */
  viewSocketsPerSession: 16,
  /**
   * Of those, one viewer (one client address, see viewerOf) may hold 4 (a phone, a laptop and a spare tab), so one
   * holder of the link can never take more than a quarter of the session's places and the rest of the group gets in.
   */
  viewSocketsPerViewer: 4,
  writeSocketsPerUser: 4,
} as const;

/** Another part of the web port with its own routes under `prefix` (the local console): it answers for itself. */
export interface ProxyMount {
  /** A path prefix without the trailing slash, e.g. `/console`: it matches `/console` and `/console/…`. */
  readonly prefix: string;
  http(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Where a session's worker listens (a loopback port, or a unix socket: a host's worker through its forward), and the secret that proves to it that a request came through this proxy. */
export type WorkerEndpoint = WebUpstream & { proxySecret: string };

export interface WebProxyLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WebProxyOptions {
  host: string;
  /** 0 = any free port (tests). */
  port: number;
  grants: WebGrants;
  /** Is this a session the daemon knows (live or sleeping)? Unknown → 404 without touching grants or workers. */
  sessionExists(sessionId: string): boolean;
  /** The session's worker, forking it when it sleeps (may take seconds); null = it cannot run (→ 503). */
  resolveWorker(sessionId: string): Promise<WorkerEndpoint | null>;
  log: WebProxyLog;
  /** The locale of the bot owning a session; without one, pages follow the browser's Accept-Language. */
  sessionLocale?(sessionId: string): Locale | undefined;
  /** web.publicUrl: its origin is accepted for WebSockets (behind a tunnel the Host header may differ); https → Secure cookies. */
  publicUrl?: string;
  /** web.allowedHosts: Host names served besides loopback, publicUrl's and the listen address (DNS rebinding, DESIGN §12). */
  allowedHosts?: readonly string[];
  /** Pages under a session that the daemon answers itself once the grant is checked (the diff page). */
  sessionPages?: { handles(path: string): boolean; serve(res: ServerResponse, sessionId: string, path: string, method: string | undefined, cookies: string[]): Promise<void> };
  /** The session's last WebSocket closed (nobody watches it any more). */
  unwatched?(sessionId: string): void;
}


export class WebProxy {
  private readonly server: Server;
  private readonly tunnels = new Map<string, Set<SocketHolder & { client: Duplex; upstream: Socket }>>();
  /** Upgrades past the socket-cap check still waiting for their worker, per session. */
  private readonly opening = new Map<string, Set<SocketHolder>>();
  private readonly secureCookies: boolean;
  private readonly publicHost: string | null;
  private readonly servedHosts: ReadonlySet<string>;
  private listeningPort: number | null = null;
  private readonly mounts: ProxyMount[] = [];

  constructor(private readonly opts: WebProxyOptions) {
    const pub = opts.publicUrl ? new URL(opts.publicUrl) : null;
    this.secureCookies = pub?.protocol === 'https:';
    this.publicHost = pub?.host ?? null;
    this.servedHosts = servedHostNames({
      bindHost: opts.host,
      publicUrl: opts.publicUrl,
      allowedHosts: opts.allowedHosts,
      interfaceAddresses: Object.values(networkInterfaces()).flat().map((a) => a?.address ?? ''),
    });
    this.server = createServer((req, res) => void this.handleHttp(req, res));
    this.server.on('upgrade', (req, socket, head) => void this.handleUpgrade(req, socket, head));
  }

  start(): Promise<{ ok: true; port: number } | { ok: false; code: 'listen_failed'; message: string }> {
    return new Promise((resolve) => {
      this.server.once('error', (e) => resolve({ ok: false, code: 'listen_failed', message: e.message }));
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.listeningPort = (this.server.address() as AddressInfo).port;
        resolve({ ok: true, port: this.listeningPort });
      });
    });
  }

  get port(): number | null {
    return this.listeningPort;
  }

  /** Adds routes of another part (before or after start). */
  mount(m: ProxyMount): void {
    this.mounts.push(m);
  }

  private mountFor(rawUrl: string | undefined): ProxyMount | undefined {
    const path = (rawUrl ?? '/').split('?')[0] ?? '/';
    return this.mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
  }

  /** WebSockets of the session open or waiting for its worker (read and write). */
  openConnections(sessionId: string): number {
    let n = this.tunnels.get(sessionId)?.size ?? 0;
    n += this.opening.get(sessionId)?.size ?? 0;
    return n;
  }

  /** `/revoke-term`: ends the session's write links and cookies and cuts its open write connections. */
  revoke(sessionId: string): { grants: number; connections: number } {
    const grants = this.opts.grants.revoke(sessionId);
    return { grants, connections: this.cut(sessionId, (a) => a.mode === 'write') };
  }

  /** Ends one user's write grants on every session and cuts their open write connections. */
  revokeUser(userId: string): { grants: number; connections: number } {
    const grants = this.opts.grants.revokeUser(userId);
    let connections = 0;
    for (const id of this.tunnels.keys()) connections += this.cut(id, (a) => a.mode === 'write' && a.userId === userId);
    return { grants, connections };
  }

  /** `/revoke-term --view`: a new view token for the session; open read-only connections (old token) are cut. */
  rotateView(sessionId: string): { token: string; connections: number } {
    const token = this.opts.grants.rotateViewToken(sessionId);
    return { token, connections: this.cut(sessionId, (a) => a.mode === 'read') };
  }

  /** `/close`: ends every grant of the session, the view token too, and cuts every connection. */
  closeSession(sessionId: string): number {
    this.opts.grants.forgetSession(sessionId);
    return this.cut(sessionId, () => true);
  }

  private cut(sessionId: string, which: (a: Access) => boolean): number {
    let n = 0;
    for (const t of this.tunnels.get(sessionId) ?? []) {
      if (!which(t.access)) continue;
      t.client.destroy();
      t.upstream.destroy();
      n++;
    }
    if (n) this.opts.log.info({ sessionId, connections: n }, 'web proxy: connections cut');
    return n;
  }

  /** Write cookie first (it is the stronger grant), then a view token from the URL or the view cookie. */
  private accessFor(req: IncomingMessage, sessionId: string, viewToken: string | null): Access | null {
    const cookies = req.headers.cookie;
    const write = this.opts.grants.checkWriteCookie(sessionId, readCookie(cookies, WRITE_COOKIE_NAME));
    if (write.ok) return { mode: 'write', userId: write.userId };
    if (this.opts.grants.checkView(sessionId, viewToken) || this.opts.grants.checkView(sessionId, readCookie(cookies, VIEW_COOKIE_NAME))) {
      return { mode: 'read' };
    }
    return null;
  }

  /** The session bot's locale, else the browser's (an unknown session says nothing about any bot). */
  private localeFor(req: IncomingMessage, sessionId?: string): Locale {
    return (sessionId && this.opts.sessionLocale?.(sessionId)) || localeFromLanguageTag(req.headers['accept-language']);
  }

  /** Before any route (mounted ones too): a Host name this port does not serve is refused (DNS rebinding). */
  private misdirected(req: IncomingMessage, kind: 'http' | 'websocket'): boolean {
    if (hostServed(req.headers.host, this.servedHosts)) return false;
    this.opts.log.warn({ host: (req.headers.host ?? '').slice(0, 100), kind }, 'web proxy: refused a Host name this port does not serve (add it to web.allowedHosts if it is yours)');
    return true;
  }

  private async handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.misdirected(req, 'http')) {
      req.resume();
      return page(res, 421, localeFromLanguageTag(req.headers['accept-language']), 'http.misdirected');
    }
    const mount = this.mountFor(req.url);
    if (mount) {
      return Promise.resolve(mount.http(req, res)).catch((err: unknown) => {
        this.opts.log.warn({ err: String(err) }, 'web proxy: mounted handler failed');
        if (!res.headersSent) plain(res, 500, 'Internal error');
        else res.destroy();
      });
    }
    const route = routeOf(req.url ?? '/');
    if (route.kind === 'health') return plain(res, 200, 'ok');
    if (route.kind === 'not_found') return this.notFound(req, res);
    // A write link's GET/HEAD shows the same button page whether or not the session exists: it tells nothing.
    if (route.kind === 'write_link' && (req.method === 'GET' || req.method === 'HEAD')) return this.linkPage(req, res);
    if (route.kind === 'add_slash') {
      const q = (req.url ?? '').indexOf('?');
      res.writeHead(308, { location: `/s/${route.sessionId}/${q < 0 ? '' : (req.url ?? '').slice(q)}` }).end();
      return;
    }
    if (!this.opts.sessionExists(route.sessionId)) return this.notFound(req, res);
    if (route.kind === 'write_link') return this.exchange(req, res, route.sessionId, route.token);
    const access = this.accessFor(req, route.sessionId, route.viewToken);
    if (!access) {
      const headers: Record<string, string> = readCookie(req.headers.cookie, WRITE_COOKIE_NAME) ? { 'set-cookie': clearWriteCookieHeader(route.sessionId) } : {};
      this.opts.log.info({ sessionId: route.sessionId, kind: 'http' }, 'web proxy: refused (no valid grant)');
      return this.notFound(req, res, headers);
    }
    const locale = this.localeFor(req, route.sessionId);
    // The page reads its language from this cookie (the bot's locale); it is no secret.
    const cookies = [localeCookieHeader(route.sessionId, locale)];
    if (route.viewToken && access.mode === 'read') cookies.push(viewCookieHeader(route.sessionId, route.viewToken, { secure: this.secureCookies }));
    if (this.opts.sessionPages?.handles(route.path)) return this.opts.sessionPages.serve(res, route.sessionId, route.path, req.method, cookies);
    const worker = await this.worker(route.sessionId);
    if (!worker) return page(res, 503, locale, 'http.workerDown');
    const upstream = httpRequest({
      ...('port' in worker ? { host: '127.0.0.1', port: worker.port } : { socketPath: worker.socketPath }),
      method: req.method,
      path: route.path,
      headers: upstreamHeaders(req.headers, access, worker, false),
      timeout: WEB_PROXY_LIMITS.upstreamTimeoutMs,
    });
    upstream.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, { ...up.headers, 'set-cookie': [...(up.headers['set-cookie'] ?? []), ...cookies] });
      up.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) page(res, 502, locale, 'http.noAnswer');
      else res.destroy();
    });
    req.pipe(upstream);
  }

  /** Missing session, no grant, bad link: one answer, so nobody can tell which sessions exist. */
  private notFound(req: IncomingMessage, res: ServerResponse, headers: Record<string, string> = {}): void {
    // In the browser's language, never the session bot's: that would tell which sessions exist.
    page(res, 404, this.localeFor(req), 'webLink.invalid', headers);
  }

  /** GET/HEAD of a write link: a page with one button. Previewers and crawlers stop here; the link stays unspent. */
  private linkPage(req: IncomingMessage, res: ServerResponse): void {
    const body = writeLinkPage(this.localeFor(req));
    res.writeHead(200, { ...LINK_PAGE_HEADERS, 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** POST of a write link (the person tapped the button): spend the link, set the write cookie, open the terminal. */
  private exchange(req: IncomingMessage, res: ServerResponse, sessionId: string, token: string): void {
    req.resume(); // the form body is empty; never buffered
    if (req.method !== 'POST') return this.notFound(req, res);
    if (!this.originAllowed(req)) {
      this.opts.log.warn({ sessionId }, 'web proxy: write link POST from another origin refused');
      return this.notFound(req, res);
    }
    const result = this.opts.grants.exchangeWriteLink(sessionId, token);
    if (!result.ok) {
      this.opts.log.info({ sessionId, result: result.code }, 'web proxy: write link refused');
      return this.notFound(req, res);
    }
    this.opts.log.info({ sessionId, userId: result.userId }, 'web proxy: write link exchanged');
    // 303 after the POST: the POST came from this origin's own page, so the redirect is a same-site navigation and
    // the SameSite=Strict cookie goes with it; a reload does not post again. The final URL carries no secret.
    res.writeHead(303, {
      location: `/s/${sessionId}/`,
      'set-cookie': writeCookieHeader(sessionId, result.cookieValue, { secure: this.secureCookies }),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
  }

  private async handleUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    if (this.misdirected(req, 'websocket')) return refuse(client, 421);
    const mount = this.mountFor(req.url);
    if (mount) return mount.upgrade(req, client, head);
    const route = routeOf(req.url ?? '/');
    if (route.kind !== 'session' || !this.opts.sessionExists(route.sessionId)) return refuse(client, 404);
    if (!this.originAllowed(req)) {
      this.opts.log.warn({ sessionId: route.sessionId }, 'web proxy: WebSocket from another origin refused');
      return refuse(client, 404);
    }
    const access = this.accessFor(req, route.sessionId, route.viewToken);
    if (!access) {
      this.opts.log.info({ sessionId: route.sessionId, kind: 'websocket' }, 'web proxy: refused (no valid grant)');
      return refuse(client, 404);
    }
    // Counted before waiting for the worker, so a burst of upgrades cannot all pass the check at once.
    const holder: SocketHolder = { access, viewer: viewerOf(req.socket.remoteAddress, req.headers['x-forwarded-for']) };
    const pending = this.opening.get(route.sessionId) ?? new Set<SocketHolder>();
    const exceeded = socketCapExceeded([...(this.tunnels.get(route.sessionId) ?? []), ...pending], holder, WEB_PROXY_LIMITS);
    if (exceeded) {
      this.opts.log.warn({ sessionId: route.sessionId, mode: access.mode, cap: exceeded }, 'web proxy: WebSocket refused (too many open for this holder)');
      return refuse(client, 429);
    }
    this.opening.set(route.sessionId, pending.add(holder));
    let worker: WorkerEndpoint | null;
    try {
      worker = await this.worker(route.sessionId);
    } finally {
      pending.delete(holder);
      if (!pending.size && this.opening.get(route.sessionId) === pending) this.opening.delete(route.sessionId);
    }
    if (client.destroyed) return;
    if (!worker) return refuse(client, 503);
    const upstream = 'port' in worker ? connect({ host: '127.0.0.1', port: worker.port }) : connect({ path: worker.socketPath });
    const entry = { ...holder, client, upstream };
    const set = this.tunnels.get(route.sessionId) ?? new Set();
    this.tunnels.set(route.sessionId, set.add(entry));
    const end = () => {
      if (!set.delete(entry)) return;
      if (set.size === 0 && this.tunnels.get(route.sessionId) === set) {
        this.tunnels.delete(route.sessionId);
        this.opts.unwatched?.(route.sessionId);
      }
      client.destroy();
      upstream.destroy();
    };
    upstream.setTimeout(WEB_PROXY_LIMITS.upstreamTimeoutMs, () => end());
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      const headers = upstreamHeaders(req.headers, access, worker, true);
      const lines = [`GET ${route.path} HTTP/1.1`, `host: ${'port' in worker ? `127.0.0.1:${worker.port}` : 'localhost'}`];
      for (const [k, v] of Object.entries(headers)) for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) lines.push(`${k}: ${one}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', end);
    upstream.on('close', end);
    client.on('close', end);
  }

  private originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin) return true; // not a browser; grants still apply
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    return host === req.headers.host || (this.publicHost !== null && host === this.publicHost);
  }

  private async worker(sessionId: string): Promise<WorkerEndpoint | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), WEB_PROXY_LIMITS.resolveTimeoutMs);
    });
    try {
      const found = await Promise.race([this.opts.resolveWorker(sessionId).catch(() => null), timeout]);
      if (!found) this.opts.log.warn({ sessionId }, 'web proxy: no worker for session');
      return found;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cuts every tunnel and stops listening. */
  async dispose(): Promise<void> {
    for (const set of this.tunnels.values()) {
      for (const t of set) {
        t.client.destroy();
        t.upstream.destroy();
      }
    }
    this.tunnels.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
