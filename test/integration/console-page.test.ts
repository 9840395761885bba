// The console page in real Chromium against the real ConsoleServer on the web proxy: the card kinds render and answer,
// long and hostile text arrives unchanged. The core's side is played by a handler that answers as BotRuntime does.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleAdapter, CONSOLE_USER_ID } from '../../src/daemon/im/local/console-adapter.js';
import { ConsoleAuth } from '../../src/daemon/im/local/console-auth.js';
import { ConsoleServer } from '../../src/daemon/im/local/console-server.js';
import type { InboundEvent } from '../../src/daemon/im/types.js';
import { WebGrants } from '../../src/daemon/web/web-grants.js';
import { WebProxy } from '../../src/daemon/web/web-proxy.js';
import type { SelectionCard } from '../../src/shared/card-model.js';
import { createLogger } from '../../src/platform/log.js';
import { buildWebBundle, launchChromium, waitFor, signInToConsole } from '../support/browser.js';

const log = createLogger({ level: 'silent' });
const place = { chatId: 'console', chatType: 'group' as const };

describe('console page', () => {
  let browser: Browser;
  let proxy: WebProxy;
  let adapter: ConsoleAdapter;
  let auth: ConsoleAuth;
  let base: string;
  let ctx: BrowserContext;
  let page: Page;
  const events: InboundEvent[] = [];

  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
    adapter = new ConsoleAdapter({
      logger: log,
      clis: [{ id: 'cli0', label: 'shell', spec: 'shell' }, { id: 'cli1', label: 'codex', spec: 'codex' }],
      projects: [{ label: 'w', path: '/w' }, { label: 'p', path: '/p' }],
    });
    await adapter.connect({ onEvent: async (ev) => void events.push(ev) });
    auth = new ConsoleAuth();
    proxy = new WebProxy({ host: '127.0.0.1', port: 0, grants: new WebGrants(), sessionExists: () => false, resolveWorker: async () => null, log });
    proxy.mount(new ConsoleServer({ adapter, auth, log, ownsOpenSession: () => false, writeCookie: () => null }));
    const started = await proxy.start();
    if (!started.ok) throw new Error(started.message);
    base = `http://127.0.0.1:${started.port}`;
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    page = await ctx.newPage();
    await signInToConsole(page, `${base}/console/?token=${auth.issueLoginToken()}`);
    await page.waitForSelector('body[data-state="open"]');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.dispose();
  });

  it('opens a topic with the chosen CLI and folder, and a 100 KB paste with hostile text arrives unchanged', async () => {
    await page.selectOption('#cli', 'cli1');
    await page.selectOption('#project', '/p');
    await page.fill('#first', 'first message');
    await page.click('#start');
    await waitFor('the topic opened', () => page.locator('body[data-view="topic"]').count());
    expect(events[0]).toMatchObject({ kind: 'message', text: 'first message', newSession: { cli: 'codex', cwd: '/p' } });
    const paste = `${'x'.repeat(50_000)}\n$(rm -rf ~) \`id\` #{pane_id} 'q' "q" 中文 😀 C-c Enter\n${'界'.repeat(16_000)}`;
    await page.fill('#text', paste);
    await page.click('#send');
    const got = await waitFor('the paste', () => events.find((e) => e.kind === 'message' && e.text.length > 1000));
    expect(got.kind === 'message' && got.text).toBe(paste);
    expect(got.kind === 'message' && got.place.rootId).toBe(events[0]!.messageId);
  }, 60_000);

  it('a selection card shows its options; a tap answers it and the card then says who chose what', async () => {
    const topicId = events[0]!.messageId;
    const sel: SelectionCard = {
      kind: 'selection', sessionId: 'a'.repeat(32), promptId: 'p1', title: 'Do you want to run `rm -rf build`?',
      options: [{ label: '1. Yes' }, { label: "2. Yes, and don't ask again" }, { label: 'No, and tell Claude what to do differently' }], defaultIndex: 0,
    };
    const sent = await adapter.sendCard(place, sel, topicId);
    if (!sent.ok) throw new Error(sent.message);
    const card = page.locator('article.card-selection').last();
    await card.waitFor();
    expect(await card.locator('.card-options li').allInnerTexts()).toEqual(['1. Yes (default)', "2. Yes, and don't ask again", '3. No, and tell Claude what to do differently']);
    mkdirSync('/tmp/console-shots', { recursive: true });
    await page.screenshot({ path: join('/tmp/console-shots', 'console-phone-390x844-selection.png') });
    await card.locator('button', { hasText: 'No, and tell' }).click();
    const tap = await waitFor('the tap', () => events.find((e) => e.kind === 'card_action'));
    expect(tap).toMatchObject({ kind: 'card_action', operatorId: CONSOLE_USER_ID, messageId: sent.value.messageId, value: { action: 'select', promptId: 'p1', optionIndex: 2 } });
    // As the core does: the card is patched with the answer.
    await adapter.updateCard(sent.value, { ...sel, answered: { by: CONSOLE_USER_ID, optionIndex: 2 } });
    await waitFor('answered card', async () => (await card.locator('.card-answered').innerText().catch(() => '')).includes('No, and tell Claude'));
    expect(await card.locator('button').count()).toBe(0);
  }, 60_000);

  it('a text-mode card shows the screen text; a frozen card has no keys; a picker answers with the path', async () => {
    const topicId = events[0]!.messageId;
    const sid = 'b'.repeat(32);
    await adapter.sendCard(place, { kind: 'stream', sessionId: sid, title: 'old', status: 'idle', display: 'screenshot', keys: [], buttons: [], frozen: true }, topicId);
    await adapter.sendCard(place, {
      kind: 'stream', sessionId: sid, title: 'codex · p', status: 'waiting', display: 'text', screenText: '$ make\n构建完成 ✓ <b>not bold</b>', keys: ['esc', 'ctrl_c'],
      buttons: [{ label: 'Web terminal', style: 'default', url: 'http://x/s/y/?v=z' }, { label: 'Write link', style: 'default', value: { action: 'write_link', sessionId: sid } }], frozen: false,
    }, topicId);
    const live = page.locator('article.card-stream[data-frozen="false"]').last();
    await live.waitFor();
    expect(await live.getAttribute('data-status')).toBe('waiting');
    expect(await live.locator('pre.card-screen').innerText()).toBe('$ make\n构建完成 ✓ <b>not bold</b>');
    expect(await live.locator('button[data-key]').count()).toBe(2);
    // The terminal opens through the console's own route; no write link through a chat.
    expect(await live.locator('a[data-action="terminal"]').getAttribute('href')).toBe(`/console/term/${sid}`);
    expect(await live.locator('button[data-action="write_link"]').count()).toBe(0);
    expect(await page.locator('article.card-stream[data-frozen="true"] button').count()).toBe(0);

    await adapter.sendCard(place, { kind: 'picker', anchorKey: `${topicId}::console`, title: 'Which project?', projects: [{ label: 'api', path: '/srv/api' }] }, topicId);
    await page.locator('article.card-picker button', { hasText: 'api' }).click();
    const pick = await waitFor('the pick', () => events.find((e) => e.kind === 'card_action' && e.value.action === 'project'));
    expect(pick.kind === 'card_action' && pick.value).toEqual({ action: 'project', anchorKey: `${topicId}::console`, path: '/srv/api' });
  }, 60_000);

  it("shows a notice's `code` spans as code, like Feishu's markdown, and its HTML as text", async () => {
    const topicId = events[0]!.messageId;
    await adapter.sendText(place, 'Run `larkmux start` again <b>now</b>', topicId);
    const bubble = page.locator('.bubble.bot').last();
    await bubble.locator('code').waitFor();
    expect(await bubble.innerText()).toBe('Run larkmux start again <b>now</b>');
    expect(await bubble.locator('code').allInnerTexts()).toEqual(['larkmux start']);
    expect(await bubble.locator('b').count()).toBe(0);
    await adapter.sendCard(place, { kind: 'stream', sessionId: 'c'.repeat(32), title: 't', status: 'failed', display: 'text', screenText: '', keys: [], buttons: [], frozen: false, notice: 'Install it with `npm i -g x`, then send again.' }, topicId);
    const notice = page.locator('article.card-stream .card-notice').last();
    await notice.locator('code').waitFor();
    expect(await notice.innerText()).toBe('Install it with npm i -g x, then send again.');
    expect(await notice.locator('code').allInnerTexts()).toEqual(['npm i -g x']);
  }, 60_000);
});
