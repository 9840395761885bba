// The daemon's web terminal: one proxy port, view tokens persisted with sessions, write links by DM, revocation.
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { Config } from '../../shared/config.js';
import type { Locale } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import type { SessionCore } from '../ground/session-core.js';
import type { ChangeSet } from '../changes/change-tracker.js';
import type { WebAccess } from './web-access.js';
import { DiffPages } from './web-diff.js';
import { GRANT_TIMES, WebGrants, writeCookieHeader } from './web-grants.js';
import { WebProxy, type ProxyMount, type WorkerEndpoint } from './web-proxy.js';
import type { WebUpstream } from '../workers/worker-link.js';

/** How the web side reaches sessions, whichever bot owns them. */
export interface SessionDirectory {
  session(id: string): SessionCore | undefined;
  /** The locale of the bot that owns the session (its web page and error pages speak it). */
  locale(id: string): Locale | undefined;
  /** Persists a new view token on the session record. */
  saveViewToken(id: string, token: string): void;
  /** Wakes the session's worker if it sleeps (as its owner rules); its web terminal once ready, or null when it cannot run. */
  wake(id: string): Promise<WebUpstream | null>;
  /** Tells a live worker to drop its open write connections. */
  revokeWorkerWrites(id: string): void;
  /** The session's last change set (for the diff page), if a turn has ended with one since the daemon started. */
  changes?(id: string): ChangeSet | undefined;
  /** Nobody watches the session in a web terminal any more (its worker may now be detached for being idle). */
  unwatched?(id: string): void;
}

export const WEB_TIMING = {
  /** A sleeping session's worker starts its CLI pane and web server within a few seconds; give up after 20. */
  wakeTimeoutMs: 20_000,
} as const;

/** The URL people open: web.publicUrl, or this host's first non-loopback address (the listen address if it is specific). */
export function reachableBaseUrl(web: Config['web'], port: number): string {
  if (web.publicUrl) return web.publicUrl.replace(/\/+$/, '');
  const wildcard = web.host === '0.0.0.0' || web.host === '::';
  let host = web.host;
  if (wildcard) {
    const addrs = Object.values(networkInterfaces()).flat().filter((a) => a && a.family === 'IPv4' && !a.internal);
    host = addrs[0]?.address ?? '127.0.0.1';
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Who can reach the web port, from the config alone (for the start-up log line). */
export function webExposure(web: Config['web']): 'this_machine' | 'https' | 'plain_http_network' {
  if (web.publicUrl?.startsWith('https:')) return 'https';
  const loopback = web.host === 'localhost' || web.host === '::1' || web.host.startsWith('127.');
  return loopback ? 'this_machine' : 'plain_http_network';
}

export class DaemonWeb implements WebAccess {
  readonly grants = new WebGrants();
  private readonly proxy: WebProxy;
  private readonly workerSecrets = new Map<string, string>();
  private base: string | null = null;

  constructor(
    private readonly web: Config['web'],
    private readonly dir: SessionDirectory,
    private readonly log: Logger,
  ) {
    this.proxy = new WebProxy({
      host: web.host,
      port: web.port,
      grants: this.grants,
      sessionExists: (id) => {
        const s = this.dir.session(id);
        return s !== undefined && s.lifecycle !== 'closed';
      },
      resolveWorker: (id) => this.resolveWorker(id),
      sessionLocale: (id) => this.dir.locale(id),
      log: { info: (o, m) => log.info(o, m), warn: (o, m) => log.warn(o, m) },
      ...(web.publicUrl ? { publicUrl: web.publicUrl } : {}),
      allowedHosts: web.allowedHosts,
      sessionPages: new DiffPages((id) => this.dir.changes?.(id)),
      unwatched: (id) => this.dir.unwatched?.(id),
    });
  }

  async start(): Promise<{ ok: true; baseUrl: string } | { ok: false; message: string }> {
    const res = await this.proxy.start();
    if (!res.ok) return { ok: false, message: res.message };
    this.base = reachableBaseUrl(this.web, res.port);
    const exposure = webExposure(this.web);
    if (exposure === 'plain_http_network') this.log.warn({ host: this.web.host }, 'web terminal listens beyond this machine over plain HTTP: links and cookies can be read on the network (set web.publicUrl to an https address)');
    if (exposure === 'this_machine') this.log.info({ host: this.web.host }, 'web terminal is reachable from this machine only (web.host); see docs/operations.md to expose it');
    return { ok: true, baseUrl: this.base };
  }

  get baseUrl(): string | null {
    return this.base;
  }

  /** The port, once listening (the console prints a loopback URL on it). */
  get port(): number | null {
    return this.proxy.port;
  }

  /** Routes of another part of the web port (the local console). */
  mount(m: ProxyMount): void {
    this.proxy.mount(m);
  }

  /** A Set-Cookie granting `userId` write access to a session at once (the console user, who is the owner). */
  writeCookieFor(sessionId: string, userId: string): string | null {
    if (!this.base) return null;
    const { cookieValue } = this.grants.issueWriteCookie(sessionId, userId);
    return writeCookieHeader(sessionId, cookieValue, { secure: this.web.publicUrl?.startsWith('https:') ?? false });
  }

  /** Registers a restored session's persisted view token so its old card links keep working. */
  restore(session: SessionCore): void {
    if (session.viewToken && session.lifecycle !== 'closed') this.grants.setViewToken(session.id, session.viewToken);
  }

  /** A fresh secret for a worker about to be forked; the proxy sends it with every request to that worker. */
  newWorkerSecret(sessionId: string): string | undefined {
    if (!this.base) return undefined;
    const secret = randomBytes(32).toString('base64url');
    this.workerSecrets.set(sessionId, secret);
    return secret;
  }

  private async resolveWorker(id: string): Promise<WorkerEndpoint | null> {
    const upstream = await Promise.race([this.dir.wake(id), new Promise<null>((r) => setTimeout(() => r(null), WEB_TIMING.wakeTimeoutMs).unref())]);
    const secret = this.workerSecrets.get(id);
    if (!upstream || !secret) return null;
    return { ...upstream, proxySecret: secret };
  }

  watching(sessionId: string): boolean {
    return this.proxy.openConnections(sessionId) > 0;
  }

  viewUrl(sessionId: string): string | undefined {
    return this.viewLink(sessionId, '');
  }

  /** The diff page of a session, with the same view token as the terminal link. */
  diffUrl(sessionId: string): string | undefined {
    return this.viewLink(sessionId, 'diff');
  }

  private viewLink(sessionId: string, page: string): string | undefined {
    if (!this.base) return undefined;
    const s = this.dir.session(sessionId);
    if (!s) return undefined;
    if (s.viewToken) this.grants.setViewToken(sessionId, s.viewToken);
    const token = s.viewToken ?? this.grants.viewToken(sessionId);
    if (!s.viewToken) this.dir.saveViewToken(sessionId, token);
    return `${this.base}/s/${sessionId}/${page}?v=${token}`;
  }

  writeLink(sessionId: string, userId: string): { url: string; expiresInMinutes: number } | null {
    if (!this.base) return null;
    const { token } = this.grants.issueWriteLink(sessionId, userId);
    this.log.info({ session: sessionId.slice(0, 8), user: userId }, 'write link issued');
    return { url: `${this.base}/s/${sessionId}/w/${token}`, expiresInMinutes: Math.round(GRANT_TIMES.writeLinkMs / 60_000) };
  }

  revokeSession(sessionId: string): number {
    const { grants, connections } = this.proxy.revoke(sessionId);
    this.dir.revokeWorkerWrites(sessionId);
    this.log.info({ session: sessionId.slice(0, 8), grants, connections }, 'web write grants revoked');
    return grants;
  }

  /** Every write grant and write connection of one user, on every session (the console user, when the console is revoked). */
  revokeUser(userId: string): void {
    const { grants, connections } = this.proxy.revokeUser(userId);
    this.log.info({ user: userId, grants, connections }, 'web write grants of a user revoked');
  }

  rotateViewToken(sessionId: string): { connections: number } | null {
    if (!this.base || !this.dir.session(sessionId)) return null;
    const { token, connections } = this.proxy.rotateView(sessionId);
    this.dir.saveViewToken(sessionId, token);
    this.log.info({ session: sessionId.slice(0, 8), connections }, 'web view token rotated');
    return { connections };
  }

  /** /close: every grant (view token too) and connection of the session ends. */
  closeSession(sessionId: string): void {
    this.proxy.closeSession(sessionId);
    this.workerSecrets.delete(sessionId);
  }

  dispose(): Promise<void> {
    return this.proxy.dispose();
  }
}
