// Issue 15 items 5 and 6, as a newcomer meets them through a (fake) Feishu: a CLI that is not installed, a bot nobody
// owns yet, and credentials Feishu refuses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { cardsFor, colourHistory, headerColour, markdownText } from '../support/cards.js';
import { runLarkmux } from '../support/larkmux-cli.js';

let rig: E2eRig | undefined;
afterEach(async () => {
  await rig?.cleanup();
  rig = undefined;
});

describe('first run', () => {
  it('a CLI that is not installed gives a red card with the install command in the bot\'s language, not a blue "Starting"', async () => {
    rig = await startRig({ botOverrides: { cli: 'codex', locale: undefined } }); // the bot's default language (the rig names en)
    rig.home.env.PATH = '/usr/bin:/bin'; // tmux and the system, but no codex
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'hello' });
    await fake.waitFor(() => cardsFor(fake, appId, msg.messageId).some((c) => headerColour(c.content) === 'red'), 60_000, 'red card');
    const card = cardsFor(fake, appId, msg.messageId)[0]!;
    await fake.waitFor(() => markdownText(card.content).includes('npm install -g @openai/codex'), 10_000, 'install command on the card');
    const text = markdownText(card.content);
    expect(text).toContain('服务器上没有安装 codex，'); // a private-domain bot speaks zh-CN by default
    expect(text).not.toMatch(/Pane is dead|exited right after launch/);
    expect(colourHistory(card).at(-1)).toBe('red');
  });

  it('a working folder removed after start gives a red card naming it, instead of running the CLI elsewhere (item 4)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'lmx-work-'));
    rig = await startRig({ botOverrides: { workingDir: work, locale: undefined } });
    await rig.start();
    rmSync(work, { recursive: true });
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'pwd' });
    await fake.waitFor(() => cardsFor(fake, appId, msg.messageId).some((c) => headerColour(c.content) === 'red'), 60_000, 'red card');
    const card = cardsFor(fake, appId, msg.messageId)[0]!;
    await fake.waitFor(() => markdownText(card.content).includes(`mkdir -p ${work}`), 10_000, 'folder fix on the card');
    expect(markdownText(card.content)).toContain(`服务器上不存在文件夹 \`${work}\``);
    expect((await rig.tmux.run(['list-sessions'])).stdout).not.toMatch(/lmx-[0-9a-f]{8}/); // nothing was launched
  });

  it('start prints the pairing code of a bot nobody owns, the same code status shows', async () => {
    rig = await startRig({ botOverrides: { allowedUsers: [] } });
    const res = await runLarkmux(['start'], rig.home.env);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const code = /pairing code for "bot0": (\S+)/.exec(res.stdout)?.[1];
    expect(code, res.stdout).toBeDefined();
    expect(res.stdout).toContain('send this code to the bot in a direct chat');
    const st = await rig.status();
    expect(st.bots[0].pairingCode).toBe(code);
  });

  it('start says plainly when Feishu refused the credentials, and exits non-zero', async () => {
    rig = await startRig();
    rig.home.env.LMX_TEST_SECRET_0 = 'wrong-secret-for-the-test-1234';
    const res = await runLarkmux(['start'], rig.home.env);
    expect(res.code).toBe(1);
    expect(res.stdout).not.toContain('larkmux started (pid');
    expect(res.stdout).toMatch(/larkmux is running \(pid \d+\), but no bot could connect/);
    expect(res.stdout).toMatch(/bot "bot0" \(cli_[0-9a-f]+\): FAILED: .+/);
    expect(res.stdout).toMatch(/fix: check the app id and secret \((npx )?larkmux setup\), then (npx )?larkmux restart/);
    expect(res.stdout + res.stderr).not.toContain('wrong-secret-for-the-test-1234');
  });
});
