// A session on a host whose worker was detached for being idle (idleDetachMinutes), then its host goes down: the next
// message must wait with the "host X unreachable since hh:mm, retrying" notice exactly as for a session whose worker
// was live when the link dropped, and run there once when the host is back. (bench remote found this: after its idle
// window the session's worker had been detached and the notice never came.)
// Real daemon (the build), fake Feishu, a real sshd on 127.0.0.1 as host gpu1, shell CLI. Needs `npm run build`.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostTmux, rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let sshd: TestSshd;
let hostRoot: string;
let srv: string;

beforeAll(async () => {
  sshd = await startTestSshd();
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-idle-b-')));
  srv = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-idle-srv-')));
}, 60_000);

afterAll(async () => {
  await sshd?.cleanup();
  for (const d of [hostRoot, srv]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('a detached session on a host that goes down', () => {
  const rigs: E2eRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
    hostTmux(hostRoot, ['kill-server']);
  });

  it('the next message waits with the unreachable notice and runs on the host once when it is back', async () => {
    // 0.05 min = 3 s: the worker is detached soon after its first answer.
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot, { botOverrides: { host: 'gpu1', workingDir: srv, idleDetachMinutes: 0.05 } });
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const { chatId } = await fake.injectMessage({ chatType: 'p2p', appId, text: 'echo first-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('first-42')), 120_000, 'the first answer from gpu1');
    await fake.waitFor(() => rig.logText().includes('idle: detached the worker'), 60_000, 'the idle worker detached');

    await sshd.stop();
    await fake.injectMessage({ chatType: 'p2p', appId, chatId, text: 'echo second-$((6*7))' });
    const told = () => fake.messages.filter((m) => m.appId === appId && JSON.stringify(m.content).includes('host gpu1 unreachable since'));
    await fake.waitFor(() => told().length > 0, 60_000, 'the topic told the host is unreachable');
    expect(textsIn(fake, appId, chatId).some((t) => t.includes('second-42'))).toBe(false);

    await sshd.start();
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('second-42')), 150_000, 'the answer once gpu1 is back');
    const panes = hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{pane_id}']).stdout.split('\n').filter(Boolean);
    const typed = panes.flatMap((p) => hostTmux(hostRoot, ['capture-pane', '-p', '-J', '-S', '-', '-t', p]).stdout.split('\n')).filter((l) => l.includes('echo second-'));
    expect(typed).toHaveLength(1);
    expect(told()).toHaveLength(1);
  }, 360_000);
});
