// Issue 32 item 3: with no console.locale the console speaks the browser's language, and one page speaks one language:
// its own words, the cards' buttons and status, and the web terminal opened from a card (real daemon, real Chromium, phone).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebBundle, launchChromium, signInToConsole, waitFor } from '../support/browser.js';
import { openTerminalTab } from '../support/console-daemon.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { endDaemonHome, runLarkmux } from '../support/larkmux-cli.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const LINK_RE = /console: open (http:\/\/127\.0\.0\.1:\d+\/console\/\?token=[A-Za-z0-9_-]+)/;

/** What a person reads in each language (the catalogue's words, written out so a wrong lookup cannot pass). */
const WORDS = {
  'en-US': { lang: 'en', newTopic: 'New topic', display: 'Text', idle: /^Idle/, terminal: 'Open terminal', termTitle: 'larkmux terminal' },
  'zh-CN': { lang: 'zh-CN', newTopic: '新建话题', display: '文字', idle: /^空闲/, terminal: '打开终端', termTitle: 'larkmux 终端' },
} as const;

describe('console language follows the browser when console.locale is unset', () => {
  let browser: Browser;
  let home: TestHome;
  let tmux: TestTmuxServer;

  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
    home = makeTestHome('lmx-conlang-');
    tmux = makeTmuxServer();
    home.writeConfig({ web: { port: 0, host: '127.0.0.1' }, tmux: { socket: tmux.socket }, console: { cli: 'shell', workingDir: home.dir } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (home) await endDaemonHome(home);
    await tmux?.kill();
  });

  /** Signs a fresh phone browser in, runs one command in a new topic, and returns the page once its card is idle. */
  async function phoneTurn(browserLocale: keyof typeof WORDS, command: string): Promise<Page> {
    const res = await runLarkmux(['start'], home.env, { from: 'built' });
    const link = LINK_RE.exec(res.stdout)?.[1];
    expect(link, res.stdout + res.stderr).toBeDefined();
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: browserLocale });
    const page = await ctx.newPage();
    await signInToConsole(page, link!);
    await page.waitForSelector('body[data-state="open"]');
    if ((await page.getAttribute('body', 'data-view')) !== 'new') await page.click('#new-topic');
    await page.waitForSelector('body[data-view="new"]');
    await page.fill('#first', command);
    await page.click('#start');
    await page.waitForSelector('body[data-view="topic"]');
    const last = page.locator('article.card-stream').last();
    await waitFor(`${command}: an idle card`, async () => (await page.locator('.bubble.bot').allInnerTexts()).some((t) => t.includes(command.slice(5))) && (await last.getAttribute('data-status')) === 'idle', 90_000);
    return page;
  }

  for (const browserLocale of ['en-US', 'zh-CN'] as const) {
    it(`a ${browserLocale} browser at 390×844 reads one language: page, card buttons and status, web terminal`, async () => {
      const words = WORDS[browserLocale];
      const page = await phoneTurn(browserLocale, `echo lang-${browserLocale}`);
      expect(await page.getAttribute('html', 'lang')).toBe(words.lang);
      expect(await page.locator('#new-topic').innerText()).toBe(words.newTopic);
      const card = page.locator('article.card-stream').last();
      expect(await card.locator('.card-subtitle').innerText()).toMatch(words.idle);
      // The card's buttons are written by the daemon (the bot's catalogue), not the page: they follow the browser too.
      expect(await card.locator('button[data-action="display"]').allInnerTexts()).toContain(words.display);
      expect(await card.locator('a[data-action="terminal"]').innerText()).toBe(words.terminal);
      // The composer's placeholder fits its box on the phone (issue 32 item 9: it was cut off at 390 px).
      const fit = await page.locator('#text').evaluate((el: HTMLTextAreaElement) => {
        const css = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = css.font;
        const room = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
        return { placeholder: el.placeholder, text: ctx.measureText(el.placeholder).width, room };
      });
      expect(fit.placeholder).not.toBe('');
      expect(fit.text, JSON.stringify(fit)).toBeLessThanOrEqual(fit.room);
      const term = await openTerminalTab(page.context(), card.locator('a[data-action="terminal"]'));
      await term.waitForSelector('body[data-state="open"]', { timeout: 60_000 });
      expect(await term.getAttribute('html', 'lang')).toBe(words.lang);
      expect(await term.title()).toBe(words.termTitle);
      await page.context().close();
    }, 240_000);
  }
});
