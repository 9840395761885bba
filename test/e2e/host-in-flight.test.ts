// A prompt in flight when a host's link drops (issue 29 item 6, DESIGN §12): handed to the worker on the host, its
// delivery never reported. Through the real daemon (the build), the fake Feishu and a real sshd on 127.0.0.1 as host
// gpu1, the link cut by closing larkmux's ControlMaster for it (the daemon connects again by itself).
// - The CLI (a shell) is busy, so the second prompt waits in the worker on gpu1, not yet typed, when the link goes.
//   A shell keeps no transcript, so nothing can prove whether it arrived: it is not typed again (never twice), and the
//   topic is told plainly that it may not have arrived and should be sent again; the next prompt runs there as usual.
// The transcript cases (arrived → not retyped, its answer delivered; absent → typed once) are in
// test/integration/in-flight-input.test.ts against real transcript files. Needs `npm run build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMaster, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostFolders, hostHistory as hostHistoryOf, hostTmux, paneOutputs, rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

const rigs: E2eRig[] = [];
/** gpu1: its sshd on 127.0.0.1, larkmux's folder there and the topic's working folder. */
const gpu1 = { folders: hostFolders(), sshd: undefined as TestSshd | undefined };
const { hostRoot, app } = gpu1.folders;

beforeAll(async () => {
  gpu1.sshd = await startTestSshd();
}, 60_000);

afterAll(async () => {
  await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
  hostTmux(hostRoot, ['kill-server']);
  await gpu1.sshd?.cleanup();
  gpu1.folders.remove();
});

const hostHistory = () => hostHistoryOf(hostRoot);
const outputs = paneOutputs;

/** What the workers on gpu1 logged (larkmux's folder there). */
const hostLog = () => {
  try {
    return readFileSync(join(hostRoot, 'logs', 'larkmux.log'), 'utf8').split('\n');
  } catch {
    return [];
  }
};
const received = (turnId: string, inFlight: boolean) => hostLog().filter((l) => l.includes('"input: received"') && l.includes(turnId) && l.includes('inFlightSince') === inFlight);

describe('a prompt in flight when the link to its host drops', () => {
  it('with no transcript to ask: never typed again, the topic told it may not have arrived; the next prompt runs', async () => {
    const sshd = gpu1.sshd!;
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu1:${app}`, mentionBot: true });
    const chatId = open.chatId, rootId = open.messageId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to gpu1:${app}.`)), 30_000, 'the placement');

    // The shell on gpu1 is busy (no prompt on screen): the next prompt waits in the worker there, not typed.
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo started-$((1+1)); sleep 40; echo slept-$((2+3))' });
    await fake.waitFor(() => outputs(hostHistory(), /^started-2$/).length > 0 || undefined, 120_000, 'the first prompt running on gpu1');
    const second = await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo "second $(echo 中文)-$((6*7))"' });
    await fake.waitFor(() => received(second.messageId, false).length > 0 || undefined, 60_000, 'the second prompt handed to the worker on gpu1');
    expect(hostHistory().some((l) => l.includes('second'))).toBe(false);

    // The link goes with the ControlMaster; the daemon connects again and hands the prompt over as in flight.
    const host = { name: 'gpu1', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
    expect(await closeMaster(host, sshPlaces(rig.home.paths), rig.home.env)).toBe(true);
    await fake.waitFor(() => received(second.messageId, true).length > 0 || undefined, 60_000, 'the prompt handed over again as in flight');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('it may not have arrived')) || undefined, 60_000, 'the topic told');

    // The first prompt finishes; the second was never typed (not by the old worker, not by the new one).
    await fake.waitFor(() => outputs(hostHistory(), /^slept-5$/).length > 0 || undefined, 120_000, 'the first prompt done');
    await fake.injectMessage({ chatType: 'group', chatId, rootId, text: 'echo third-$((7*7))' });
    await fake.waitFor(() => outputs(hostHistory(), /^third-49$/).length > 0 || undefined, 120_000, 'the next prompt run on gpu1');
    const history = hostHistory();
    expect(history.filter((l) => l.includes('second'))).toEqual([]);
    expect(outputs(history, /^third-49$/)).toHaveLength(1);
    expect(received(second.messageId, true)).toHaveLength(1);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('third-49')) || undefined, 60_000, 'the answer in the topic');
  }, 360_000);
});
