// The built daemon with only the console (a shell CLI in the test's home), started and stopped for console e2e tests.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { makeTestHome, type TestHome } from './home.js';
import { runLarkmux } from './larkmux-cli.js';
import { makeTmuxServer, type TestTmuxServer } from './tmux.js';

/** What `larkmux start` prints for the console: its one-time link (port and token captured). */
export const CONSOLE_LINK_RE = /console: open (http:\/\/127\.0\.0\.1:(\d+)\/console\/\?token=([A-Za-z0-9_-]+))/;

export interface ConsoleDaemon {
  home: TestHome;
  tmux: TestTmuxServer;
  /** The printed login link, its token, and the web port's base URL. */
  link: string;
  token: string;
  base: string;
}

export async function startConsoleDaemon(prefix: string): Promise<ConsoleDaemon> {
  const home = makeTestHome(prefix);
  const tmux = makeTmuxServer();
  home.writeConfig({ web: { port: 0, host: '127.0.0.1' }, tmux: { socket: tmux.socket }, console: { cli: 'shell', workingDir: home.dir, locale: 'en' } });
  const res = await runLarkmux(['start'], home.env, { from: 'built' });
  expect(res.code, res.stdout + res.stderr).toBe(0);
  const m = CONSOLE_LINK_RE.exec(res.stdout);
  expect(m, res.stdout).not.toBeNull();
  const link = m![1]!;
  return { home, tmux, link, token: m![3]!, base: link.split('/console/')[0]! };
}

export async function stopConsoleDaemon(d: Partial<ConsoleDaemon>, browser?: Browser): Promise<void> {
  await browser?.close();
  if (d.home) {
    await runLarkmux(['stop'], d.home.env).catch(() => undefined);
    const pid = readPid(d.home.paths.pidFile);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await d.tmux?.kill();
  d.home?.cleanup();
}

/**
 * Taps a card's web-terminal link and returns the tab it opens. Under two `yes` loops and the suite, one CI run waited
 * 30 s for a tab that never came, while the steps around it took seconds: a tap can land while the card is being
 * redrawn. A person taps again; so does this, up to three times, 30 s apart. A link that never opens a tab still fails.
 */
export async function openTerminalTab(ctx: BrowserContext, link: Locator): Promise<Page> {
  const before = new Set(ctx.pages());
  for (let attempt = 1; ; attempt++) {
    try {
      const [tab] = await Promise.all([ctx.waitForEvent('page', { timeout: 30_000 }), link.click()]);
      return tab;
    } catch (e) {
      const late = ctx.pages().find((p) => !before.has(p)); // a tab that came just after the wait gave up
      if (late) return late;
      if (attempt >= 3) throw e;
    }
  }
}
