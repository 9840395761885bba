// Table-driven tests of the web-terminal grants: view tokens, single-use write links, write cookies, revocation.
import { describe, expect, it } from 'vitest';
import {
  GRANT_TIMES, WebGrants, readCookie, writeCookieHeader, viewCookieHeader, type GrantRefusal,
} from '../../src/daemon/web/web-grants.js';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

function fixture() {
  let now = 1_700_000_000_000;
  const grants = new WebGrants({ now: () => now });
  return { grants, advance: (ms: number) => (now += ms) };
}

type Step = (f: ReturnType<typeof fixture>, token: string) => void;

const linkCases: { name: string; before: Step; session: string; token?: (t: string) => string; expect: 'ok' | GrantRefusal }[] = [
  { name: 'first use', before: () => {}, session: A, expect: 'ok' },
  { name: 'used twice', before: (f, t) => void f.grants.exchangeWriteLink(A, t), session: A, expect: 'used' },
  { name: 'just before expiry', before: (f) => void f.advance(GRANT_TIMES.writeLinkMs - 1), session: A, expect: 'ok' },
  { name: 'expired', before: (f) => void f.advance(GRANT_TIMES.writeLinkMs), session: A, expect: 'expired' },
  { name: 'forged (well-formed, never issued)', before: () => {}, session: A, token: () => 'Z'.repeat(43), expect: 'unknown' },
  { name: 'forged (one character changed)', before: () => {}, session: A, token: (t) => (t[0] === 'A' ? 'B' : 'A') + t.slice(1), expect: 'unknown' },
  { name: 'malformed', before: () => {}, session: A, token: (t) => `${t}/../x`, expect: 'malformed' },
  { name: 'empty', before: () => {}, session: A, token: () => '', expect: 'malformed' },
  { name: 'other session', before: () => {}, session: B, expect: 'other_session' },
  { name: 'revoked', before: (f) => f.grants.revoke(A), session: A, expect: 'revoked' },
  { name: 'revoke of another session does not touch it', before: (f) => f.grants.revoke(B), session: A, expect: 'ok' },
  { name: 'session forgotten (/close)', before: (f) => f.grants.forgetSession(A), session: A, expect: 'unknown' },
];

describe('write links', () => {
  it.each(linkCases)('$name → $expect', ({ before, session, token, expect: want }) => {
    const f = fixture();
    const link = f.grants.issueWriteLink(A, 'ou_alice');
    before(f, link.token);
    const res = f.grants.exchangeWriteLink(session, token ? token(link.token) : link.token);
    if (want === 'ok') {
      expect(res).toMatchObject({ ok: true, userId: 'ou_alice' });
    } else {
      expect(res).toEqual({ ok: false, code: want });
    }
  });

  it('issues a distinct 256-bit base64url token per link', () => {
    const { grants } = fixture();
    const a = grants.issueWriteLink(A, 'u').token;
    const b = grants.issueWriteLink(A, 'u').token;
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });
});

const cookieCases: { name: string; before: Step; session: string; value?: (v: string) => string; expect: 'ok' | GrantRefusal }[] = [
  { name: 'fresh cookie', before: () => {}, session: A, expect: 'ok' },
  { name: 'just before 12 h', before: (f) => void f.advance(GRANT_TIMES.writeCookieMs - 1), session: A, expect: 'ok' },
  { name: 'after 12 h', before: (f) => void f.advance(GRANT_TIMES.writeCookieMs), session: A, expect: 'expired' },
  { name: 'other session', before: () => {}, session: B, expect: 'other_session' },
  { name: 'revoked', before: (f) => f.grants.revoke(A), session: A, expect: 'revoked' },
  { name: 'forged', before: () => {}, session: A, value: () => 'Q'.repeat(43), expect: 'unknown' },
  { name: 'the link token is not a cookie', before: () => {}, session: A, value: () => 'LINK', expect: 'unknown' },
  { name: 'missing', before: () => {}, session: A, value: () => '', expect: 'malformed' },
];

describe('write cookies', () => {
  it.each(cookieCases)('$name → $expect', ({ before, session, value, expect: want }) => {
    const f = fixture();
    const link = f.grants.issueWriteLink(A, 'ou_alice');
    const ex = f.grants.exchangeWriteLink(A, link.token);
    if (!ex.ok) throw new Error('exchange failed');
    before(f, link.token);
    const v = value ? value(ex.cookieValue) : ex.cookieValue;
    const res = f.grants.checkWriteCookie(session, v === 'LINK' ? link.token : v);
    expect(res).toEqual(want === 'ok' ? { ok: true, userId: 'ou_alice' } : { ok: false, code: want });
  });
});

describe('revoke', () => {
  it('counts the live grants it ends: unused links and cookies, not spent or expired ones', () => {
    const f = fixture();
    const used = f.grants.issueWriteLink(A, 'u1');
    expect(f.grants.exchangeWriteLink(A, used.token).ok).toBe(true); // → one cookie; the link is spent
    f.grants.issueWriteLink(A, 'u2'); // live link
    f.grants.issueWriteLink(B, 'u3'); // other session
    expect(f.grants.revoke(A)).toBe(2);
    expect(f.grants.revoke(A)).toBe(0);
    expect(f.grants.revoke(B)).toBe(1);
  });
});

describe('view tokens', () => {
  const cases: { name: string; check: (g: WebGrants, tokenA: string) => boolean; expect: boolean }[] = [
    { name: 'own token', check: (g, t) => g.checkView(A, t), expect: true },
    { name: 'token of another session', check: (g, t) => g.checkView(B, t), expect: false },
    { name: 'forged', check: (g) => g.checkView(A, 'x'.repeat(43)), expect: false },
    { name: 'missing', check: (g) => g.checkView(A, null), expect: false },
    { name: 'stable across calls', check: (g, t) => g.viewToken(A) === t, expect: true },
    { name: 'survives revoke (/revoke-term ends writes only)', check: (g, t) => (g.revoke(A), g.checkView(A, t)), expect: true },
    { name: 'ends with the session', check: (g, t) => (g.forgetSession(A), g.checkView(A, t)), expect: false },
    { name: 'restored after restart', check: (g, t) => { const g2 = new WebGrants(); g2.setViewToken(A, t); return g2.checkView(A, t); }, expect: true },
  ];
  it.each(cases)('$name → $expect', ({ check, expect: want }) => {
    const { grants } = fixture();
    grants.viewToken(B);
    expect(check(grants, grants.viewToken(A))).toBe(want);
  });
});

describe('cookie headers', () => {
  it('write cookie is HttpOnly, SameSite=Strict, path-scoped, 12 h', () => {
    const h = writeCookieHeader(A, 'VALUE', { secure: false });
    expect(h).toBe(`lmx_write=VALUE; Path=/s/${A}/; Max-Age=43200; HttpOnly; SameSite=Strict`);
    expect(writeCookieHeader(A, 'V', { secure: true })).toMatch(/; Secure$/);
    expect(viewCookieHeader(A, 'T', { secure: false })).toContain('HttpOnly; SameSite=Strict');
  });
  it.each([
    ['lmx_write=abc', 'abc'],
    ['a=1; lmx_write=abc; b=2', 'abc'],
    ['xlmx_write=abc', null],
    ['', null],
  ])('readCookie(%j)', (header, want) => {
    expect(readCookie(header, 'lmx_write')).toBe(want);
  });
});
