// The web terminal through the real daemon: the card's view link, /term's DM'd write link, /revoke-term, waking a worker.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cardsFor, elementsOf, headerColour, textsIn } from '../support/cards.js';
import { buildWebBundle, launchChromium } from '../support/browser.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';

function openUrl(card: unknown, label: string): string | undefined {
  const b = elementsOf(card).find((e) => e.tag === 'button' && e.text?.content === label);
  return b?.behaviors?.find((x: any) => x.type === 'open_url')?.default_url;
}

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v) return v as T;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('web terminal through the daemon', () => {
  let browser: Browser;
  let rig: E2eRig | undefined;
  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  // Two full daemon round trips plus browsers: on a loaded 2-core machine this needs more than the default minute.
  it('the card links a read-only view; /term DMs a single-use write link that runs commands; /revoke-term ends it', { timeout: 150_000 }, async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const status = await rig.status();
    expect(status.webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo WEB-$((20+22))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('WEB-42')), 30_000, 'answer');
    const card = cardsFor(fake, appId, msg.messageId)[0]!;
    const viewUrl = await until('view link on the card', () => openUrl(card.content, 'Web terminal'));
    expect(viewUrl.startsWith(`${status.webUrl}/s/`)).toBe(true);

    // Read-only: the pane is shown, typing does nothing.
    const viewer = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const vpage = await viewer.newPage();
    await vpage.goto(viewUrl);
    await vpage.waitForSelector('body[data-state="open"][data-mode="read"]');
    await until('pane content in the page', async () => (await vpage.locator('.xterm-rows').innerText()).includes('WEB-42'));
    const marker = join(rig.home.dir, 'readonly-typed.txt');
    await vpage.locator('.xterm-screen').click();
    await vpage.keyboard.type(`echo x > ${marker}`);
    await vpage.keyboard.press('Enter');
    await new Promise((r) => setTimeout(r, 1000));
    expect(existsSync(marker)).toBe(false);

    // /term: the link goes to the requester's direct messages, not the conversation.
    const term = await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/term' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('private link')), 10_000, '/term reply');
    const dm = await until('DM with the write link', () =>
      fake.messages.find((m) => m.appId === appId && m.msgType === 'text' && String((m.content as any).text).includes('/w/')),
    );
    const link = /(http:\/\/\S+\/w\/[A-Za-z0-9_-]+)/.exec(String((dm.content as any).text))![1]!;
    const secret = link.split('/w/')[1]!;
    // Only the direct message carries it; the reply in the conversation does not.
    expect(fake.messages.filter((m) => JSON.stringify(m.history).includes(secret))).toHaveLength(1);
    expect(textsIn(fake, appId, msg.chatId).find((t) => t.includes('private link'))).not.toContain(secret);
    expect(term.messageId).toBeDefined();

    const writer = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const wpage = await writer.newPage();
    const urls: string[] = [];
    wpage.on('request', (r) => urls.push(r.url()));
    const linkPage = await wpage.goto(link);
    expect(linkPage?.status()).toBe(200); // a page with one button: opening (or previewing) the link spends nothing
    await wpage.click('#open-write'); // the person taps the button: the exchange is this POST
    await wpage.waitForSelector('body[data-state="open"][data-mode="write"]');
    const file = join(rig.home.dir, 'typed-in-browser.txt');
    await wpage.locator('.xterm-screen').click();
    await wpage.keyboard.type(`echo hi > ${file}`);
    await wpage.keyboard.press('Enter');
    await until('file written from the page', () => existsSync(file) && readFileSync(file, 'utf8') === 'hi\n');

    // The link works once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    const [second] = await Promise.all([again.waitForNavigation(), again.click('#open-write')]);
    expect(second?.status()).toBe(404);

    // No URL after the exchange (the POST to the link), page, log line or card carries the secret.
    const after = urls.slice(urls.findLastIndex((u) => u.includes(`/w/${secret}`)) + 1);
    expect(after.length).toBeGreaterThan(2);
    const cards = fake.messages.filter((m) => m.msgType === 'interactive').map((m) => JSON.stringify(m.history)).join('\n');
    for (const h of [after.join('\n'), wpage.url(), await wpage.content(), rig.logText(), cards]) expect(h).not.toContain(secret);
    const audit = readFileSync(rig.home.paths.auditLog, 'utf8');
    expect(audit).toContain('web_write_connect');
    expect(audit).toContain(rig.user);

    // /revoke-term closes the open write connection; the cookie no longer grants write.
    await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/revoke-term' });
    await until('write page disconnected', async () => (await wpage.locator('body').getAttribute('data-state')) !== 'open');
    const reload = await wpage.goto(wpage.url());
    expect(reload?.status()).toBe(404);

    // /revoke-term --view: open views close, the card's old link stops working, the next card carries a new one.
    await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/revoke-term --view' });
    await until('view page disconnected', async () => (await vpage.locator('body').getAttribute('data-state')) !== 'open');
    expect((await (await viewer.newPage()).goto(viewUrl))?.status()).toBe(404);
    const next = await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: 'echo NEXT-$((5*5))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('NEXT-25')), 30_000, 'next answer');
    const newViewUrl = await until('view link on the next card', () => openUrl(cardsFor(fake, appId, next.messageId)[0]!.content, 'Web terminal'));
    expect(newViewUrl).not.toBe(viewUrl);
    const fresh = await viewer.newPage();
    expect((await fresh.goto(newViewUrl))?.status()).toBe(200);
    await fresh.waitForSelector('body[data-state="open"][data-mode="read"]');
    await viewer.close();
    await writer.close();
  });

  it('opening the link of a session whose worker sleeps (after a daemon restart) starts it and shows the pane', { timeout: 150_000 }, async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo SLEEPY-$((3*3))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('SLEEPY-9')), 30_000, 'answer');
    const card = cardsFor(fake, appId, msg.messageId)[0]!;
    await fake.waitFor(() => headerColour(card.content) === 'green', 10_000, 'idle');
    const viewUrl = await until('view link', () => openUrl(card.content, 'Web terminal'));

    const restarted = await runLarkmux(['restart'], rig.home.env);
    expect(restarted.code).toBe(0);
    await fake.waitFor(() => fake.connectionCount(appId) > 0, 15_000, 'reconnected');
    const st = await rig.status();
    expect(st.workers).toBe(0);
    // The web port may differ after a restart when it is 0 (tests); the path and token stay valid.
    const path = new URL(viewUrl);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${st.webUrl}${path.pathname}${path.search}`);
    await page.waitForSelector('body[data-state="open"][data-mode="read"]', { timeout: 30_000 });
    await until('pane content after waking', async () => (await page.locator('.xterm-rows').innerText()).includes('SLEEPY-9'), 30_000);
    expect((await rig.status()).workers).toBe(1);
  });
});
