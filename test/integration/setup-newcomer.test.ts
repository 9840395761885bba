// Issue 15, smaller items: a wrong secret in `larkmux setup` costs only the secret, and setup checks the CLI is on PATH.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/shared/config.js';
import { FakeFeishu } from '../support/fake-feishu/index.js';
import { TEST_APPS } from '../support/fake-feishu/harness.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

describe('larkmux setup for a newcomer', () => {
  let fake: FakeFeishu;
  let home: TestHome | undefined;
  const app = TEST_APPS[0]!;
  beforeAll(async () => {
    fake = await FakeFeishu.start({ apps: TEST_APPS });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => home?.cleanup());

  it('asks only the secret again after Feishu refused it, and warns that the chosen CLI is not installed', async () => {
    home = makeTestHome('lmx-setup-nc-');
    const env = { ...home.env, PATH: '/usr/bin:/bin' }; // no codex here
    const answers = [app.appId, 'wrong-secret-typed-first', fake.baseUrl, 'codex', home.dir, '', app.appSecret];
    const res = await runLarkmux(['setup'], env, { stdin: `${answers.join('\n')}\n`, timeoutMs: 60_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).toContain('the app secret is wrong');
    expect(res.stderr).toContain('your other answers are kept; enter the app secret again');
    expect(res.stdout.match(/App ID \(cli_…\)/g)).toHaveLength(1); // not asked twice
    expect(res.stdout).toContain('warning: codex (the codex CLI) is not on PATH here, so sessions cannot start; install it with: npm install -g @openai/codex');
    expect(res.stdout + res.stderr).not.toContain(app.appSecret);
    expect(res.stdout + res.stderr).not.toContain('wrong-secret-typed-first');
    const parsed = parseConfigText(readFileSync(home.paths.config, 'utf8'), env);
    expect(parsed.ok && parsed.config.bots[0]).toMatchObject({ appId: app.appId, appSecret: app.appSecret, cli: 'codex', workingDir: home.dir });
  });
});
