// Issue 32 item 7, through the real daemon: a shell session running a full-screen program (less) when the daemon
// restarts is ready for keys at once. The next message is typed into that program as the person would (`q` quits
// less), the card does not stay "Starting", and the message after it runs in bash. Before the fix the take-over's
// readiness gate waited for a bash prompt that less hid, until its timeout (READINESS_TIMING.timeoutMs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READINESS_TIMING } from '../../src/worker/lifecycle/readiness.js';
import { cardsFor, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { until } from '../support/until.js';

/**
 * How long the keys may take to reach less after the message arrives: well under the gate's timeout, so a gate that
 * waits for a prompt cannot pass, and generous for a loaded machine (a take-over is a worker start and one send).
 */
const REACHES_LESS_WITHIN_MS = READINESS_TIMING.timeoutMs / 2;

describe('a full-screen program in a re-attached shell session', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  async function foreground(r: E2eRig, tmuxName: string): Promise<string> {
    const res = await r.tmux.run(['list-panes', '-t', `=${tmuxName}:`, '-F', '#{alternate_on} #{pane_current_command}']);
    return res.stdout.trim();
  }

  it('less running at a larkmux restart: the next message quits it at once, the card leaves "Starting", bash runs the one after', async () => {
    rig = await startRig();
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    const first = await r.fake.injectMessage({ chatType: 'p2p', text: 'echo up-$((1+1))' });
    const chatId = first.chatId;
    await r.fake.waitFor(() => textsIn(r.fake, appId, chatId).some((t) => t.includes('up-2')), 60_000, 'the first answer');
    const tmuxName = (await r.status()).sessions[0].tmuxName as string;

    const file = join(r.home.dir, 'pages.txt');
    writeFileSync(file, Array.from({ length: 300 }, (_, i) => `page line ${i}`).join('\n') + '\n');
    await r.fake.injectMessage({ chatType: 'p2p', chatId, text: `less ${file}` });
    await until('less on the alternate screen', async () => (await foreground(r, tmuxName)) === '1 less', 60_000);

    expect((await runLarkmux(['restart'], r.home.env)).code).toBe(0);
    await r.fake.waitFor(() => r.fake.connectionCount(appId) > 0, 15_000, 'reconnected');
    expect(await foreground(r, tmuxName)).toBe('1 less');

    const quit = await r.fake.injectMessage({ chatType: 'p2p', chatId, text: 'q' });
    await until('the q reaching less', async () => (await foreground(r, tmuxName)).startsWith('0 '), REACHES_LESS_WITHIN_MS);
    expect(await foreground(r, tmuxName)).toBe('0 bash');
    // The card of that message moves on from "Starting" (working, then done by the pane's output).
    await r.fake.waitFor(() => {
      const card = cardsFor(r.fake, appId, quit.messageId)[0];
      return !!card && !JSON.stringify(card.content).includes('Starting');
    }, REACHES_LESS_WITHIN_MS, 'the card past "Starting"');

    const after = await r.fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo after-$((2+3))' });
    await r.fake.waitFor(() => textsIn(r.fake, appId, chatId).some((t) => t.includes('after-5')), 60_000, 'bash answering after less');
    expect(cardsFor(r.fake, appId, after.messageId)).toHaveLength(1);
    const log = r.logText();
    expect(log).toContain('"readiness gate: not needed"');
    expect(log).not.toMatch(/"outcome":"timeout"/);
  }, 240_000);
});
