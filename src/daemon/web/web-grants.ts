// Web-terminal access grants (DESIGN §7): per-session view tokens, single-use write links, and write cookies.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Lifetimes, from the issue: a DM'd link is short-lived; the cookie lasts a working day. */
export const GRANT_TIMES = {
  /** A write link must be used within 5 minutes of being sent. */
  writeLinkMs: 5 * 60_000,
  /** The write cookie (bound to user + session) lasts 12 hours. */
  writeCookieMs: 12 * 60 * 60_000,
  /** Used links are remembered this long after expiry so a second use reports "used", not "unknown". */
  usedLinkMemoryMs: 5 * 60_000,
} as const;

/** 32 random bytes: 256 bits, not guessable; base64url so it sits in a URL path or cookie without escaping. */
const TOKEN_BYTES = 32;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export const WRITE_COOKIE_NAME = 'lmx_write';
export const VIEW_COOKIE_NAME = 'lmx_view';

export type GrantRefusal = 'malformed' | 'unknown' | 'used' | 'expired' | 'other_session' | 'revoked';
export type ExchangeResult =
  | { ok: true; cookieValue: string; userId: string; expiresAt: number }
  | { ok: false; code: GrantRefusal };
export type WriteCheck = { ok: true; userId: string } | { ok: false; code: GrantRefusal };

export interface WebGrantsOptions {
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /** Source of randomness; tests may pass a deterministic one. */
  random?: (bytes: number) => Buffer;
}

interface LinkGrant {
  hash: Buffer;
  sessionId: string;
  userId: string;
  expiresAt: number;
  usedAt: number | null;
  revoked: boolean;
}

interface CookieGrant {
  hash: Buffer;
  sessionId: string;
  userId: string;
  expiresAt: number;
  revoked: boolean;
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time equality of two SHA-256 digests (always 32 bytes, so timingSafeEqual never throws). */
const sameHash = (a: Buffer, b: Buffer): boolean => timingSafeEqual(a, b);

/** The grant a presented secret stands for on this session, or why there is none (expiry is the caller's to check). */
function grantFor<G extends { hash: Buffer; sessionId: string; revoked: boolean }>(grants: readonly G[], secret: string | null | undefined, sessionId: string): G | GrantRefusal {
  if (!secret || !TOKEN_RE.test(secret)) return 'malformed';
  const hash = sha256(secret);
  // Compare against every grant (no early exit) so timing says nothing about which grant matched.
  let found: G | undefined;
  for (const g of grants) if (sameHash(g.hash, hash)) found = g;
  if (!found) return 'unknown';
  if (found.sessionId !== sessionId) return 'other_session';
  if (found.revoked) return 'revoked';
  return found;
}

/**
 * Holds hashes only: a token is shown once (returned to the caller that sends it) and never kept or logged in clear,
 * except view tokens, which the daemon must be able to put on every card (`viewToken()`).
 */
export class WebGrants {
  private readonly now: () => number;
  private readonly random: (bytes: number) => Buffer;
  private readonly viewTokens = new Map<string, { token: string; hash: Buffer }>();
  private links: LinkGrant[] = [];
  private cookies: CookieGrant[] = [];

  constructor(opts: WebGrantsOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? randomBytes;
  }

  private newToken(): string {
    return this.random(TOKEN_BYTES).toString('base64url');
  }

  /** The session's view token, created on first use. Persist it with the session (restore with `setViewToken`). */
  viewToken(sessionId: string): string {
    const existing = this.viewTokens.get(sessionId);
    if (existing) return existing.token;
    const token = this.newToken();
    this.viewTokens.set(sessionId, { token, hash: sha256(token) });
    return token;
  }

  /** Replaces the session's view token with a fresh one (operators, `/revoke-term --view`): old links stop working. */
  rotateViewToken(sessionId: string): string {
    this.viewTokens.delete(sessionId);
    return this.viewToken(sessionId);
  }

  /** Restores a persisted view token (after a daemon restart), so old card links keep working. */
  setViewToken(sessionId: string, token: string): void {
    this.viewTokens.set(sessionId, { token, hash: sha256(token) });
  }

  checkView(sessionId: string, token: string | null | undefined): boolean {
    if (!token || !TOKEN_RE.test(token)) return false;
    const entry = this.viewTokens.get(sessionId);
    return entry !== undefined && sameHash(entry.hash, sha256(token));
  }

  /** A single-use write link token for one user on one session; send it to that user only (a DM). */
  issueWriteLink(sessionId: string, userId: string): { token: string; expiresAt: number } {
    this.prune();
    const token = this.newToken();
    const expiresAt = this.now() + GRANT_TIMES.writeLinkMs;
    this.links.push({ hash: sha256(token), sessionId, userId, expiresAt, usedAt: null, revoked: false });
    return { token, expiresAt };
  }

  /** Trades a write link for a cookie value. The link is spent even when the caller then fails to set the cookie. */
  exchangeWriteLink(sessionId: string, token: string): ExchangeResult {
    const found = grantFor(this.links, token, sessionId);
    if (typeof found === 'string') return { ok: false, code: found };
    if (found.usedAt !== null) return { ok: false, code: 'used' };
    const now = this.now();
    if (now >= found.expiresAt) return { ok: false, code: 'expired' };
    found.usedAt = now;
    return { ok: true, ...this.issueWriteCookie(sessionId, found.userId) };
  }

  /**
   * A write cookie straight away, for a caller that has already proven who the user is (the local console, whose
   * user is the owner): no link travels through a chat.
   */
  issueWriteCookie(sessionId: string, userId: string): { cookieValue: string; userId: string; expiresAt: number } {
    this.prune();
    const cookieValue = this.newToken();
    const expiresAt = this.now() + GRANT_TIMES.writeCookieMs;
    this.cookies.push({ hash: sha256(cookieValue), sessionId, userId, expiresAt, revoked: false });
    return { cookieValue, userId, expiresAt };
  }

  /** Who holds write access with this cookie value, if anyone. */
  checkWriteCookie(sessionId: string, value: string | null | undefined): WriteCheck {
    const found = grantFor(this.cookies, value, sessionId);
    if (typeof found === 'string') return { ok: false, code: found };
    if (this.now() >= found.expiresAt) return { ok: false, code: 'expired' };
    return { ok: true, userId: found.userId };
  }

  /** Ends every write link and write cookie of a session (`/revoke-term`); returns how many were live. The view token stays. */
  revoke(sessionId: string): number {
    return this.revokeWhere((g) => g.sessionId === sessionId);
  }

  /** Ends every write link and cookie one user holds, on every session (`larkmux console revoke` for the console user). */
  revokeUser(userId: string): number {
    return this.revokeWhere((g) => g.userId === userId);
  }

  /** Marks the matching grants revoked; returns how many were live (unused links and cookies, neither revoked nor expired). */
  private revokeWhere(match: (g: { sessionId: string; userId: string }) => boolean): number {
    // Kept (marked) until they would have expired, so a later use is refused as "revoked" in the log.
    const now = this.now();
    let ended = 0;
    for (const g of [...this.links.filter((l) => l.usedAt === null), ...this.cookies]) {
      if (!match(g) || g.revoked || now >= g.expiresAt) continue;
      g.revoked = true;
      ended++;
    }
    // Spent and expired links too: a second use of a link reads "revoked" once its session's or user's grants ended.
    for (const l of this.links) if (match(l)) l.revoked = true;
    return ended;
  }

  /** Ends everything of a session, view token included (`/close`). */
  forgetSession(sessionId: string): void {
    this.links = this.links.filter((l) => l.sessionId !== sessionId);
    this.cookies = this.cookies.filter((c) => c.sessionId !== sessionId);
    this.viewTokens.delete(sessionId);
  }

  /** Drops expired grants; used links stay a while so a late second use reads "used". */
  prune(): void {
    const now = this.now();
    this.links = this.links.filter((l) => now < l.expiresAt + GRANT_TIMES.usedLinkMemoryMs);
    this.cookies = this.cookies.filter((c) => now < c.expiresAt);
  }
}

/** The Set-Cookie value for a write cookie: HttpOnly, SameSite=Strict, scoped to the session's path. */
export function writeCookieHeader(sessionId: string, value: string, opts: { secure: boolean }): string {
  const maxAge = Math.floor(GRANT_TIMES.writeCookieMs / 1000);
  return `${WRITE_COOKIE_NAME}=${value}; Path=/s/${sessionId}/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
}

/** The view cookie lets the page's assets and WebSocket load after `?v=` opened it. */
export function viewCookieHeader(sessionId: string, token: string, opts: { secure: boolean }): string {
  return `${VIEW_COOKIE_NAME}=${token}; Path=/s/${sessionId}/; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
}

/** A Set-Cookie that removes the write cookie (after revocation, so the browser stops sending a dead value). */
export function clearWriteCookieHeader(sessionId: string): string {
  return `${WRITE_COOKIE_NAME}=; Path=/s/${sessionId}/; Max-Age=0; HttpOnly; SameSite=Strict`;
}

/** Reads one cookie from a Cookie header without trusting its shape. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
