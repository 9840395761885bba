// Console login: one-time tokens that expire, cookies that expire, nothing accepted that was not issued.
import { describe, expect, it } from 'vitest';
import { CONSOLE_AUTH, ConsoleAuth, consoleCookieHeader } from '../../src/daemon/im/local/console-auth.js';
import { isLoopback } from '../../src/daemon/web/is-loopback.js';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('ConsoleAuth', () => {
  it('a login token works once and yields a cookie that is then accepted', () => {
    const auth = new ConsoleAuth();
    const token = auth.issueLoginToken();
    const cookie = auth.exchange(token);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie).not.toBe(token);
    expect(auth.check(cookie)).toBe(true);
    expect(auth.exchange(token)).toBeNull();
    // The token is not a cookie, and a cookie is not a token.
    expect(auth.check(token)).toBe(false);
    expect(auth.exchange(cookie)).toBeNull();
  });

  it.each([null, undefined, '', 'short', 'A'.repeat(43), `${'A'.repeat(42)}=`, '$(rm -rf ~)'])('refuses %j', (v) => {
    const auth = new ConsoleAuth();
    auth.issueLoginToken();
    expect(auth.exchange(v)).toBeNull();
    expect(auth.check(v)).toBe(false);
  });

  it('login tokens and cookies expire', () => {
    const c = clock();
    const auth = new ConsoleAuth(c.now);
    const late = auth.issueLoginToken();
    const token = auth.issueLoginToken();
    const cookie = auth.exchange(token)!;
    c.advance(CONSOLE_AUTH.loginTokenMs);
    expect(auth.exchange(late)).toBeNull();
    expect(auth.check(cookie)).toBe(true);
    c.advance(CONSOLE_AUTH.cookieIdleMs);
    expect(auth.check(cookie)).toBe(false);
  });

  it('a cookie in use is renewed (sliding idle life) but ends at the absolute cap; an idle one ends after cookieIdleMs', () => {
    const c = clock();
    const auth = new ConsoleAuth(c.now);
    const used = auth.exchange(auth.issueLoginToken())!;
    const idle = auth.exchange(auth.issueLoginToken())!;
    const step = CONSOLE_AUTH.cookieIdleMs / 2;
    let elapsed = 0;
    while (elapsed + step < CONSOLE_AUTH.cookieMaxMs) {
      c.advance(step);
      elapsed += step;
      expect(auth.check(used), `used after ${elapsed} ms`).toBe(true);
      if (elapsed >= CONSOLE_AUTH.cookieIdleMs) expect(auth.check(idle)).toBe(false);
    }
    c.advance(CONSOLE_AUTH.cookieMaxMs - elapsed);
    expect(auth.check(used)).toBe(false);
    expect(CONSOLE_AUTH.cookieIdleMs).toBeLessThan(CONSOLE_AUTH.cookieMaxMs);
  });

  it('revokeAll ends every cookie and every unused login token', () => {
    const auth = new ConsoleAuth();
    const a = auth.exchange(auth.issueLoginToken())!;
    const b = auth.exchange(auth.issueLoginToken())!;
    const pending = auth.issueLoginToken();
    expect(auth.revokeAll()).toBe(2);
    expect(auth.check(a)).toBe(false);
    expect(auth.check(b)).toBe(false);
    expect(auth.exchange(pending)).toBeNull();
    expect(auth.check(auth.exchange(auth.issueLoginToken()))).toBe(true);
  });

  it('keeps at most maxPendingTokens unused tokens (the oldest go)', () => {
    const auth = new ConsoleAuth();
    const first = auth.issueLoginToken();
    for (let i = 0; i < CONSOLE_AUTH.maxPendingTokens; i++) auth.issueLoginToken();
    expect(auth.exchange(first)).toBeNull();
    expect(auth.exchange(auth.issueLoginToken())).not.toBeNull();
  });

  it('the cookie is HttpOnly, SameSite=Strict, scoped to /console/, Secure only over https', () => {
    expect(consoleCookieHeader('v', { secure: false })).toMatch(/^lmx_console=v; Path=\/console\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    expect(consoleCookieHeader('v', { secure: true })).toMatch(/; Secure$/);
  });
});

describe('isLoopback (who may open the console without console.allowRemote)', () => {
  it.each([
    ['127.0.0.1', true], ['127.8.9.10', true], ['::1', true], ['::ffff:127.0.0.1', true],
    ['192.0.2.2', false], ['::ffff:192.0.2.2', false], ['10.0.0.1', false], ['fe80::1', false], ['1127.0.0.1', false], [undefined, false],
  ])('%s → %s', (addr, want) => {
    expect(isLoopback(addr)).toBe(want);
  });
});
