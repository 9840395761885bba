// `larkmux setup --scan` (scan-to-create) with the real SDK registerApp against the fake accounts service: the printed
// link is "scanned" by the test, then approved, refused, left to expire, or the command is interrupted with Ctrl+C.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { parseConfigText } from '../../src/shared/config.js';
import { SCOPES } from '../../src/cli/setup/console-settings.js';
import { FakeFeishu, type FakeAccounts } from '../support/fake-feishu/index.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT, runLarkmux } from '../support/larkmux-cli.js';
import { until } from '../support/until.js';

interface LiveRun {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** Starts `larkmux setup …` from source and lets the test read its output while it runs (the link comes mid-way). */
function startSetup(args: string[], env: NodeJS.ProcessEnv, stdin?: string): LiveRun {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'setup', ...args], { env, cwd: ROOT, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  if (stdin !== undefined) child.stdin!.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, out: () => out, err: () => err, exited };
}

/**
 * The QR code setup drew, read back into modules (true = dark) from its half-block lines: a block is two light modules
 * (uqr's compact form draws the light ones), a space two dark ones, ▀ light over dark, ▄ dark over light.
 */
function qrModulesIn(out: string): boolean[][] {
  const lines = out.split('\n').filter((l) => /^ {2}[█▀▄ ]+$/.test(l) && /[█▀▄]/.test(l)).map((l) => l.slice(2));
  const TOP_BOTTOM_DARK: Record<string, [boolean, boolean]> = { '█': [false, false], ' ': [true, true], '▀': [false, true], '▄': [true, false] };
  const rows: boolean[][] = [];
  for (const l of lines) {
    const pairs = [...l].map((c) => TOP_BOTTOM_DARK[c]!);
    rows.push(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  }
  return rows;
}

const LINK = /https:\/\/127\.0\.0\.1:\d+\/page\/app-registration\?\S+/;

describe('larkmux setup: create the app by scanning', () => {
  let fake: FakeFeishu;
  let accounts: FakeAccounts;
  let home: TestHome;
  let run: LiveRun | undefined;

  beforeAll(async () => {
    fake = await FakeFeishu.start({ apps: [] });
    accounts = await fake.startAccounts();
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(async () => {
    if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
    run = undefined;
    home?.cleanup();
  });

  /** The test home's environment, trusting the fake's self-signed certificate (how the SDK's https reaches it). */
  function envFor(h: TestHome): NodeJS.ProcessEnv {
    return { ...h.env, NODE_EXTRA_CA_CERTS: accounts.caFile, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1', LANG: 'C.UTF-8', LC_ALL: '' };
  }
  const scanFlags = () => ['--accounts-url', accounts.url, '--domain', fake.baseUrl];

  async function linkOf(r: LiveRun): Promise<string> {
    return until('the scan link on stdout', () => LINK.exec(r.out())?.[0] ?? (r.child.exitCode !== null ? Promise.reject(new Error(`setup ended: ${r.out()}\n${r.err()}`)) : undefined), 60_000, 50);
  }

  it('approve: the new app with the scopes, event and card callback larkmux needs is written to config.json (0600), secret never printed', async () => {
    home = makeTestHome('lmx-setup-scan-');
    const env = envFor(home);
    run = startSetup(['--yes', '--scan', ...scanFlags(), '--cli', 'shell', '--working-dir', '~/code', '--name', 'scanned'], env);
    const link = await linkOf(run);
    // The code a phone scans is the link itself (piped stdout: bare blocks, no colour codes).
    await until('the QR code on stdout', () => qrModulesIn(run!.out()).length > 20 || undefined, 30_000, 50);
    const expected = encode(link, { ecc: 'L', border: 2 }).data;
    expect(qrModulesIn(run.out()).slice(0, expected.length)).toEqual(expected);
    // Polling is under way ("authorization pending") before anyone scans; a slow_down is taken in stride.
    await until('a pending poll', () => accounts.requests.some((q) => q.action === 'poll' && q.status === 400));
    accounts.slowDown(link);
    const app = accounts.approve(link);
    const code = await run.exited;
    expect(code, run.out() + run.err()).toBe(0);

    const reg = accounts.registrations.find((r) => r.app === app)!;
    expect(reg.begin).toMatchObject({ action: 'begin', archetype: 'PersonalAgent', auth_method: 'client_secret' });
    expect(reg.linkParams?.createOnly).toEqual(['true']);
    expect(reg.addons).toEqual({
      scopes: { tenant: SCOPES.filter((s) => s.required).map((s) => s.scope) },
      events: { items: { tenant: ['im.message.receive_v1'] } },
      callbacks: { items: ['card.action.trigger'] },
    });
    expect(fake.tokensIssued(app.appId)).toBeGreaterThan(0); // the new credentials were checked

    const text = readFileSync(home.paths.config, 'utf8');
    expect(statSync(home.paths.config).mode & 0o777).toBe(0o600);
    const parsed = parseConfigText(text, env);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config.bots).toHaveLength(1);
    expect(parsed.config.bots[0]).toMatchObject({ name: 'scanned', appId: app.appId, appSecret: app.appSecret, domain: fake.baseUrl, cli: 'shell', workingDir: '~/code' });

    const all = run.out() + run.err();
    expect(all).toContain(`Created the app ${app.appId}`);
    expect(all).toContain('check less often');
    expect(all).toContain('Credentials OK');
    expect(all).not.toContain(app.appSecret);
  });

  // Refused in Feishu, or nobody confirmed in time: the person reads why and how to go on; nothing is written.
  it.each([
    { what: 'refuse', act: (link: string) => accounts.refuse(link), says: 'larkmux setup: the app was not created: the request was declined in Feishu/Lark. Nothing was written' },
    { what: 'expiry', act: (link: string) => accounts.expire(link), says: 'larkmux setup: the link expired before anyone confirmed it. Nothing was written; run `setup --scan` again' },
  ])('$what: a clear error, exit 1, no config.json', async ({ act, says }) => {
    home = makeTestHome('lmx-setup-scan-');
    run = startSetup(['--yes', '--scan', ...scanFlags(), '--cli', 'shell'], envFor(home));
    act(await linkOf(run));
    expect(await run.exited).toBe(1);
    expect(run.err()).toContain(says);
    expect(existsSync(home.paths.config)).toBe(false);
  });

  it('a scan service that does not speak https, and --scan beside --app-id, are clear errors that write nothing', async () => {
    home = makeTestHome('lmx-setup-scan-');
    const notHttps = new URL(fake.baseUrl).host; // the fake's plain-http open API port
    const res = await runLarkmux(['setup', '--yes', '--scan', '--accounts-url', `https://${notHttps}`, '--domain', fake.baseUrl, '--cli', 'shell'], envFor(home), { timeoutMs: 60_000 });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`larkmux setup: cannot reach https://${notHttps} \\(\\S+\\); check this machine's network or proxy\\. Nothing was written\\.`));
    const both = await runLarkmux(['setup', '--yes', '--scan', '--app-id', 'cli_0123456789abcdef'], envFor(home), { timeoutMs: 60_000 });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--scan creates a new app and brings its own id and secret');
    expect(existsSync(home.paths.config)).toBe(false);
  });

  it('interactive: Enter at the first question scans, a Lark account is followed to Lark, the remaining questions are asked after', async () => {
    home = makeTestHome('lmx-setup-scan-');
    const env = envFor(home);
    run = startSetup(scanFlags(), env, ['', 'shell', '/srv/work', 'larkbot'].join('\n') + '\n');
    const app = accounts.approve(await linkOf(run), { tenantBrand: 'lark' });
    expect(await run.exited, run.out() + run.err()).toBe(0);
    expect(run.out()).toMatch(/App ID \(cli_…\) of an existing app, or press Enter to create a new app by scanning/);
    expect(run.out()).toContain('Your account is on Lark: continuing with Lark.');
    expect(run.out()).toMatch(/CLI \(.*\)[^]*Working directory[^]*Bot name/);
    expect(run.out()).not.toMatch(/App secret/); // the platform brought it
    const parsed = parseConfigText(readFileSync(home.paths.config, 'utf8'), env);
    expect(parsed.ok && parsed.config.bots[0]).toMatchObject({ name: 'larkbot', appId: app.appId, appSecret: app.appSecret, cli: 'shell', workingDir: '/srv/work' });
    expect(run.out() + run.err()).not.toContain(app.appSecret);
  });

  it('interactive: Enter at the first question scans; Ctrl+C while waiting cancels and keeps the existing config as it was', async () => {
    home = makeTestHome('lmx-setup-scan-');
    home.writeConfig({ bots: [{ name: 'keep', appId: 'cli_0123456789abcdef', appSecret: 'x-keep' }] });
    const before = readFileSync(home.paths.config, 'utf8');
    run = startSetup(scanFlags(), { ...envFor(home), LANG: 'zh_CN.UTF-8' }, '\n');
    await linkOf(run);
    expect(run.out()).toContain('用手机上的飞书/Lark 扫描下面的二维码');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.err()).toContain('等待扫码时已取消；未写入任何内容。');
    expect(readFileSync(home.paths.config, 'utf8')).toBe(before);
  });
});
