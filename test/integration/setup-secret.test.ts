// `larkmux setup` takes the app secret without putting it on a command line (issue 13 finding 12a): `ps` shows
// every argv to every local user. --app-secret still works, with a warning that says so.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/shared/config.js';
import { FakeFeishu } from '../support/fake-feishu/index.js';
import { TEST_APPS } from '../support/fake-feishu/harness.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

describe('larkmux setup: the secret stays off the command line', () => {
  let fake: FakeFeishu;
  let home: TestHome | undefined;
  const app = TEST_APPS[0]!;
  beforeAll(async () => { fake = await FakeFeishu.start({ apps: TEST_APPS }); });
  afterAll(async () => { await fake.close(); });
  afterEach(() => home?.cleanup());

  it('--app-secret-stdin with --yes: the secret is read from stdin, checked, stored, and never printed', async () => {
    home = makeTestHome('lmx-setup-sec-');
    const res = await runLarkmux(['setup', '--yes', '--app-id', app.appId, '--app-secret-stdin', '--domain', fake.baseUrl, '--cli', 'shell'], home.env, { stdin: `${app.appSecret}\n`, timeoutMs: 30_000 });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Credentials OK');
    expect(res.stdout).not.toContain(app.appSecret);
    const cfg = parseConfigText(readFileSync(home.paths.config, 'utf8'), {});
    expect(cfg.ok && cfg.config.bots[0]?.appSecret).toBe(app.appSecret);
  });

  it('--app-secret-stdin with empty stdin is a clear usage error; two secret sources are refused', async () => {
    home = makeTestHome('lmx-setup-sec-');
    const empty = await runLarkmux(['setup', '--yes', '--app-id', app.appId, '--app-secret-stdin', '--domain', fake.baseUrl], home.env, { stdin: '', timeoutMs: 30_000 });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--app-secret-stdin: stdin held no secret/);
    const both = await runLarkmux(['setup', '--yes', '--app-id', app.appId, '--app-secret-stdin', '--app-secret-env', 'X'], home.env, { stdin: 'x\n', timeoutMs: 30_000 });
    expect(both.code).toBe(2);
  });

  it('--app-secret still works but warns that ps shows it', async () => {
    home = makeTestHome('lmx-setup-sec-');
    const res = await runLarkmux(['setup', '--yes', '--app-id', app.appId, '--app-secret', app.appSecret, '--domain', fake.baseUrl, '--cli', 'shell'], home.env, { timeoutMs: 30_000 });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/--app-secret is visible to every local user in `ps`.*--app-secret-stdin/);
    expect(res.stdout + res.stderr).not.toContain(app.appSecret);
  });
});
