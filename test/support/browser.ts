// Test helpers for the web terminal: real Chromium (playwright-core), and the web stack (tmux pane + worker server + proxy + grants).
import type { Locale } from '../../src/shared/i18n.js';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { WebGrants } from '../../src/daemon/web/web-grants.js';
import { WebProxy, type WorkerEndpoint } from '../../src/daemon/web/web-proxy.js';
import { createLogger } from '../../src/platform/log.js';
import { tmuxSessionName } from '../../src/shared/session-key.js';
import { WebTerminalServer, type WebAuditEntry } from '../../src/worker/webterm.js';
import { authorizeFromProxy } from '../../src/worker/webterm/authorize.js';
import type { TestTmuxServer } from './tmux.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_DIST = join(repoRoot, 'dist', 'web');

/** Builds dist/web from src/web (esbuild, about a second) so browser tests always run the current page. */
export function buildWebBundle(): void {
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build-web.mjs')], { stdio: 'inherit' });
  if (!existsSync(join(WEB_DIST, 'main.js'))) throw new Error('dist/web/main.js was not built');
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A pane size that is neither a desktop's nor a phone's, so a browser resizing it would show. */
export const PANE = { cols: 100, rows: 30 } as const;

export interface WebStack {
  baseUrl: string;
  grants: WebGrants;
  proxy: WebProxy;
  /** Worker servers started so far (lazily, on the first proxied request, as a forked worker would be). */
  workers: Map<string, WebTerminalServer>;
  audit: WebAuditEntry[];
  logFile: string;
  advance(ms: number): void;
  target(sessionId: string): string;
  dispose(): Promise<void>;
}

/**
 * Assembles what the daemon and a worker will: a tmux session per id running a plain bash (PS1 "$ "), grants with a
 * fake clock, the proxy, and a WebTerminalServer per session started on demand by resolveWorker.
 */
export async function startWebStack(opts: { tmux: TestTmuxServer; home: string; sessionIds: string[]; sessionLocale?: (sessionId: string) => Locale | undefined }): Promise<WebStack> {
  for (const id of opts.sessionIds) {
    const res = await opts.tmux.run([
      '-f', '/dev/null', 'new-session', '-d', '-s', tmuxSessionName(id), '-x', String(PANE.cols), '-y', String(PANE.rows),
      '-e', 'PS1=$ ', '-e', 'HISTFILE=/dev/null', 'bash', '--norc', '--noprofile',
    ]);
    if (res.code !== 0) throw new Error(`tmux new-session failed: ${res.stderr}`);
  }
  let now = Date.now();
  const grants = new WebGrants({ now: () => now });
  const logFile = join(opts.home, 'logs', 'larkmux.log');
  const log = createLogger({ file: logFile, level: 'debug' });
  const audit: WebAuditEntry[] = [];
  const auditFile = join(opts.home, 'logs', 'audit.log');
  const workers = new Map<string, WebTerminalServer>();
  const endpoints = new Map<string, Promise<WorkerEndpoint | null>>();
  const resolveWorker = (sessionId: string): Promise<WorkerEndpoint | null> => {
    const known = endpoints.get(sessionId);
    if (known) return known;
    const started = (async () => {
      const proxySecret = randomBytes(32).toString('base64url');
      const server = new WebTerminalServer({
        tmuxSocket: opts.tmux.socket,
        tmuxName: tmuxSessionName(sessionId),
        sessionId,
        staticDir: WEB_DIST,
        authorize: authorizeFromProxy(proxySecret),
        audit: (e) => {
          audit.push(e);
          appendFileSync(auditFile, `${JSON.stringify(e)}\n`);
        },
        log: log.child({ part: 'webterm' }),
      });
      workers.set(sessionId, server);
      const res = await server.start();
      return res.ok ? { port: res.port, proxySecret } : null;
    })();
    endpoints.set(sessionId, started);
    return started;
  };
  const proxy = new WebProxy({
    host: '127.0.0.1',
    port: 0,
    grants,
    sessionExists: (id) => opts.sessionIds.includes(id),
    resolveWorker,
    log: log.child({ part: 'web-proxy' }),
    ...(opts.sessionLocale ? { sessionLocale: opts.sessionLocale } : {}),
  });
  const started = await proxy.start();
  if (!started.ok) throw new Error(started.message);
  return {
    baseUrl: `http://127.0.0.1:${started.port}`,
    grants,
    proxy,
    workers,
    audit,
    logFile,
    advance: (ms) => void (now += ms),
    target: (id) => tmuxSessionName(id),
    async dispose() {
      await proxy.dispose();
      await Promise.all([...workers.values()].map((w) => w.dispose()));
      log.flush();
    },
  };
}

export function readText(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`, naming `what`). */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens a console login link the way a person does: the link shows one button, and its POST signs the browser in. */
export async function signInToConsole(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await Promise.all([page.waitForURL((u) => !u.search.includes('token=')), page.click('#open-console')]);
}
