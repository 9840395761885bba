// Issue 31 item 16, through the real daemon: a new shell session is typed into at its first prompt (no "ready screen
// stable" settle: a shell puts up no dialog after its prompt), while a CLI that can show a late start-up dialog keeps
// it. What the gate decided is read from the daemon's log, never from timing (`npm run bench -- latency first-output`
// measures the time).
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

/** The settles the readiness gate opened with, in order (worker log lines "readiness gate: open"). */
function gateSettles(rig: E2eRig): number[] {
  return rig.logText().split('\n').filter((l) => l.includes('"readiness gate: open"')).map((l) => (JSON.parse(l) as { readySettleMs: number }).readySettleMs);
}

describe('the readiness settle at a cold start', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('a new shell session opens its gate with no settle and answers the first message', async () => {
    rig = await startRig();
    await rig.start();
    const appId = rig.appIds[0]!;
    const msg = await rig.fake.injectMessage({ chatType: 'p2p', text: 'echo cold-$((20+22))' });
    await rig.fake.waitFor(() => textsIn(rig!.fake, appId, msg.chatId).some((t) => t.includes('cold-42')), 60_000, 'the first answer');
    expect(gateSettles(rig)).toEqual([0]);
  });

  it('a custom CLI, which may show a late dialog, keeps the settle', async () => {
    rig = await startRig({ botOverrides: { cli: { command: 'python3', args: ['-q', '-i'], readyPattern: '^>>> ?$' } } });
    await rig.start();
    const appId = rig.appIds[0]!;
    const msg = await rig.fake.injectMessage({ chatType: 'p2p', text: 'print(6*7)' });
    await rig.fake.waitFor(() => textsIn(rig!.fake, appId, msg.chatId).some((t) => t.includes('42')), 60_000, 'the first answer');
    const settles = gateSettles(rig);
    expect(settles.length).toBeGreaterThan(0);
    expect(settles[0]).toBeGreaterThan(0);
  });
});
