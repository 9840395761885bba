// Files and pictures both ways in the local console, in real Chromium at phone size: attached in the composer they land
// in the session's folder like a Feishu attachment; `larkmux send` from the pane shows them inline or as downloads.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebBundle, launchChromium, signInToConsole, waitFor } from '../support/browser.js';
import { startConsoleDaemon, stopConsoleDaemon, type ConsoleDaemon } from '../support/console-daemon.js';
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function pngBytes(): Buffer {
  const c = createCanvas(64, 40);
  const g = c.getContext('2d');
  g.fillStyle = '#e34';
  g.fillRect(0, 0, 64, 40);
  g.fillStyle = '#fff';
  g.fillRect(8, 8, 20, 20);
  return c.toBuffer('image/png');
}

/** A POST whose header claims more bytes than the cap, with no body: the answer must come without reading any. */
function claimHuge(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(200 * 1024 * 1024) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('console: files and pictures both ways', () => {
  let browser: Browser;
  let daemon: ConsoleDaemon;
  let home: ConsoleDaemon['home'];
  let base = '';
  let ctx: BrowserContext;
  let page: Page;
  let cookie = '';

  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
    daemon = await startConsoleDaemon('lmx-cfile-');
    ({ home, base } = daemon);
    const link = daemon.link;
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', acceptDownloads: true });
    page = await ctx.newPage();
    await signInToConsole(page, link);
    await page.waitForSelector('body[data-state="open"]');
    cookie = (await ctx.cookies()).find((c) => c.name === 'lmx_console')!.value;
    await page.fill('#first', 'echo files-ready');
    await page.click('#start');
    await page.waitForSelector('body[data-view="topic"]');
    await waitFor('the first answer', async () => (await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes('files-ready')), 60_000);
  }, 180_000);

  afterAll(() => stopConsoleDaemon(daemon ?? {}, browser));

  it('a picture and a file attached in the composer land in the session folder with the same bytes, show in the chat, and reach the CLI', async () => {
    const png = pngBytes();
    const bin = randomBytes(70_000);
    await page.setInputFiles('#file', [
      { name: 'shot.png', mimeType: 'image/png', buffer: png },
      { name: 'data 数据 $(x).bin', mimeType: 'application/octet-stream', buffer: bin },
    ]);
    await waitFor('two attached chips', async () => (await page.locator('#attached .attached-chip:not(.uploading)').count()) === 2, 30_000);
    await page.fill('#text', 'echo attached-now');
    await page.press('#text', 'Enter');

    // Saved as a Feishu attachment is: generated names in .larkmux/uploads/<date>/, the bytes unchanged.
    const folder = join(home.dir, '.larkmux', 'uploads', new Date().toISOString().slice(0, 10));
    const saved = await waitFor('both files saved', () => {
      const names = existsSync(folder) ? readdirSync(folder).filter((n) => !n.startsWith('.')) : [];
      return names.length === 2 ? names : null;
    }, 60_000);
    const hashes = saved.map((n) => sha(readFileSync(join(folder, n)))).sort();
    expect(hashes).toEqual([sha(png), sha(bin)].sort());
    expect(saved.every((n) => /^\d{6}-[0-9a-f]{6}\.(png|bin)$/.test(n))).toBe(true);
    // The shell is given the stored paths (as with a Feishu attachment), never the sender's name.
    const pngName = saved.find((n) => n.endsWith('.png'))!;
    await waitFor('the CLI told the stored path', async () => (await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes(pngName)), 60_000);
    // The user's message shows the picture inline and both as downloads.
    const userBubble = page.locator('.bubble.user').last();
    await waitFor('the attached picture inline', () => userBubble.locator('img.media-img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth === 64), 30_000);
    expect(await userBubble.locator('a.media-link').count()).toBe(2);
    expect(await userBubble.innerText()).toContain('data 数据 $(x).bin');

    // Larger than the cap: refused in the page with the limit named, before any byte is sent (a sparse file on disk).
    const big = join(home.dir, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 101 * 1024 * 1024);
    await page.setInputFiles('#file', big);
    await waitFor('the too-large toast', async () => (await page.locator('.toast.error').allInnerTexts()).some((t) => t.includes('larger than 100 MB')));
    expect(await page.locator('#attached .attached-chip').count()).toBe(0);
  }, 180_000);

  it('`larkmux send --image` and `larkmux send <file>` from the pane: the picture inline, the file downloads with the same bytes', async () => {
    const png = pngBytes();
    const bin = randomBytes(50_000);
    writeFileSync(join(home.dir, 'out.png'), png);
    writeFileSync(join(home.dir, 'report.bin'), bin);
    // An HTML page posing as a picture is sent as a download, never shown or served inline.
    writeFileSync(join(home.dir, 'fake.png'), '<html><script>alert(1)</script></html>');
    const bots = () => page.locator('.bubble.bot');
    await page.fill('#text', `cd ${home.dir} && larkmux send --image out.png && larkmux send report.bin && larkmux send --image fake.png`);
    await page.press('#text', 'Enter');
    const img = bots().locator('img.media-img').last();
    await waitFor('the sent picture inline', () => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth === 64), 60_000);
    const fileLinks = bots().locator('a.media-link');
    await waitFor('three media entries', async () => (await bots().locator('.media').count()) >= 3, 60_000);

    // The file downloads in Chromium with the same bytes.
    const reportLink = fileLinks.filter({ hasText: 'report.bin' });
    const [download] = await Promise.all([page.waitForEvent('download'), reportLink.click()]);
    expect(download.suggestedFilename()).toBe('report.bin');
    expect(sha(readFileSync((await download.path())!))).toBe(sha(bin));

    // Headers: a download is an opaque attachment; a picture is inline as what its bytes are; neither is sniffed.
    const fileHref = (await reportLink.getAttribute('href'))!;
    const imgSrc = (await img.getAttribute('src'))!;
    const withCookie = { cookie: `lmx_console=${cookie}` };
    const f = await fetch(`${base}${fileHref}`, { headers: withCookie });
    expect(f.status).toBe(200);
    expect(f.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.bin"/);
    expect(f.headers.get('content-type')).toBe('application/octet-stream');
    expect(f.headers.get('x-content-type-options')).toBe('nosniff');
    const i = await fetch(`${base}${imgSrc}`, { headers: withCookie });
    expect(i.headers.get('content-type')).toBe('image/png');
    expect(i.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sha(new Uint8Array(await i.arrayBuffer()))).toBe(sha(png));
    const fake = bots().locator('.media').last();
    expect(await fake.getAttribute('class')).toContain('media-file');
    expect(await fake.locator('img').count()).toBe(0);
    const fakeRef = (await fake.getAttribute('data-ref'))!;
    expect((await fetch(`${base}/console/img/${fakeRef}`, { headers: withCookie })).status).toBe(404);
    expect((await fetch(`${base}/console/file/${fakeRef}`, { headers: withCookie })).headers.get('content-disposition')).toMatch(/^attachment/);

    // Without the console cookie nothing is served, and nothing is accepted.
    for (const path of [fileHref, imgSrc]) expect((await fetch(`${base}${path}`)).status, path).toBe(401);
    expect((await fetch(`${base}/console/upload`, { method: 'POST', body: 'x', headers: { origin: base } })).status).toBe(401);
    expect((await fetch(`${base}/console/upload`, { method: 'POST', body: 'x', headers: { ...withCookie, origin: 'http://evil.example' } })).status).toBe(403);
    // Larger than the cap (attachments.maxFileMiB, 100 MB by default): refused by its length, with a clear reason.
    const huge = await claimHuge(`${base}/console/upload`, { ...withCookie, origin: base });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toEqual({ ok: false, error: expect.stringContaining('larger than 100 MB') });
    await page.screenshot({ path: '/tmp/console-shots/console-phone-390x844-files.png' }).catch(() => undefined);
  }, 180_000);
});
