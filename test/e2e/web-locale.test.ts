// The web terminal page and the proxy's HTTP pages in the reader's language, in real Chromium: the session's bot
// locale (passed by the proxy) wins; without one the browser's language decides.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWebBundle, launchChromium, startWebStack, waitFor, type WebStack } from '../support/browser.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const ZH_BOT_SESSION = '4d'.repeat(16); // owned by a bot with no locale on a Feishu domain → zh-CN
const EN_BOT_SESSION = '5e'.repeat(16); // owned by a bot with "locale": "en"
const NO_BOT_SESSION = '6f'.repeat(16); // the proxy knows no bot locale for it
const UNKNOWN = '7a'.repeat(16);

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
  home = makeTestHome('lmx-web-locale-');
  const locales: Record<string, 'zh-CN' | 'en'> = { [ZH_BOT_SESSION]: 'zh-CN', [EN_BOT_SESSION]: 'en' };
  stack = await startWebStack({ tmux, home: home.dir, sessionIds: [ZH_BOT_SESSION, EN_BOT_SESSION, NO_BOT_SESSION], sessionLocale: (id) => locales[id] });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  await stack?.dispose();
  await tmux?.kill();
  home?.cleanup();
});

async function newPage(locale: string): Promise<Page> {
  const ctx = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  contexts.push(ctx);
  return ctx.newPage();
}

async function openReadOnly(page: Page, sessionId: string): Promise<void> {
  const res = await page.goto(`${stack.baseUrl}/s/${sessionId}/?v=${stack.grants.viewToken(sessionId)}`);
  expect(res?.status()).toBe(200);
  await waitFor('connected', async () => (await page.locator('body').getAttribute('data-state')) === 'open');
}

async function openWritable(page: Page, sessionId: string): Promise<void> {
  const { token } = stack.grants.issueWriteLink(sessionId, 'ou_writer');
  const res = await page.goto(`${stack.baseUrl}/s/${sessionId}/w/${token}`);
  expect(res?.status()).toBe(200);
  // The link opens a page with one button; the tap (a POST) spends the link (issue 13 finding 10).
  await Promise.all([page.waitForURL(`${stack.baseUrl}/s/${sessionId}/`), page.click('#open-write')]);
  await waitFor('connected for writing', async () => (await page.locator('body').getAttribute('data-mode')) === 'write');
}

const toolbarLabels = (page: Page) => page.locator('#toolbar button').evaluateAll((bs) => bs.map((b) => b.textContent));

describe('web terminal page language', () => {
  it('a zh-CN bot session shows the Chinese banner and title even in an English browser', async () => {
    const page = await newPage('en-US');
    await openReadOnly(page, ZH_BOT_SESSION);
    expect(await page.locator('#banner').innerText()).toBe('只读视图：可以滚动，不能输入。需要写权限请让操作员发一个写权限链接（/term）。');
    expect(await page.title()).toBe('larkmux 终端');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
  });

  it('the write view of a zh-CN bot session labels the key row in Chinese where the keys are words', async () => {
    const page = await newPage('en-US');
    await openWritable(page, ZH_BOT_SESSION);
    expect(await toolbarLabels(page)).toEqual(['Esc', 'Ctrl+C', 'Tab', '回车', '↑', '↓', '←', '→']);
    expect(await page.locator('#toolbar').getAttribute('aria-label')).toBe('终端按键');
  });

  it('an en bot session stays English in a Chinese browser', async () => {
    const page = await newPage('zh-CN');
    await openWritable(page, EN_BOT_SESSION);
    expect(await toolbarLabels(page)).toEqual(['Esc', 'Ctrl+C', 'Tab', 'Enter', '↑', '↓', '←', '→']);
    const view = await newPage('zh-CN');
    await openReadOnly(view, EN_BOT_SESSION);
    expect(await view.locator('#banner').innerText()).toContain('Read-only view: you can scroll, not type.');
    expect(await view.locator('html').getAttribute('lang')).toBe('en');
  });

  it('without a bot locale the browser language decides', async () => {
    const zh = await newPage('zh-CN');
    await openReadOnly(zh, NO_BOT_SESSION);
    expect(await zh.locator('#banner').innerText()).toContain('只读视图');
    const en = await newPage('en-US');
    await openReadOnly(en, NO_BOT_SESSION);
    expect(await en.locator('#banner').innerText()).toContain('Read-only view');
  });

  it('the page tells of a cut connection in its language', async () => {
    const page = await newPage('en-US');
    await openWritable(page, ZH_BOT_SESSION);
    expect(stack.proxy.revoke(ZH_BOT_SESSION).connections).toBe(1);
    await waitFor('status line', async () => page.locator('#status').isVisible());
    // The socket was cut: "disconnected, reconnecting" (or, from the worker, "write access was revoked").
    expect(await page.locator('#status-text').innerText()).toMatch(/^(连接已断开。正在重新连接…|写权限已被收回。.*)$/);
  });
});

describe('HTTP pages of the web proxy', () => {
  async function get(path: string, acceptLanguage: string): Promise<{ status: number; text: string; language: string | null }> {
    const res = await fetch(`${stack.baseUrl}${path}`, { headers: { 'accept-language': acceptLanguage }, redirect: 'manual' });
    return { status: res.status, text: (await res.text()).trim(), language: res.headers.get('content-language') };
  }

  // Every refusal is the same 404 in the browser's language (issue 13 finding 12b): a bot's locale would tell that the
  // session exists.
  const ZH_INVALID = '此链接无效或已失效。请打开最新卡片上的链接，或发送 /term 获取新的写入链接。';
  const EN_INVALID = 'This link is not valid (any more). Open the link on the latest card, or ask for a new write link with /term.';
  it.each([
    { name: 'unknown session, Chinese browser', path: () => `/s/${UNKNOWN}/`, lang: 'zh-CN,zh;q=0.9', status: 404, text: ZH_INVALID },
    { name: 'unknown session, English browser', path: () => `/s/${UNKNOWN}/`, lang: 'en-US', status: 404, text: EN_INVALID },
    { name: 'bad view token, zh-CN bot, English browser', path: () => `/s/${ZH_BOT_SESSION}/?v=nope`, lang: 'en-US', status: 404, text: EN_INVALID },
    { name: 'bad view token, en bot, Chinese browser', path: () => `/s/${EN_BOT_SESSION}/?v=nope`, lang: 'zh-CN', status: 404, text: ZH_INVALID },
  ])('$name → $status in the reader\'s language', async ({ path, lang, status, text }) => {
    const res = await get(path(), lang);
    expect(res.status).toBe(status);
    expect(res.text).toBe(text);
    expect(res.language).toBe(/[\u4e00-\u9fff]/.test(text) ? 'zh-CN' : 'en');
  });
});
