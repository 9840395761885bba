// Who may use the console: a one-time login token (printed by `larkmux start`) traded for an HttpOnly cookie.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const CONSOLE_AUTH = {
  /** The printed link must be opened within an hour; `larkmux start` prints a fresh one whenever it is run. */
  loginTokenMs: 60 * 60_000,
  /** The cookie lasts a week of local use; it lives in the daemon's memory, so a restart asks for a new link. */
  cookieMs: 7 * 24 * 60 * 60_000,
  /** Login tokens not yet used are capped so that repeated `larkmux start` cannot grow memory. */
  maxPendingTokens: 32,
  cookieName: 'lmx_console',
} as const;

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

interface Grant {
  hash: Buffer;
  expiresAt: number;
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
    this.tokens.push({ hash: sha256(token), expiresAt: this.now() + CONSOLE_AUTH.loginTokenMs });
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
    this.cookies.push({ hash: sha256(cookie), expiresAt: this.now() + CONSOLE_AUTH.cookieMs });
    return cookie;
  }

  check(cookieValue: string | null | undefined): boolean {
    return this.find(this.cookies, cookieValue) !== undefined;
  }

  /** Compares against every grant (no early exit), in constant time per grant. */
  private find(list: readonly Grant[], value: string | null | undefined): Grant | undefined {
    if (!value || !TOKEN_RE.test(value)) return undefined;
    const hash = sha256(value);
    const now = this.now();
    let found: Grant | undefined;
    for (const g of list) if (timingSafeEqual(g.hash, hash) && now < g.expiresAt) found = g;
    return found;
  }

  private prune(): void {
    const now = this.now();
    this.tokens = this.tokens.filter((t) => now < t.expiresAt);
    this.cookies = this.cookies.filter((c) => now < c.expiresAt);
  }
}

export function consoleCookieHeader(value: string, opts: { secure: boolean }): string {
  const maxAge = Math.floor(CONSOLE_AUTH.cookieMs / 1000);
  return `${CONSOLE_AUTH.cookieName}=${value}; Path=/console/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
}
