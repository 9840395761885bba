// The web terminal in real Chromium against a real tmux pane: write grants, read-only views, links, revocation, phone.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GRANT_TIMES } from '../../src/daemon/web-grants.js';
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

async function openWithLink(page: Page, sessionId: string, userId: string): Promise<{ token: string; status: number | undefined }> {
  const { token } = stack.grants.issueWriteLink(sessionId, userId);
  const res = await page.goto(`${stack.baseUrl}/s/${sessionId}/w/${token}`);
  // The exchange answers with a Refresh to the secret-free session URL (see WebProxy.exchange for why not a 303).
  if (res?.status() === 200) await page.waitForURL(`${stack.baseUrl}/s/${sessionId}/`);
  return { token, status: res?.status() };
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

    // No URL after the exchange, no page HTML, no log or audit line contains the link secret or the cookie value.
    const afterExchange = urls.slice(urls.findIndex((u) => u.endsWith(`/w/${token}`)) + 1);
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
      await page.waitForSelector('body[data-state="open"][data-mode="write"]');
      expect(page.url()).toBe(`${stack.baseUrl}/s/${S1}/`);
    } finally {
      chat.close();
    }
  });

  const refused: { name: string; url: () => string; status: number }[] = [
    { name: 'second use of a link', url: () => 'USED', status: 403 },
    { name: 'expired link', url: () => 'EXPIRED', status: 403 },
    { name: 'forged link', url: () => `/s/${S1}/w/${'A'.repeat(43)}`, status: 403 },
    { name: 'link for another session', url: () => `/s/${S1}/w/${stack.grants.issueWriteLink(S2, 'ou_alice').token}`, status: 403 },
    { name: 'no token at all', url: () => `/s/${S1}/`, status: 403 },
    { name: 'wrong view token', url: () => `/s/${S1}/?v=${stack.grants.viewToken(S2)}`, status: 403 },
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
      } else {
        stack.advance(GRANT_TIMES.writeLinkMs + 1);
      }
    }
    const { ctx, page } = await newPage();
    const res = await page.goto(stack.baseUrl + path);
    expect(res?.status()).toBe(status);
    const text = await page.content();
    const secret = /\/w\/([^/?]+)|[?&]v=([^&]+)/.exec(path);
    if (secret) expect(text).not.toContain(secret[1] ?? secret[2]);
    expect((await ctx.cookies()).filter((c) => c.name === 'lmx_write' && c.value)).toEqual([]);
    if (url() !== 'USED') expect(stack.workers.size).toBe(0); // refused requests never wake a worker
  });
});

describe('read-only view', () => {
  it('typing changes nothing in the pane; the wheel scrolls the pane history (tmux copy mode) and back', async () => {
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

    // Wheel up over the terminal: the pane enters copy mode, scrolled back, and the page shows tmux's position mark.
    const box = await page.locator('.xterm-screen').boundingBox();
    if (!box) throw new Error('no terminal on the page');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    const state = await waitFor('pane scrolled back', async () => {
      const [mode, pos] = (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode} #{scroll_position}')).split(' ');
      return mode === '1' && Number(pos) > 0 ? Number(pos) : 0;
    });
    expect(state).toBeGreaterThan(0);
    await waitFor('copy-mode position shown on the page', async () => /\[\d+\/\d+\]/.test(await pageText(page)));
    await page.screenshot({ path: '/tmp/web-readonly.png' });

    // Frames are handled in order, so the keystrokes typed before the wheel were already dropped by now.
    expect(existsSync(file)).toBe(false);
    expect(await paneText(S1)).not.toContain('nope');
    expect(stack.workers.get(S1)?.connectionCount).toEqual({ read: 1, write: 0 });
    expect(stack.audit).toEqual([]); // read-only views are not write connections

    await page.mouse.wheel(0, 4000);
    await waitFor('back at the bottom (copy mode left)', async () => (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode}')) === '0');
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
    expect((await again.goto(`${stack.baseUrl}/s/${S1}/`))?.status()).toBe(403);
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

  it('a read-only phone view scrolls the pane by dragging a finger down the terminal', async () => {
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
    // Finger down = content down = earlier lines: tmux copy mode, scrolled back.
    await waitFor('pane scrolled back by touch', async () => {
      const [mode, pos] = (await tmuxOut('display', '-p', '-t', stack.target(S1), '#{pane_in_mode} #{scroll_position}')).split(' ');
      return mode === '1' && Number(pos) > 0;
    });
    await waitFor('copy-mode position shown on the phone', async () => /\[\d+\/\d+\]/.test(await pageText(page)));
  });
});
