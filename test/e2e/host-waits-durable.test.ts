// Prompts waiting for a host survive the daemon, and a host whose key changed is refused with the way out (issue 29
// item 6, DESIGN §12): through the real daemon (the build), the fake Feishu and a real sshd on 127.0.0.1 as host gpu1.
// - The host is down, two messages wait, `larkmux restart`, the host comes back: both run there once, in order, and
//   the topic was told once that the host is unreachable.
// - The host's key changed: the topic is told so once with the command that re-pins it, nothing runs (here or
//   there), the host is not tried every minute; re-pinned with that command, the message runs there once.
// - A daemon restart keeps the host's CLI: the next message runs in the same pane, the same shell (pane pid) on gpu1.
// - The host rebooted (its tmux server gone, the CLI with it, the link dropped): the next message starts the CLI there
//   again and runs once, never on this machine.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostFolders, hostHistory as hostHistoryOf, hostTmux, paneOutputs, rigWithHosts } from '../support/host-rig.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let sshd: TestSshd;
let hostRoot: string;
let app: string;
let folders: ReturnType<typeof hostFolders> | undefined;

beforeAll(async () => {
  sshd = await startTestSshd();
  folders = hostFolders();
  ({ hostRoot, app } = folders);
}, 60_000);

afterAll(async () => {
  await sshd?.cleanup();
  folders?.remove();
});

const hostHistory = () => hostHistoryOf(hostRoot);
const outputs = paneOutputs;

/** A topic placed on gpu1 (in `app`): its chat and root message. */
async function topicOnGpu1(rig: E2eRig): Promise<{ chatId: string; rootId: string }> {
  const { fake } = rig;
  const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu1:${app}`, mentionBot: true });
  await fake.waitFor(() => textsIn(fake, rig.appIds[0]!, open.chatId).some((t) => t.includes(`Folder set to gpu1:${app}.`)), 30_000, 'the placement');
  return { chatId: open.chatId, rootId: open.messageId };
}

const messagesWith = (rig: E2eRig, text: string) => rig.fake.messages.filter((m) => m.appId === rig.appIds[0] && JSON.stringify(m.content).includes(text));
/** How often the daemon tried to reach gpu1 (one log line per attempt, remote-host.ts). */
const attempts = (rig: E2eRig) => rig.logText().split('\n').filter((l) => l.includes('"host":"gpu1"') && l.includes('connecting to the host')).length;
/** Panes on this machine's tmux server (the daemon's own): none may be in the host's folder. */
const localPaneDirs = async (rig: E2eRig) => (await rig.tmux.run(['list-panes', '-a', '-F', '#{pane_current_path}'])).stdout;

describe('prompts waiting for a host', () => {
  const rigs: E2eRig[] = [];
  beforeEach(async () => {
    if (!(await sshdAnswers())) await sshd.start();
  });
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
    hostTmux(hostRoot, ['kill-server']);
  });
  const sshdAnswers = async () => spawnSync('ssh-keyscan', ['-p', String(sshd.port), '127.0.0.1'], { encoding: 'utf8' }).stdout.includes('ssh-');

  it('two messages wait while the host is down, survive `larkmux restart`, and run there once each, in order, when it is back; told once', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot);
    const { fake } = rig;
    const { chatId, rootId } = await topicOnGpu1(rig);
    await sshd.stop();

    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo first-$((6*7))' });
    await fake.waitFor(() => messagesWith(rig, 'host gpu1 unreachable since').length > 0, 60_000, 'the topic told the host is unreachable');
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo "second $(echo 中文)-$((6*7))"' });
    // Both wait on disk beside the session store before the restart.
    const waits = join(rig.home.dir, `sessions-${rig.appIds[0]!}.waits.json`);
    await fake.waitFor(() => {
      try {
        return readFileSync(waits, 'utf8').includes('second') || undefined;
      } catch {
        return undefined;
      }
    }, 30_000, 'the second message on disk');

    const before = attempts(rig);
    expect(messagesWith(rig, 'host gpu1 unreachable since')).toHaveLength(1);
    expect((await runLarkmux(['restart'], rig.home.env, { from: 'built' })).code).toBe(0);
    // The new daemon tries the host again (and again) without telling the topic a second time.
    await fake.waitFor(() => attempts(rig) >= before + 2 || undefined, 60_000, 'two tries after the restart');
    expect(messagesWith(rig, 'host gpu1 unreachable since')).toHaveLength(1);
    expect(hostHistory().some((l) => l.includes('-42'))).toBe(false);
    await sshd.start();
    await fake.waitFor(() => outputs(hostHistory(), /^second 中文-42$/).length > 0 || undefined, 150_000, 'the second message run on gpu1');

    const history = hostHistory();
    expect(outputs(history, /^first-42$/)).toHaveLength(1);
    expect(outputs(history, /^second 中文-42$/)).toHaveLength(1);
    expect(history.findIndex((l) => l.trim() === 'first-42')).toBeLessThan(history.findIndex((l) => l.trim() === 'second 中文-42'));
    // Typed once each (never retyped by a retry or by the restart).
    expect(history.filter((l) => l.includes('echo first-$((6*7))'))).toHaveLength(1);
    expect(history.filter((l) => l.includes('echo "second $(echo 中文)-$((6*7))"'))).toHaveLength(1);
    // The notice was the turn card's (it may show the answer now): no other message ever repeated it.
    expect(messagesWith(rig, 'host gpu1 unreachable since').length).toBeLessThanOrEqual(1);
    expect(await localPaneDirs(rig)).not.toContain(app);
    // Nothing waits any more.
    await fake.waitFor(() => !readFileSync(waits, 'utf8').includes('first') || undefined, 30_000, 'the waits file emptied');
  }, 360_000);

  it('a changed host key: told once with the command that re-pins it, not retried as if unreachable, nothing run; re-pinned, the message runs there once', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot);
    const { fake } = rig;
    const { chatId, rootId } = await topicOnGpu1(rig);
    // A reinstall of the host: a new key behind the same address.
    await sshd.stop();
    sshd.regenerateHostKey();
    await sshd.start();

    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo keyed-$((6*7))' });
    const add = `larkmux hosts add gpu1 ${sshd.target} --port ${sshd.port}`;
    await fake.waitFor(() => messagesWith(rig, 'host gpu1 refused since').length > 0, 60_000, 'the key-changed notice');
    const notice = JSON.stringify(messagesWith(rig, 'host gpu1 refused since')[0]!.content);
    expect(notice).toContain('its host key changed');
    expect(notice).toContain(add);
    expect(messagesWith(rig, 'host gpu1 unreachable since')).toHaveLength(0);

    // 20 s later: still one attempt (an unreachable host is tried about 4 times in that while), nothing ran anywhere.
    await new Promise((r) => setTimeout(r, 20_000));
    expect(attempts(rig)).toBe(1);
    expect(messagesWith(rig, 'host gpu1 refused since')).toHaveLength(1);
    expect(hostHistory().some((l) => l.includes('keyed-'))).toBe(false);
    expect(await localPaneDirs(rig)).not.toContain(app);

    // The admin confirms the new key; the command from the notice re-pins it, and the message runs there, once.
    const fp = spawnSync('ssh-keygen', ['-lf', sshd.hostKeyPub], { encoding: 'utf8' }).stdout.split(' ')[1]!;
    const pinned = await runLarkmux(['hosts', 'add', 'gpu1', sshd.target, '--port', String(sshd.port), '--identity', sshd.clientKey, '--accept', fp], rig.home.env, { from: 'built' });
    expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
    await fake.waitFor(() => outputs(hostHistory(), /^keyed-42$/).length > 0 || undefined, 150_000, 'the message run on gpu1 once re-pinned');
    expect(hostHistory().filter((l) => l.includes('echo keyed-$((6*7))'))).toHaveLength(1);
    expect(messagesWith(rig, 'host gpu1 refused since').length).toBeLessThanOrEqual(1);
  }, 360_000);

  it('a daemon restart keeps the CLI on the host: the next message runs in the same pane (same pid there)', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot);
    const { fake } = rig;
    const { chatId, rootId } = await topicOnGpu1(rig);
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo before-$((6*7)) $$' });
    await fake.waitFor(() => outputs(hostHistory(), /^before-42 \d+$/).length > 0 || undefined, 120_000, 'the first message run on gpu1');
    const panes = () => hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{pane_id} #{pane_pid}']).stdout.split('\n').filter(Boolean);
    const [pane] = panes();
    const shellPid = outputs(hostHistory(), /^before-42 \d+$/)[0]!.split(' ')[1]!;
    expect(pane!.split(' ')[1]).toBe(shellPid);

    expect((await runLarkmux(['restart'], rig.home.env, { from: 'built' })).code).toBe(0);
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo after-$((6*7)) $$' });
    await fake.waitFor(() => outputs(hostHistory(), /^after-42 \d+$/).length > 0 || undefined, 120_000, 'the next message run on gpu1');
    // The same pane and the same shell: re-attached, not relaunched (and nothing on this machine).
    expect(panes()).toEqual([pane]);
    expect(outputs(hostHistory(), /^after-42 \d+$/)).toEqual([`after-42 ${shellPid}`]);
    expect(outputs(hostHistory(), /^before-42 \d+$/)).toHaveLength(1);
    expect(await localPaneDirs(rig)).not.toContain(app);
    await fake.waitFor(() => textsIn(fake, rig.appIds[0]!, chatId).some((t) => t.includes(`after-42 ${shellPid}`)) || undefined, 60_000, 'the answer in the topic');
  }, 360_000);

  it('the host rebooted (its tmux server and the link gone): the next message starts the CLI there again and runs once', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot);
    const { fake } = rig;
    const { chatId, rootId } = await topicOnGpu1(rig);
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo boot1-$((6*7)) $$' });
    await fake.waitFor(() => textsIn(fake, rig.appIds[0]!, chatId).some((t) => /boot1-42 \d+/.test(t)) || undefined, 120_000, 'the first answer from gpu1');
    const firstPid = /boot1-42 (\d+)/.exec(textsIn(fake, rig.appIds[0]!, chatId).find((t) => /boot1-42 \d+/.test(t))!)![1]!;

    // The reboot: every process of larkmux's there (tmux server, CLI, agent and workers) ends, and sshd restarts.
    hostTmux(hostRoot, ['kill-server']);
    await sshd.stop();
    await sshd.start();
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo boot2-$((6*7)) $$' });
    await fake.waitFor(() => textsIn(fake, rig.appIds[0]!, chatId).some((t) => /boot2-42 \d+/.test(t)) || undefined, 150_000, 'the answer after the reboot');
    const secondPid = /boot2-42 (\d+)/.exec(textsIn(fake, rig.appIds[0]!, chatId).find((t) => /boot2-42 \d+/.test(t))!)![1]!;
    expect(secondPid).not.toBe(firstPid);
    // Typed once, in gpu1's new tmux server (its one pane), and nothing of it on this machine.
    const panes = hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{pane_pid}']).stdout.split('\n').filter(Boolean);
    expect(panes).toEqual([secondPid]);
    expect(outputs(hostHistory(), /^boot2-42 \d+$/)).toEqual([`boot2-42 ${secondPid}`]);
    expect(await localPaneDirs(rig)).not.toContain(app);
  }, 360_000);
});
