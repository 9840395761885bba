// Tall card images in the console on a 390×844 phone: real fixture screens rendered by the real renderer from a real
// tmux pane, shown by the real console page in real Chromium. One text row must measure ≥ 11 CSS px: a tall image
// scrolls inside its card rather than shrinking to fit a height cap (issue 32 item 6).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleAdapter } from '../../src/daemon/im/local/console-adapter.js';
import { ConsoleAuth } from '../../src/daemon/im/local/console-auth.js';
import { ConsoleServer } from '../../src/daemon/im/local/console-server.js';
import type { InboundEvent } from '../../src/daemon/im/types.js';
import { WebGrants } from '../../src/daemon/web/web-grants.js';
import { WebProxy } from '../../src/daemon/web/web-proxy.js';
import { createLogger } from '../../src/platform/log.js';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { loadFonts } from '../../src/worker/render/fonts.js';
import { RunPainter } from '../../src/worker/render/painter.js';
import { ScreenRenderer } from '../../src/worker/render/screenshot.js';
import { buildWebBundle, launchChromium, signInToConsole, waitFor } from '../support/browser.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const READABLE_CSS_PX = 11;
const log = createLogger({ level: 'silent' });
const place = { chatId: 'console', chatType: 'group' as const };

let tmux: TestTmuxServer;
let home: string;
let renderer: ScreenRenderer;
let metrics: RunPainter['metrics'];
let browser: Browser;
let proxy: WebProxy;
let adapter: ConsoleAdapter;
let page: Page;
let topicId: string;
const events: InboundEvent[] = [];

/** Shows a 120×40 fixture screen in its own pane (no final newline, so nothing scrolls). */
async function showFixture(session: string, name: string, ready: string): Promise<void> {
  const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'screens', `${name}.esc.txt`), 'utf8');
  const file = join(home, `${session}.txt`);
  writeFileSync(file, fixture.replace(/\n+$/, ''));
  const r = await tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '120', '-y', '40', '-e', 'LANG=C.UTF-8', `cat ${file}; exec sleep 600`]);
  if (r.code !== 0) throw new Error(r.stderr);
  await waitFor(`pane ${session} shows ${ready}`, async () => (await tmux.run(['capture-pane', '-p', '-t', `=${session}:`])).stdout.includes(ready));
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lmx-console-shot-'));
  loadFonts(home);
  metrics = new RunPainter().metrics;
  tmux = makeTmuxServer();
  renderer = new ScreenRenderer({ runner: new TmuxExecRunner({ socket: tmux.socket }), home });
  buildWebBundle();
  browser = await launchChromium();
  adapter = new ConsoleAdapter({ logger: log, clis: [{ id: 'cli0', label: 'claude', spec: 'claude-code' }], projects: [{ label: 'w', path: '/w' }] });
  await adapter.connect({ onEvent: async (ev) => void events.push(ev) });
  const auth = new ConsoleAuth();
  proxy = new WebProxy({ host: '127.0.0.1', port: 0, grants: new WebGrants(), sessionExists: () => false, resolveWorker: async () => null, log });
  proxy.mount(new ConsoleServer({ adapter, auth, log, ownsOpenSession: () => false, writeCookie: () => null }));
  const started = await proxy.start();
  if (!started.ok) throw new Error(started.message);
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3, locale: 'en-US' });
  page = await ctx.newPage();
  await signInToConsole(page, `http://127.0.0.1:${started.port}/console/?token=${auth.issueLoginToken()}`);
  await page.waitForSelector('body[data-state="open"]');
  await page.fill('#first', 'hello');
  await page.click('#start');
  await waitFor('the topic opened', () => page.locator('body[data-view="topic"]').count());
  topicId = events[0]!.messageId;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.dispose();
  renderer?.dispose();
  await tmux?.kill();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Renders the pane as a card image, shows it on a console card, and measures one text row and one glyph in CSS px. */
async function shownOnCard(session: string): Promise<{ rowCssPx: number; glyphCssPx: number; wholeImageReachable: boolean; bottomShown: boolean }> {
  const r = await renderer.render(`=${session}:`, null, 'card');
  if (!r.ok || !r.changed) throw new Error(`render failed: ${JSON.stringify(r)}`);
  const up = await adapter.uploadImage(r.png);
  if (!up.ok) throw new Error(up.message);
  const sessionId = session.padEnd(32, '0');
  const sent = await adapter.sendCard(place, {
    kind: 'stream', sessionId, title: `claude · ${session}`, status: 'idle', display: 'screenshot', image: { ref: up.value.imageRef }, keys: ['esc'], buttons: [], frozen: false,
  }, topicId);
  if (!sent.ok) throw new Error(sent.message);
  const img = page.locator(`article[data-session="${sessionId}"] img.card-shot`);
  await waitFor(`the ${session} image loaded`, () => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0).catch(() => false));
  // It opens at its bottom (the load handler scrolls it there): the composer and status line are read first.
  const bottomShown = await waitFor(`the ${session} image opened at its bottom`, () => img.evaluate((i) => {
    const holder = i.parentElement!;
    return holder.scrollTop + holder.clientHeight >= holder.scrollHeight - 1;
  }).catch(() => false));
  const m = await img.evaluate((i: HTMLImageElement) => {
    const box = i.getBoundingClientRect();
    const holder = i.parentElement!;
    return { w: box.width, h: box.height, nw: i.naturalWidth, nh: i.naturalHeight, scrollH: holder.scrollHeight, clientH: holder.clientHeight, scrollable: getComputedStyle(holder).overflowY };
  });
  // The PNG is exactly the frame's cells, margin and scale: one row is cellHeight × scale image pixels.
  expect(m.nh).toBe((r.frame.rows * metrics.cellHeight + 2 * r.frame.marginPx) * r.frame.scale);
  const yScale = m.h / m.nh;
  const xScale = m.w / m.nw;
  expect(Math.abs(yScale - xScale)).toBeLessThan(0.01); // shown undistorted
  const wholeImageReachable = m.scrollH <= m.clientH + 1 || m.scrollable === 'auto' || m.scrollable === 'scroll';
  return { rowCssPx: metrics.cellHeight * r.frame.scale * yScale, glyphCssPx: metrics.fontPx * r.frame.scale * yScale, wholeImageReachable, bottomShown };
}

describe('tall card images in the console at 390×844', () => {
  for (const [session, fixture, ready] of [
    ['reply', 'claude-18-multiline-reply', 'manual mode on'],
    ['permission', 'claude197-02-permission', 'Esc to cancel'],
    ['welcome', 'claude-13-idle-seeded', 'for shortcuts'],
  ] as const) {
    it(`${fixture}: one text row measures ≥ 11 CSS px and the whole image can be scrolled to`, async () => {
      await showFixture(session, fixture, ready);
      const shown = await shownOnCard(session);
      expect(shown.rowCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
      expect(shown.glyphCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
      expect(shown.wholeImageReachable).toBe(true);
      expect(shown.bottomShown).toBe(true);
    }, 60_000);
  }
});
