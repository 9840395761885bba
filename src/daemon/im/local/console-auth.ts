// Who may use the console: a one-time login token (printed by `larkmux start`) traded for an HttpOnly cookie.
// The token is spent only by the POST of the one-button login page (never by a GET or HEAD a previewer sends).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const CONSOLE_AUTH = {
  /** The printed link must be opened within an hour; `larkmux start` prints a fresh one whenever it is run. */
  loginTokenMs: 60 * 60_000,
  /**
   * The cookie is renewed by every use and ends after 12 hours without one: a console used through the working day
   * stays signed in, a browser left overnight (or a copied cookie nobody uses) asks for a new link.
   */
  cookieIdleMs: 12 * 60 * 60_000,
  /**
   * However often it is used, a cookie ends 3 days after the login: a cookie someone copied and keeps using works no
   * longer than that even if nobody revokes it. It lives in the daemon's memory, so a restart ends it too.
   */
  cookieMaxMs: 3 * 24 * 60 * 60_000,
  /** Login tokens not yet used are capped so that repeated `larkmux start` cannot grow memory. */
  maxPendingTokens: 32,
  cookieName: 'lmx_console',
} as const;

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

interface Grant {
  hash: Buffer;
  /** Unused tokens: when they expire. Cookies: the idle deadline, moved on by each use (never past endsAt). */
  expiresAt: number;
  /** Cookies only: the absolute end (cookieMaxMs after the login). */
  endsAt: number;
}

/** Holds hashes only; a token or cookie value is shown once, to the caller that hands it out. */
export class ConsoleAuth {
  private tokens: Grant[] = [];
  private cookies: Grant[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh single-use login token. */
  issueLoginToken(): string {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + CONSOLE_AUTH.loginTokenMs;
    this.tokens.push({ hash: sha256(token), expiresAt, endsAt: expiresAt });
    if (this.tokens.length > CONSOLE_AUTH.maxPendingTokens) this.tokens.shift();
    return token;
  }

  /** Spends a login token; the cookie value to set, or null when the token is unknown, used or expired. */
  exchange(token: string | null | undefined): string | null {
    this.prune();
    const found = this.find(this.tokens, token);
    if (!found) return null;
    this.tokens = this.tokens.filter((t) => t !== found);
    const cookie = randomBytes(32).toString('base64url');
    const now = this.now();
    this.cookies.push({ hash: sha256(cookie), expiresAt: now + CONSOLE_AUTH.cookieIdleMs, endsAt: now + CONSOLE_AUTH.cookieMaxMs });
    return cookie;
  }

  /** Is this a live console cookie? A use renews its idle life (up to its absolute end). */
  check(cookieValue: string | null | undefined): boolean {
    const found = this.find(this.cookies, cookieValue);
    if (!found) return false;
    found.expiresAt = Math.min(this.now() + CONSOLE_AUTH.cookieIdleMs, found.endsAt);
    return true;
  }

  /** `larkmux console revoke` or "sign out": every console cookie and unused login link ends; how many cookies were live. */
  revokeAll(): number {
    this.prune();
    const ended = this.cookies.length;
    this.cookies = [];
    this.tokens = [];
    return ended;
  }

  /** Compares against every grant (no early exit), in constant time per grant. */
  private find(list: readonly Grant[], value: string | null | undefined): Grant | undefined {
    if (!value || !TOKEN_RE.test(value)) return undefined;
    const hash = sha256(value);
    const now = this.now();
    let found: Grant | undefined;
    for (const g of list) if (timingSafeEqual(g.hash, hash) && now < g.expiresAt && now < g.endsAt) found = g;
    return found;
  }

  private prune(): void {
    const now = this.now();
    this.tokens = this.tokens.filter((t) => now < t.expiresAt);
    this.cookies = this.cookies.filter((c) => now < c.expiresAt && now < c.endsAt);
  }
}

export function consoleCookieHeader(value: string, opts: { secure: boolean }): string {
  // The browser may keep it until the absolute end; the daemon decides the idle end (it sees every use).
  const maxAge = Math.floor(CONSOLE_AUTH.cookieMaxMs / 1000);
  return `${CONSOLE_AUTH.cookieName}=${value}; Path=/console/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
}

/** Removes the console cookie from the browser (after signing out). */
export function clearConsoleCookieHeader(opts: { secure: boolean }): string {
  return `${CONSOLE_AUTH.cookieName}=; Path=/console/; Max-Age=0; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
}
