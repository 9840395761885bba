// `larkmux setup` against the fake Feishu: flags and interactive answers, credential check, merged 0600 config, console steps.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/shared/config.js';
import { FakeFeishu } from '../support/fake-feishu/index.js';
import { TEST_APPS } from '../support/fake-feishu/harness.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux, type CliRun } from '../support/larkmux-cli.js';

/** Runs `larkmux setup …` from source with `stdin` fed to it (then closed). */
function runSetup(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliRun> {
  return runLarkmux(['setup', ...args], env, { stdin, timeoutMs: 30_000 });
}

/** A local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('larkmux setup', () => {
  let fake: FakeFeishu;
  let home: TestHome;
  const [app] = TEST_APPS as [typeof TEST_APPS[number]];

  beforeAll(async () => {
    fake = await FakeFeishu.start({ apps: TEST_APPS });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => home?.cleanup());

  it('with flags: checks the credentials, stores the secret as ${ENV}, keeps other bots, writes 0600, prints the console steps', async () => {
    home = makeTestHome('lmx-setup-');
    const other = { name: 'other', appId: 'cli_0123456789abcdef', appSecret: '${OTHER_SECRET}', cli: 'codex', allowedUsers: ['ou_keep'] };
    home.writeConfig({ web: { port: 7999 }, bots: [other] });
    const env = { ...home.env, MY_LARK_SECRET: app.appSecret, OTHER_SECRET: 'x-other' };
    const res = await runSetup(['--yes', '--app-id', app.appId, '--app-secret-env', 'MY_LARK_SECRET', '--domain', fake.baseUrl, '--cli', 'shell', '--working-dir', '~/code', '--name', 'alpha'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(fake.tokensIssued(app.appId)).toBeGreaterThan(0);

    const text = readFileSync(home.paths.config, 'utf8');
    expect(text).not.toContain(app.appSecret);
    expect(statSync(home.paths.config).mode & 0o777).toBe(0o600);
    const parsed = parseConfigText(text, env);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config.web.port).toBe(7999);
    expect(parsed.config.bots.map((b) => b.name)).toEqual(['other', 'alpha']);
    expect(parsed.config.bots[0]).toMatchObject({ appId: other.appId, cli: 'codex', allowedUsers: ['ou_keep'] });
    expect(parsed.config.bots[1]).toMatchObject({ appId: app.appId, appSecret: app.appSecret, domain: fake.baseUrl, cli: 'shell', workingDir: '~/code' });
    expect(JSON.parse(text).bots[1].appSecret).toBe('${MY_LARK_SECRET}');

    const out = res.stdout;
    expect(out).toContain('Credentials OK');
    for (const s of ['im.message.receive_v1', 'card.action.trigger', 'im:message.p2p_msg:readonly', 'im:message.group_at_msg:readonly', 'im:message:send_as_bot', 'im:resource', 'persistent connection']) {
      expect(out).toContain(s);
    }
    expect(out).toMatch(/REQUIRED[^]*optional/);
    expect(out).toContain('pairing code');
    expect(out + res.stderr).not.toContain(app.appSecret);
  });

  it('a wrong secret is reported by name, without the secret, and nothing is written', async () => {
    home = makeTestHome('lmx-setup-');
    const wrong = 'wrong-secret-7f3a9c2e';
    const res = await runSetup(['--yes', '--app-id', app.appId, '--app-secret', wrong, '--domain', fake.baseUrl, '--cli', 'shell'], home.env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/refused the credentials for cli_a1b2c3d4e5f60718/);
    expect(res.stderr).toMatch(/app secret is wrong/);
    expect(res.stdout + res.stderr).not.toContain(wrong);
    expect(existsSync(home.paths.config)).toBe(false);
  });

  it('an unreachable domain, a malformed app id and a missing secret variable are clear errors', async () => {
    home = makeTestHome('lmx-setup-');
    const secret = 'never-printed-1234';
    const closed = await closedPort();
    const down = await runSetup(['--yes', '--app-id', app.appId, '--app-secret', secret, '--domain', `http://127.0.0.1:${closed}`], home.env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`cannot reach http://127.0.0.1:${closed} (ECONNREFUSED)`);
    expect(down.stdout + down.stderr).not.toContain(secret);
    const badId = await runSetup(['--yes', '--app-id', 'cli_short', '--app-secret', secret], home.env);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/--app-id: an app id is cli_ followed by 16 hex digits/);
    const noVar = await runSetup(['--yes', '--app-id', app.appId, '--app-secret-env', 'LMX_UNSET_SECRET_VAR'], home.env);
    expect(noVar.code).toBe(1);
    expect(noVar.stderr).toMatch(/LMX_UNSET_SECRET_VAR is not set/);
    expect(existsSync(home.paths.config)).toBe(false);
  });

  it('interactive: answers on stdin (a bad app id is asked again), the typed secret is never echoed, the entry is updated in place', async () => {
    home = makeTestHome('lmx-setup-');
    home.writeConfig({ bots: [{ name: 'mine', appId: app.appId, appSecret: 'old', cli: 'codex', allowedUsers: ['ou_owner'], projects: ['~/a'] }] });
    const answers = ['cli_nothex', app.appId, app.appSecret, fake.baseUrl, 'shell', '/srv/work', ''].join('\n');
    const res = await runSetup([], home.env, `${answers}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('App ID (cli_…)');
    expect(res.stdout).toContain('App secret');
    expect(res.stderr).toContain('an app id is cli_ followed by 16 hex digits');
    expect(res.stdout).toContain('Updated bot "mine"');
    expect(res.stdout + res.stderr).not.toContain(app.appSecret);

    const text = readFileSync(home.paths.config, 'utf8');
    expect(statSync(home.paths.config).mode & 0o777).toBe(0o600);
    const parsed = parseConfigText(text, home.env);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config.bots).toHaveLength(1);
    expect(parsed.config.bots[0]).toMatchObject({ name: 'mine', appId: app.appId, appSecret: app.appSecret, domain: fake.baseUrl, cli: 'shell', workingDir: '/srv/work', allowedUsers: ['ou_owner'], projects: ['~/a'] });
  });

  it('interactive: input that ends early writes nothing', async () => {
    home = makeTestHome('lmx-setup-');
    const res = await runSetup([], home.env, `${app.appId}\n`);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/input ended before setup was complete/);
    expect(existsSync(home.paths.config)).toBe(false);
  });
});
