// The web terminal in real Chromium against a real tmux pane: write grants, read-only views, links, revocation, phone.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GRANT_TIMES } from '../../src/daemon/web/web-grants.js';
import { PANE, buildWebBundle, launchChromium, readText, startWebStack, waitFor, type WebStack } from '../support/browser.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const S1 = '1a'.repeat(16);
const S2 = '2b'.repeat(16);
const UNKNOWN = '3c'.repeat(16);

let browser: Browser;
let tmux: TestTmuxServer;
let home: TestHome;
let stack: WebStack;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  buildWebBundle();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  tmux = makeTmuxServer();
  home = makeTestHome('lmx-web-');
  stack = await startWebStack({ tmux, home: home.dir, sessionIds: [S1, S2] });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  await stack?.dispose();
  await tmux?.kill();
  home?.cleanup();
});

async function newPage(opts: Parameters<Browser['newContext']>[0] = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext(opts);
  contexts.push(ctx);
  return { ctx, page: await ctx.newPage() };
}

async function tmuxOut(...args: string[]): Promise<string> {
  const res = await tmux.run(args);
  return res.stdout.trim();
}

/** Types a line into the pane from the test side (as the CLI's user would, not through the page). */
async function paneRun(sessionId: string, line: string): Promise<void> {
  await tmux.run(['send-keys', '-t', stack.target(sessionId), '-l', line]);
  await tmux.run(['send-keys', '-t', stack.target(sessionId), 'Enter']);
}

async function paneText(sessionId: string): Promise<string> {
  return tmuxOut('capture-pane', '-p', '-t', stack.target(sessionId));
}

async function pageText(page: Page): Promise<string> {
  return page.locator('.xterm-rows').innerText();
}

/** Opens a write link and taps its button like a person; the exchange (POST) answers 303 to the secret-free URL. */
async function openWithLink(page: Page, sessionId: string, userId: string): Promise<{ token: string; status: number | undefined }> {
  const { token } = stack.grants.issueWriteLink(sessionId, userId);
  const res = await page.goto(`${stack.baseUrl}/s/${sessionId}/w/${token}`);
  if (res?.status() !== 200) return { token, status: res?.status() };
  const [after] = await Promise.all([page.waitForNavigation(), page.click('#open-write')]);
  if (after?.status() === 200) await page.waitForURL(`${stack.baseUrl}/s/${sessionId}/`);
  return { token, status: after?.status() };
}

describe('write access', () => {
  it('a write link opens the sleeping session, typing runs a command in the pane, and no secret stays anywhere', async () => {
    await paneRun(S1, 'echo SEED-$((40+2))');
    await waitFor('seed line in the pane', async () => (await paneText(S1)).includes('SEED-42'));
    expect(stack.workers.size).toBe(0); // the worker "sleeps" until the page is opened

    const { ctx, page } = await newPage({ viewport: { width: 1280, height: 800 } });
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    const { token, status } = await openWithLink(page, S1, 'ou_alice');
    expect(status).toBe(200);
    expect(page.url()).toBe(`${stack.baseUrl}/s/${S1}/`);
    await page.waitForSelector('body[data-state="open"][data-mode="write"]');
    expect(stack.workers.size).toBe(1);
    expect(await page.locator('#banner').isVisible()).toBe(false);
    // Seeded with the current screen: the line printed before the page existed is on it.
    await waitFor('seeded screen', async () => (await pageText(page)).includes('SEED-42'));

    const file = join(home.dir, 'typed.txt');
    await page.locator('.xterm-screen').click();
    await page.keyboard.type(`echo hi > ${file}`);
    await page.keyboard.press('Enter');
    await waitFor('file written by the command typed in the page', () => existsSync(file) && readFileSync(file, 'utf8') === 'hi\n');

    const cookies = await ctx.cookies();
    const write = cookies.find((c) => c.name === 'lmx_write');
    expect(write).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: `/s/${S1}/` });
    await waitFor('audit of the write connection', () => stack.audit.some((e) => e.event === 'web_write_connect' && e.userId === 'ou_alice' && e.sessionId === S1));
    await page.screenshot({ path: '/tmp/web-desktop.png' });

    // No URL after the exchange (the button's POST), no page HTML, no log or audit line contains the link secret or the cookie value.
    expect(urls.filter((u) => u.endsWith(`/w/${token}`))).toHaveLength(2); // the link page, then its POST
    const afterExchange = urls.slice(urls.findLastIndex((u) => u.endsWith(`/w/${token}`)) + 1);
    expect(afterExchange.length).toBeGreaterThan(2);
    const haystacks = [afterExchange.join('\n'), page.url(), await page.content(), readText(stack.logFile), readText(join(home.dir, 'logs', 'audit.log'))];
    for (const h of haystacks) {
      expect(h).not.toContain(token);
      expect(h).not.toContain(write?.value);
    }
    expect(readText(stack.logFile)).toContain('write link exchanged'); // the log is really being written
  });

  it('opened from another site (a chat link), the Strict cookie still grants write after the redirect', async () => {
    const { token } = stack.grants.issueWriteLink(S1, 'ou_alice');
    // "localhost" and "127.0.0.1" are different sites: this page plays the chat app the link is tapped in.
    const chat: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<a id="l" href="${stack.baseUrl}/s/${S1}/w/${token}">open</a>`);
    });
    await new Promise<void>((r) => chat.listen(0, '127.0.0.1', r));
    try {
      const { page } = await newPage();
      await page.goto(`http://localhost:${(chat.address() as AddressInfo).port}/`);
      await page.click('#l');
      await page.click('#open-write');
      await page.waitForSelector('body[data-state="open"][data-mode="write"]');
      expect(page.url()).toBe(`${stack.baseUrl}/s/${S1}/`);
    } finally {
      chat.close();
    }
  });

  // Every refusal is the same 404 (a missing session and a forbidden one look alike). A link's refusal comes when its
  // button is tapped: opening the link only shows the button.
  const refused: { name: string; url: () => string; status: number }[] = [
    { name: 'second use of a link', url: () => 'USED', status: 404 },
    { name: 'expired link', url: () => 'EXPIRED', status: 404 },
    { name: 'forged link', url: () => `/s/${S1}/w/${'A'.repeat(43)}`, status: 404 },
    { name: 'link for another session', url: () => `/s/${S1}/w/${stack.grants.issueWriteLink(S2, 'ou_alice').token}`, status: 404 },
    { name: 'link of an unknown session', url: () => `/s/${UNKNOWN}/w/${stack.grants.issueWriteLink(UNKNOWN, 'ou_alice').token}`, status: 404 },
    { name: 'no token at all', url: () => `/s/${S1}/`, status: 404 },
    { name: 'wrong view token', url: () => `/s/${S1}/?v=${stack.grants.viewToken(S2)}`, status: 404 },
    { name: 'unknown session', url: () => `/s/${UNKNOWN}/?v=${stack.grants.viewToken(UNKNOWN)}`, status: 404 },
  ];
  it.each(refused)('refuses: $name → $status', async ({ url, status }) => {
    let path = url();
    if (path === 'USED' || path === 'EXPIRED') {
      const { token } = stack.grants.issueWriteLink(S1, 'ou_alice');
      path = `/s/${S1}/w/${token}`;
      if (path.includes(token) && url() === 'USED') {
        const first = await newPage();
        expect((await first.page.goto(stack.baseUrl + path))?.status()).toBe(200);
        await first.page.click('#open-write');
        await first.page.waitForSelector('body[data-state="open"][data-mode="write"]');
      } else {
        stack.advance(GRANT_TIMES.writeLinkMs + 1);
      }
    }
    const { ctx, page } = await newPage();
    let res = await page.goto(stack.baseUrl + path);
    if (path.includes('/w/')) {
      expect(res?.status()).toBe(200); // the button page, the same for every link
      [res] = await Promise.all([page.waitForNavigation(), page.click('#open-write')]);
    }
    expect(res?.status()).toBe(status);
    const text = await page.content();
    const secret = /\/w\/([^/?]+)|[?&]v=([^&]+)/.exec(path);
    if (secret) expect(text).not.toContain(secret[1] ?? secret[2]);
    expect((await ctx.cookies()).filter((c) => c.name === 'lmx_write' && c.value)).toEqual([]);
    if (url() !== 'USED') expect(stack.workers.size).toBe(0); // refused requests never wake a worker
  });

  it('the link page speaks the reader\'s language, whether or not the session exists (nothing tells which)', async () => {
    await stack.dispose();
    stack = await startWebStack({ tmux, home: home.dir, sessionIds: [], sessionLocale: () => 'en' });
    const { page } = await newPage({ locale: 'zh-CN' });
    await page.goto(`${stack.baseUrl}/s/${S1}/w/${'A'.repeat(43)}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.locator('#open-write').innerText()).toBe('以可写模式打开终端');
  });
});

describe('read-only view', () => {
  it('typing changes nothing in the pane; the wheel shows the pane history in the page, never scrolling the pane', async () => {
    await paneRun(S1, 'seq 1 200');
    await waitFor('seq output', async () => (await paneText(S1)).includes('200\n$'));
    const { page } = await newPage({ viewport: { width: 1280, height: 800 } });
    const res = await page.goto(`${stack.baseUrl}/s/${S1}/?v=${stack.grants.viewToken(S1)}`);
    expect(res?.status()).toBe(200);
    await page.waitForSelector('body[data-state="open"][data-mode="read"]');
    expect(await page.locator('#banner').isVisible()).toBe(true);
    expect(await page.locator('#banner').innerText()).toContain('Read-only');

    const file = join(home.dir, 'nope.txt');
    await page.locator('.xterm-screen').click();
    await page.keyboard.type(`echo nope > ${file}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+C');

    // Wheel up over the terminal: the page shows the pane's history in its own view, scrolled back from the bottom.
    const box = await page.locator('.xterm-screen').boundingBox();
    if (!box) throw new Error('no terminal on the page');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    const history = page.locator('#history');
    await history.waitFor({ state: 'visible' });
    const lines = (await history.innerText()).split('\n');
    expect(lines.slice(lines.indexOf('1'), lines.indexOf('1') + 3)).toEqual(['1', '2', '3']); // from the start of history
    const scrolled = await history.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    expect(scrolled).toBeGreaterThan(0); // not at the bottom: scrolled back by the wheel
    await page.mouse.wheel(0, -400);
    await waitFor('the view scrolls further back', async () => (await history.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)) > scrolled);
    expect(await page.locator('#live').isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/web-readonly.png' });
    // The shared pane was never scrolled: no copy mode, and the chat can still type into it.
    expect(await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode}')).toBe('0');

    // Frames are handled in order, so the keystrokes typed before the wheel were already dropped by now.
    expect(existsSync(file)).toBe(false);
    expect(await paneText(S1)).not.toContain('nope');
    expect(stack.workers.get(S1)?.connectionCount).toEqual({ read: 1, write: 0 });
    expect(stack.audit).toEqual([]); // read-only views are not write connections

    // Back to live: the button (or scrolling down past the newest line) closes the view; the pane moved on meanwhile.
    await paneRun(S1, 'echo LIVE-$((7*6))');
    await page.locator('#live').click();
    await history.waitFor({ state: 'hidden' });
    await waitFor('live terminal shows new output', async () => (await pageText(page)).includes('LIVE-42'));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await history.waitFor({ state: 'visible' });
    await page.mouse.wheel(0, 100_000);
    await waitFor('scrolled to the newest line', async () => (await history.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)) <= 2);
    await page.mouse.wheel(0, 200);
    await history.waitFor({ state: 'hidden' });
    expect(await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode}')).toBe('0');
  });
});

describe('revocation', () => {
  it('closes the open write connection, and the cookie no longer grants write', async () => {
    const { ctx, page } = await newPage();
    await openWithLink(page, S1, 'ou_bob');
    await page.waitForSelector('body[data-state="open"][data-mode="write"]');
    const worker = stack.workers.get(S1);
    expect(worker?.connectionCount.write).toBe(1);

    expect(stack.proxy.revoke(S1)).toEqual({ grants: 1, connections: 1 }); // the cookie, the open socket
    await waitFor('write connection closed in the worker', () => worker?.connectionCount.write === 0);
    await page.waitForSelector('body[data-state="closed"]');
    await waitFor('audit of the disconnect', () => stack.audit.some((e) => e.event === 'web_write_disconnect' && e.userId === 'ou_bob'));

    // Same browser, same cookie jar: the page itself is refused now...
    const again = await ctx.newPage();
    expect((await again.goto(`${stack.baseUrl}/s/${S1}/`))?.status()).toBe(404);
    // ...and with the view token it is read-only, not write.
    await again.goto(`${stack.baseUrl}/s/${S1}/?v=${stack.grants.viewToken(S1)}`);
    await again.waitForSelector('body[data-state="open"][data-mode="read"]');
    expect(worker?.connectionCount.write).toBe(0);
  });
});

describe('phone', () => {
  it('at 390×844 shows the key toolbar, its keys reach the pane, and the pane is fitted to the phone', async () => {
    const { page } = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await openWithLink(page, S1, 'ou_carol');
    await page.waitForSelector('body[data-state="open"][data-mode="write"]');
    const toolbar = page.locator('#toolbar');
    expect(await toolbar.isVisible()).toBe(true);
    for (const label of ['Esc', 'Ctrl+C', 'Tab', 'Enter', '↑', '↓', '←', '→']) {
      expect(await toolbar.getByRole('button', { name: label, exact: true }).isVisible()).toBe(true);
    }

    await page.locator('.xterm-screen').tap(); // focus the terminal, as a user does to bring up the keyboard
    await paneRun(S1, 'sleep 100');
    await waitFor('sleep running', async () => (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_current_command}')) === 'sleep');
    await toolbar.locator('button[data-key="ctrl_c"]').tap();
    await waitFor('sleep interrupted by the toolbar Ctrl+C', async () => (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_current_command}')) === 'bash');

    // ↑ recalls the last command line, Enter runs it again: both keys reached bash.
    await paneRun(S1, 'echo PHONE-$((6*7))');
    await toolbar.locator('button[data-key="up"]').tap();
    await toolbar.locator('button[data-key="enter"]').tap();
    await waitFor('the recalled command ran twice', async () => ((await paneText(S1)).match(/^PHONE-42$/gm) ?? []).length === 2);

    // Fit-to-width (the phone default for write pages, test/e2e/web-phone.test.ts): the pane takes the page's size.
    const body = page.locator('body');
    const [w, h] = (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{window_width} #{window_height}')).split(' ').map(Number);
    expect(w).toBeLessThan(PANE.cols);
    expect(await body.getAttribute('data-cols')).toBe(String(w));
    expect(await body.getAttribute('data-rows')).toBe(String(h! + 1)); // + tmux's status line
    // Tapping keys never takes focus from the terminal (so a phone keyboard stays up).
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('xterm-helper-textarea');
    await page.screenshot({ path: '/tmp/web-phone.png' });
  });

  it('a read-only phone view scrolls back by dragging a finger down the terminal, in its own view', async () => {
    await paneRun(S1, 'seq 1 200');
    await waitFor('seq output', async () => (await paneText(S1)).includes('200\n$'));
    const { page } = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${stack.baseUrl}/s/${S1}/?v=${stack.grants.viewToken(S1)}`);
    await page.waitForSelector('body[data-state="open"][data-mode="read"]');
    expect(await page.locator('#toolbar').isVisible()).toBe(false); // nothing to press in a read-only view
    // A wide pane opens in the readable text view on a phone (test/e2e/web-phone.test.ts); the reader switches to the terminal.
    await page.locator('[data-control="text"]').tap();
    await page.waitForSelector('body[data-view="terminal"]');
    const box = await page.locator('.xterm-screen').boundingBox();
    if (!box) throw new Error('no terminal on the page');
    const cdp = await page.context().newCDPSession(page);
    const x = box.x + box.width / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', box.y + 20);
    for (let y = box.y + 40; y <= box.y + box.height; y += 20) await touch('touchMove', y);
    await touch('touchEnd', box.y + box.height);
    // Finger down = content down = earlier lines: the history view opens, scrolled back; the pane is untouched.
    const history = page.locator('#history');
    await history.waitFor({ state: 'visible' });
    expect((await history.innerText()).split('\n')).toContain('100');
    expect(await history.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeGreaterThan(0);
    expect(await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode}')).toBe('0');
    // The view scrolls natively under the finger (a phone's own scrolling, with momentum).
    const before = await history.evaluate((el) => el.scrollTop);
    const hbox = await history.boundingBox();
    if (!hbox) throw new Error('no history view');
    await touch('touchStart', hbox.y + 40);
    for (let y = hbox.y + 60; y <= hbox.y + hbox.height - 20; y += 20) await touch('touchMove', y);
    await touch('touchEnd', hbox.y + hbox.height - 20);
    await waitFor('history view scrolled further back by touch', async () => (await history.evaluate((el) => el.scrollTop)) < before);
  });
});
