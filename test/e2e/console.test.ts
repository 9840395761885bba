// The local console end to end: the built daemon with no bot, its printed link in real Chromium, a shell topic driven from the page.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebBundle, launchChromium, signInToConsole, waitFor } from '../support/browser.js';
import { CONSOLE_LINK_RE as LINK_RE, openTerminalTab, startConsoleDaemon, stopConsoleDaemon } from '../support/console-daemon.js';
import type { TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import type { TestTmuxServer } from '../support/tmux.js';

const SHOTS = '/tmp/console-shots';

/** Opens a WebSocket to the console and reports what happened: the first message, or the refusal status. */
function tryWs(url: string, headers: Record<string, string>): Promise<{ status?: number; first?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('message', (d) => {
      resolve({ first: d.toString() });
      ws.close();
    });
    ws.on('error', () => resolve({}));
  });
}

describe('local console (no Feishu app)', () => {
  let browser: Browser;
  let home: TestHome;
  let tmux: TestTmuxServer;
  let base = '';
  let link = '';
  let token = '';
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
    ({ home, tmux, link, token, base } = await startConsoleDaemon('lmx-con-'));
    // The token is never written to the log.
    expect(readFileSync(home.paths.logFile, 'utf8')).not.toContain(token);
  }, 120_000);

  afterAll(() => stopConsoleDaemon({ home, tmux }, browser));

  it('refuses everyone without the cookie: no token, a wrong token, another browser profile, a cross-origin WebSocket', async () => {
    for (const path of ['/console/', '/console/console.js', '/console/img/img_x']) {
      const r = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(r.status, path).toBe(401);
      expect(r.headers.get('set-cookie'), path).toBeNull();
    }
    // A wrong token gets the one-button page, and its POST is refused.
    for (const path of ['/console/?token=wrong', `/console/?token=${'A'.repeat(43)}`]) {
      expect((await fetch(`${base}${path}`, { redirect: 'manual' })).status, path).toBe(200);
      const r = await fetch(`${base}${path}`, { method: 'POST', headers: { origin: base }, redirect: 'manual' });
      expect(r.status, path).toBe(401);
      expect(r.headers.get('set-cookie'), path).toBeNull();
    }
    // Previewers, prefetchers and a POST from another site spend nothing: the link shows a page with one button.
    for (const method of ['HEAD', 'GET', 'GET']) {
      const r = await fetch(link, { method, redirect: 'manual' });
      expect(r.status, method).toBe(200);
      expect(r.headers.get('set-cookie'), method).toBeNull();
    }
    const crossSite = await fetch(link, { method: 'POST', headers: { origin: 'http://evil.example' }, redirect: 'manual' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('set-cookie')).toBeNull();
    // The real link, its button tapped, logs in and drops the token from the address.
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = await ctx.newPage();
    await signInToConsole(page, link);
    expect(page.url()).toBe(`${base}/console/`);
    await page.waitForSelector('body[data-state="open"]');
    const cookie = (await ctx.cookies()).find((c) => c.name === 'lmx_console');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');

    // The link works once; a fresh profile gets neither the page nor the live socket.
    const other = await browser.newContext();
    const op = await other.newPage();
    expect((await op.goto(link))?.status()).toBe(200);
    const [again] = await Promise.all([op.waitForNavigation(), op.click('#open-console')]);
    expect(again?.status()).toBe(401);
    const plainVisit = await op.goto(`${base}/console/`);
    expect(plainVisit?.status()).toBe(401);
    const wsResult = await op.evaluate((url) => new Promise<string>((resolve) => {
      // The page's own WebSocket (globalThis: this file imports the `ws` package under the same name).
      const ws = new (globalThis as unknown as { WebSocket: typeof WebSocket }).WebSocket(url);
      ws.onmessage = (e: { data: unknown }) => resolve(`message:${String(e.data).slice(0, 40)}`);
      ws.onclose = () => resolve('closed');
      ws.onerror = () => undefined;
    }), `${base.replace('http', 'ws')}/console/ws`);
    expect(wsResult).toBe('closed');
    await other.close();

    // With the cookie: the same origin gets the conversation, another origin is refused.
    const wsUrl = `${base.replace('http', 'ws')}/console/ws`;
    const cookieHeader = `lmx_console=${cookie!.value}`;
    expect((await tryWs(wsUrl, { cookie: cookieHeader, origin: 'http://evil.example' })).status).toBe(403);
    expect((await tryWs(wsUrl, { cookie: cookieHeader, origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await tryWs(wsUrl, { origin: base })).status).toBe(401);
    expect(JSON.parse((await tryWs(wsUrl, { cookie: cookieHeader, origin: base })).first ?? '{}').type).toBe('hello');
  }, 60_000);

  it('starts a shell topic, streams its card working → idle with a screenshot and the output, Ctrl+C stops sleep, the terminal link writes', async () => {
    // Record every status a card of the conversation shows: a new card, or a card updated in place (morph.ts).
    await page.evaluate(() => {
      const w = window as unknown as { statuses: string[] };
      w.statuses = [];
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'attributes' && r.target instanceof HTMLElement && r.target.dataset.status) w.statuses.push(r.target.dataset.status);
          r.addedNodes.forEach((n) => {
            if (n instanceof HTMLElement && n.dataset.status) w.statuses.push(n.dataset.status);
          });
        }
      }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-status'] });
    });
    const cliOptions = await page.locator('#cli option').allTextContents();
    expect(cliOptions[0]).toBe('shell');
    await page.fill('#first', 'echo hello-console');
    await page.click('#start');
    await page.waitForSelector('body[data-view="topic"]');
    const lastCard = () => page.locator('article.card-stream').last();
    await waitFor('the answer hello-console', async () => (await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes('hello-console')), 60_000);
    await waitFor('an idle card with a screenshot', async () =>
      (await lastCard().getAttribute('data-status')) === 'idle' &&
      (await lastCard().locator('img.card-shot').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0).catch(() => false)), 60_000);
    const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    expect(statuses).toContain('working');
    expect(statuses.at(-1)).toBe('idle');
    // The user's message is marked delivered (the IM's reaction).
    await waitFor('delivered mark', () => page.locator('.bubble.user .reaction').count());
    // The same card as text: the screen shows the output.
    await lastCard().locator('button[data-action="display"]', { hasText: 'Text' }).click();
    await waitFor('screen text with the output', async () => ((await lastCard().locator('pre.card-screen').innerText().catch(() => '')).includes('hello-console')), 30_000);
    await lastCard().locator('button[data-action="display"]', { hasText: 'Screenshot' }).click();

    // Hostile text is typed literally: no command substitution, tmux formats or lost characters.
    const hostile = `$(echo pwned) 中文 😀 "q" #{pane_id} \\n`;
    await page.fill('#text', `echo '${hostile}'`);
    await page.press('#text', 'Enter');
    await waitFor('the hostile text echoed literally', async () => (await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes(hostile)), 60_000);
    expect((await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes('pwned') && !t.includes('$(echo pwned)'))).toBe(false);

    // A running command is stopped with the card's Ctrl+C key.
    await page.fill('#text', 'sleep 100');
    await page.press('#text', 'Enter');
    await waitFor('a working card for sleep', async () => (await page.locator('article.card-stream').count()) >= 3 && (await lastCard().getAttribute('data-status')) === 'working', 60_000);
    expect(await page.locator('article.card-stream[data-frozen="true"]').count()).toBeGreaterThanOrEqual(1);
    await lastCard().locator('button[data-key="ctrl_c"]').click();
    await waitFor('the sleep card back to idle', async () => (await lastCard().getAttribute('data-status')) === 'idle', 60_000);

    // Without the console cookie the terminal route grants nothing.
    const sid = (await lastCard().getAttribute('data-session'))!;
    const stranger = await fetch(`${base}/console/term/${sid}`, { redirect: 'manual' });
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('set-cookie')).toBeNull();
    // The card's terminal link opens the web terminal with write access for the console user.
    const marker = join(home.dir, 'typed-in-terminal.txt');
    // Card updates change only what differs: the terminal link is the same node after the card was updated, so a click
    // in progress cannot lose its target (a whole-card replacement once did, between press and release).
    await lastCard().locator('a[data-action="terminal"]').evaluate((a) => void ((window as unknown as { termLink: Element }).termLink = a));
    await lastCard().locator('button[data-action="display"]', { hasText: 'Text' }).click();
    await waitFor('the card updated to text', async () => (await lastCard().locator('pre.card-screen').count()) > 0, 30_000);
    expect(await lastCard().locator('a[data-action="terminal"]').evaluate((a) => a === (window as unknown as { termLink: Element }).termLink)).toBe(true);
    await lastCard().locator('button[data-action="display"]', { hasText: 'Screenshot' }).click();
    const term = await openTerminalTab(ctx, lastCard().locator('a[data-action="terminal"]'));
    await term.waitForSelector('body[data-state="open"][data-mode="write"]', { timeout: 60_000 });
    await term.locator('.xterm-screen').click();
    await term.keyboard.type(`echo typed-from-console > ${marker}`);
    await term.keyboard.press('Enter');
    await waitFor('the file typed in the terminal', () => existsSync(marker) && readFileSync(marker, 'utf8').includes('typed-from-console'), 30_000);
    await term.close();

    // Screenshots for the eye (desktop, then phone: one pane at a time).
    mkdirSync(SHOTS, { recursive: true });
    await waitFor('toasts gone', async () => (await page.locator('.toast').count()) === 0);
    await page.screenshot({ path: join(SHOTS, 'console-desktop-1280x800.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'console-phone-390x844-topic.png') });
    await page.click('#back');
    await page.waitForSelector('body[data-view="list"]');
    await page.screenshot({ path: join(SHOTS, 'console-phone-390x844-list.png') });

    // `larkmux start` while running prints a fresh link; console.locale is "en" here, so a Chinese browser reads the
    // whole page in English (one page, one language: the page's words match the cards').
    const again = await runLarkmux(['start'], home.env, { from: 'built' });
    const fresh = LINK_RE.exec(again.stdout);
    expect(fresh?.[3]).toBeDefined();
    expect(fresh?.[3]).not.toBe(token);
    const zh = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN' });
    const zp = await zh.newPage();
    await signInToConsole(zp, fresh![1]!);
    await zp.waitForSelector('body[data-state="open"] .topic');
    expect(await zp.locator('#new-topic').innerText()).toBe('New topic');
    await zp.locator('.topic').first().click();
    await zp.waitForSelector('article.card-stream');
    expect(await zp.locator('article.card-stream').last().locator('.card-subtitle').innerText()).toMatch(/^Idle/);
    await zp.screenshot({ path: join(SHOTS, 'console-phone-390x844-zh-CN.png') });
    await zh.close();
  }, 240_000);

  it('after larkmux restart the topic is still there and reaches the same CLI (tmux kept it)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('.topic').first().click();
    await page.fill('#text', 'export LMX_MARK=kept-$((40+2))');
    await page.press('#text', 'Enter');
    await waitFor('the export turn idle', async () => (await page.locator('article.card-stream').count()) >= 4 && (await page.locator('article.card-stream').last().getAttribute('data-status')) === 'idle', 60_000);
    // The console's sessions are stored and listed like a bot's, under the pseudo app id.
    const st = JSON.parse((await runLarkmux(['status', '--json'], home.env, { from: 'built' })).stdout);
    expect(st.bots).toEqual([]);
    expect(st.console).toMatchObject({ name: 'console', appId: 'console', state: 'connected' });
    expect(st.sessions).toEqual([expect.objectContaining({ bot: 'console', cli: 'shell', cwd: home.dir, lifecycle: 'live' })]);
    expect(existsSync(join(home.dir, 'sessions-console.json'))).toBe(true);
    // The old cookie dies with the daemon; `larkmux start` gives a new link.
    const restarted = await runLarkmux(['restart'], home.env, { from: 'built' });
    expect(restarted.code, restarted.stdout + restarted.stderr).toBe(0);
    const res = await runLarkmux(['start'], home.env, { from: 'built' });
    const fresh = LINK_RE.exec(res.stdout);
    expect(fresh, res.stdout).not.toBeNull();
    const ctx2 = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const p2 = await ctx2.newPage();
    await signInToConsole(p2, fresh![1]!);
    await p2.waitForSelector('body[data-state="open"] .topic');
    await p2.locator('.topic', { hasText: 'echo hello-console' }).click();
    expect((await p2.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes('hello-console'))).toBe(true);
    await p2.fill('#text', 'echo "mark=$LMX_MARK"');
    await p2.press('#text', 'Enter');
    await waitFor('the mark from before the restart', async () => (await p2.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes('mark=kept-42')), 90_000);
    await ctx2.close();
  }, 240_000);
  it('`larkmux console revoke` signs every browser out and closes the open console; the page\'s sign-out does the same', async () => {
    const signedIn = async (): Promise<{ c: BrowserContext; p: Page; cookie: string }> => {
      const res = await runLarkmux(['start'], home.env, { from: 'built' });
      const c = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      const p = await c.newPage();
      const fresh = LINK_RE.exec(res.stdout)![1]!;
      base = fresh.split('/console/')[0]!; // the port is new after the restart above (web.port 0)
      await signInToConsole(p, fresh);
      await p.waitForSelector('body[data-state="open"]');
      return { c, p, cookie: (await c.cookies()).find((k) => k.name === 'lmx_console')!.value };
    };
    const one = await signedIn();
    const two = await signedIn();
    const wsUrl = `${base.replace('http', 'ws')}/console/ws`;
    const revoked = await runLarkmux(['console', 'revoke'], home.env, { from: 'built' });
    expect(revoked.code, revoked.stdout + revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/signed out [2-9]\d* browser\(s\), closed [2-9]\d* connection\(s\)/);
    for (const b of [one, two]) {
      await waitFor('the open console closed', async () => (await b.p.locator('body').getAttribute('data-state')) !== 'open');
      expect((await b.p.goto(`${base}/console/`))?.status()).toBe(401);
      expect((await tryWs(wsUrl, { cookie: `lmx_console=${b.cookie}`, origin: base })).status).toBe(401);
    }
    // From the page itself: its sign-out form ends every cookie, this browser's and another's.
    const three = await signedIn();
    const four = await signedIn();
    const [signedOut] = await Promise.all([three.p.waitForNavigation(), three.p.click('#sign-out')]);
    expect(signedOut?.status()).toBe(200);
    expect(await three.p.locator('body').innerText()).toContain('Signed out');
    expect((await three.c.cookies()).find((k) => k.name === 'lmx_console')).toBeUndefined();
    await waitFor('the other open console closed', async () => (await four.p.locator('body').getAttribute('data-state')) !== 'open');
    expect((await four.p.goto(`${base}/console/`))?.status()).toBe(401);
    // A sign-out POST from another site is refused.
    const five = await signedIn();
    const forged = await fetch(`${base}/console/sign-out`, { method: 'POST', headers: { cookie: `lmx_console=${five.cookie}`, origin: 'http://evil.example' } });
    expect(forged.status).toBe(403);
    expect((await five.p.goto(`${base}/console/`))?.status()).toBe(200);
    for (const b of [one, two, three, four, five]) await b.c.close();
  }, 120_000);
});
