// Reading on a phone (390×844, real Chromium): the web terminal's fit-to-width, text size control and touch defaults, and a card image at a card's width.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFonts } from '../../src/worker/render/fonts.js';
import { ScreenRenderer } from '../../src/worker/render/screenshot.js';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { CARD_IMAGE, framePixels } from '../../src/worker/render/card-frame.js';
import { CELL_GEOMETRY } from '../../src/worker/render/cell-glyphs.js';
import { PANE, buildWebBundle, launchChromium, startWebStack, waitFor, type WebStack } from '../support/browser.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { loadScreen } from '../support/reference-painter.js';

const S1 = '4d'.repeat(16);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const;
/** Where the screenshots a person checks by eye go (named in the report). */
const SHOTS = '/tmp/phone-shots';
const READABLE_CSS_PX = 11;
/** The renderer's cell: JetBrains Mono 14 px advances exactly 8.4 px. */
const CELL = { cellWidth: 8.4, cellHeight: CELL_GEOMETRY.cellHeight };

let browser: Browser;
let tmux: TestTmuxServer;
let home: TestHome;
let stack: WebStack;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  buildWebBundle();
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  tmux = makeTmuxServer();
  home = makeTestHome('lmx-phone-');
  stack = await startWebStack({ tmux, home: home.dir, sessionIds: [S1] });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
  await stack?.dispose();
  await tmux?.kill();
  home?.cleanup();
});

async function phonePage(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext(PHONE);
  contexts.push(ctx);
  return { ctx, page: await ctx.newPage() };
}

const windowSize = async () => (await tmux.run(['display', '-p', '-t', stack.target(S1), '#{window_width}x#{window_height}'])).stdout.trim();

async function paneRun(line: string): Promise<void> {
  await tmux.run(['send-keys', '-t', stack.target(S1), '-l', line]);
  await tmux.run(['send-keys', '-t', stack.target(S1), 'Enter']);
}

async function openWrite(page: Page): Promise<void> {
  const { token } = stack.grants.issueWriteLink(S1, 'ou_phone');
  await page.goto(`${stack.baseUrl}/s/${S1}/w/${token}`);
  // The link opens a page with one button; the tap (a POST) spends the link (issue 13 finding 10).
  await Promise.all([page.waitForURL(`${stack.baseUrl}/s/${S1}/`), page.click('#open-write')]);
  await page.waitForSelector('body[data-state="open"][data-mode="write"]');
}

/** What a reader sees of the terminal text: the glyph box height of a row holding `marker`, its font size, and sideways overflow. */
async function measureText(page: Page, marker: string) {
  return page.evaluate((m) => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.xterm-rows > div'));
    const row = rows.find((r) => r.textContent?.includes(m));
    if (!row) return null;
    const range = document.createRange();
    range.selectNodeContents(row);
    const glyphs = range.getBoundingClientRect();
    const viewport = document.getElementById('viewport')!;
    const screen = document.querySelector<HTMLElement>('.xterm-screen')!.getBoundingClientRect();
    return {
      fontPx: parseFloat(getComputedStyle(row).fontSize),
      glyphBoxPx: glyphs.height,
      charPx: glyphs.width / (row.textContent?.trimEnd().length || 1),
      screenWidth: screen.width,
      pansSideways: viewport.scrollWidth > viewport.clientWidth + 1,
    };
  }, marker);
}

describe('the web terminal on a 390×844 phone', () => {
  it('a write page fits the pane to the phone by default: readable text, no sideways panning; A+ is remembered; the pane comes back', async () => {
    const { ctx, page } = await phonePage();
    await openWrite(page);
    await waitFor('fit on', async () => (await page.locator('body').getAttribute('data-fit')) === 'on');
    const fitted = await waitFor('pane reflowed to the phone', async () => {
      const size = await windowSize();
      return size !== `${PANE.cols}x${PANE.rows}` ? size : null;
    });
    const [cols] = fitted.split('x').map(Number);
    expect(cols).toBeGreaterThanOrEqual(30);
    expect(cols).toBeLessThanOrEqual(60);
    await waitFor('page follows the new size', async () => (await page.locator('body').getAttribute('data-cols')) === String(cols));
    await page.waitForFunction((c) => document.querySelectorAll('.xterm-rows > div').length > 0 && document.body.dataset.cols === String(c), cols);
    await paneRun(`printf 'PHONE-%s 你好 ⏵ fits\\n' $((6*7)); printf '%*s|\\n' $(($(tput cols)-1)) EDGE`);
    const m = await waitFor('text measured', () => measureText(page, 'PHONE-42'));
    expect(m.fontPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(m.glyphBoxPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(m.pansSideways).toBe(false);
    expect(m.screenWidth).toBeLessThanOrEqual(390);
    // The last column of the reflowed pane (the "|" printed at the pane's width) is on screen: the second printf may
    // arrive after the first line was measured, so wait for it (a cut-off edge never shows the "|").
    await waitFor('the pane\'s last column on screen', async () => /EDGE\|/.test(await page.locator('.xterm-rows').innerText()));
    await page.screenshot({ path: `${SHOTS}/web-phone-write-fit.png` });

    // A+ makes the text larger and the pane narrower (still no panning); the size is remembered on the next visit.
    await page.locator('[data-control="larger"]').tap();
    const larger = m.fontPx + 1;
    await waitFor('font one step larger', async () => Number(await page.locator('body').getAttribute('data-font-size')) === larger);
    const narrower = await waitFor('pane narrower', async () => {
      const w = Number((await windowSize()).split('x')[0]);
      return w < cols! ? w : null;
    });
    await waitFor('page follows the narrower pane', async () => (await page.locator('body').getAttribute('data-cols')) === String(narrower));
    await waitFor('still no sideways panning', async () => (await measureText(page, 'EDGE'))?.pansSideways === false);
    await page.reload();
    await page.waitForSelector('body[data-state="open"][data-mode="write"]');
    await waitFor('font remembered', async () => Number(await page.locator('body').getAttribute('data-font-size')) === larger);

    // Fit off gives the pane back at once; closing the page (fit on again) does too.
    await page.locator('[data-control="fit"]').tap();
    await waitFor('pane restored by fit off', async () => (await windowSize()) === `${PANE.cols}x${PANE.rows}`);
    await page.locator('[data-control="fit"]').tap();
    await waitFor('reflowed again', async () => (await windowSize()) !== `${PANE.cols}x${PANE.rows}`);
    await ctx.close();
    contexts.splice(contexts.indexOf(ctx), 1);
    await waitFor('pane restored after the phone left', async () => (await windowSize()) === `${PANE.cols}x${PANE.rows}`);
  });

  it('a view-only phone page shows the readable text view by default (wrapped, no panning), never resizes the pane, and its terminal stays ≥ 11 px', async () => {
    // A line wider than the phone: in the text view it wraps instead of panning.
    await paneRun(`echo VIEW-$((6*7)); printf 'W%.0s' $(seq 1 90); echo '|END'`);
    const { page } = await phonePage();
    await page.goto(`${stack.baseUrl}/s/${S1}/?v=${stack.grants.viewToken(S1)}`);
    await page.waitForSelector('body[data-state="open"][data-mode="read"]');
    expect(await page.locator('[data-control="fit"]').isVisible()).toBe(false);
    expect(await page.locator('[data-control="larger"]').isVisible()).toBe(true);
    await page.waitForSelector('body[data-view="text"]');
    const text = page.locator('#text-view');
    await waitFor('pane text in the text view', async () => (await text.innerText()).includes('|END'));
    const tv = await text.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = Array.from(range.getClientRects());
      return {
        fontPx: parseFloat(getComputedStyle(el).fontSize),
        lineBoxPx: Math.min(...rects.map((r) => r.height)),
        pansSideways: el.scrollWidth > el.clientWidth + 1 || document.documentElement.scrollWidth > 390,
        visible: el.getBoundingClientRect().height > 100,
      };
    });
    expect(tv.fontPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(tv.lineBoxPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(tv.pansSideways).toBe(false);
    expect(tv.visible).toBe(true);
    // New pane output shows up in the text view.
    await paneRun('echo LATER-$((6*7))');
    await waitFor('text view follows the pane', async () => (await text.innerText()).includes('LATER-42'));
    await page.screenshot({ path: `${SHOTS}/web-phone-view-only-text.png` });

    // The Text toggle switches to the terminal (remembered like the text size), still at a readable size.
    await page.locator('[data-control="text"]').tap();
    await page.waitForSelector('body[data-view="terminal"]');
    const m = await waitFor('text measured', () => measureText(page, 'VIEW-42'));
    expect(m.fontPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(m.glyphBoxPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    expect(await windowSize()).toBe(`${PANE.cols}x${PANE.rows}`);
    await page.screenshot({ path: `${SHOTS}/web-phone-view-only.png` });
  });
});

describe('on a desktop', () => {
  it('a write page in a narrow desktop window keeps the pane its own size (fit is a touch-screen default) but offers Fit width', async () => {
    const ctx = await browser.newContext({ viewport: { width: 700, height: 700 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await openWrite(page);
    expect(await page.locator('body').getAttribute('data-fit')).toBe('off');
    expect(await page.locator('[data-control="fit"]').isVisible()).toBe(true);
    expect(await windowSize()).toBe(`${PANE.cols}x${PANE.rows}`);
    await page.locator('[data-control="fit"]').click();
    await waitFor('fitted on request', async () => (await windowSize()) !== `${PANE.cols}x${PANE.rows}`);
  });
});

describe('a card image at a phone card width', () => {
  /** Shows `png` as Feishu does (fit_horizontal: the card's width) on a 390 px page; returns the glyph size in CSS px. */
  async function showAsCard(png: Buffer, name: string, fontPx: number, scale: number): Promise<number> {
    const { page } = await phonePage();
    const src = `data:image/png;base64,${png.toString('base64')}`;
    await page.setContent(
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<body style="margin:0;background:#f2f3f5"><div style="width:${CARD_IMAGE.cardCssPx}px;margin:16px auto;padding:0;background:#fff;border-radius:8px;overflow:hidden">` +
        `<div style="padding:10px 12px;font:15px sans-serif">Card header</div><img id="shot" src="${src}" style="display:block;width:${CARD_IMAGE.cardCssPx}px"></div></body>`,
    );
    await page.waitForFunction(() => (document.getElementById('shot') as HTMLImageElement).complete);
    const shown = await page.evaluate(() => {
      const img = document.getElementById('shot') as HTMLImageElement;
      return { cssWidth: img.getBoundingClientRect().width, natural: img.naturalWidth, pageWidth: document.documentElement.clientWidth };
    });
    expect(shown.pageWidth).toBe(390);
    await page.screenshot({ path: `${SHOTS}/${name}` });
    return (fontPx * scale * shown.cssWidth) / shown.natural;
  }

  it('a pane fitted to a phone gives a card image whose text is readable at the card width', async () => {
    await installFonts(home.dir);
    const renderer = new ScreenRenderer({ runner: new TmuxExecRunner({ socket: tmux.socket }), home: home.dir });
    try {
      await tmux.run(['resize-window', '-t', stack.target(S1), '-x', '46', '-y', '30']); // what fit-to-width does for a phone
      // A line across the whole fitted width: the crop keeps every column the CLI used.
      await paneRun(`clear; printf 'Build passed: 42 tests\\n你好，世界 ⏵⏵ auto mode\\n'; printf '%*s|\\n' 45 EDGE`);
      await waitFor('text in the pane', async () => (await tmux.run(['capture-pane', '-p', '-t', stack.target(S1)])).stdout.includes('EDGE|'));
      const r = await renderer.render(stack.target(S1));
      if (!r.ok || !r.changed) throw new Error('no frame');
      writeFileSync(`${SHOTS}/card-fitted-pane.png`, r.png);
      // The frame the renderer chose for this screen (its scale), checked against the PNG's own size.
      expect(r.frame.cols).toBeLessThanOrEqual(46);
      expect(r.png.readUInt32BE(16)).toBe(framePixels(r.frame, CELL).width);
      const glyph = await showAsCard(r.png, 'card-fitted-pane-on-phone.png', CELL_GEOMETRY.fontPx, r.frame.scale);
      expect(glyph).toBeGreaterThanOrEqual(READABLE_CSS_PX);

      // A CLI drawing across a 120-column pane: the default (phone) frame wraps it to a readable width; the wide frame
      // (full width, cropped only) stays small at a card's width.
      const phone = await renderer.renderScreen(loadScreen('claude-04-idle-first'));
      writeFileSync(`${SHOTS}/card-claude-120cols.png`, phone.png);
      expect(await showAsCard(phone.png, 'card-claude-120cols-on-phone.png', CELL_GEOMETRY.fontPx, phone.frame.scale)).toBeGreaterThanOrEqual(READABLE_CSS_PX);
      const wide = await renderer.renderScreen(loadScreen('claude-04-idle-first'), 'wide');
      writeFileSync(`${SHOTS}/card-claude-120cols-wide.png`, wide.png);
      expect(await showAsCard(wide.png, 'card-claude-120cols-wide-on-phone.png', CELL_GEOMETRY.fontPx, wide.frame.scale)).toBeLessThan(READABLE_CSS_PX);
    } finally {
      renderer.dispose();
    }
  });
});
