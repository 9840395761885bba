// The daemon draws every session's screenshots in one render process (issue 14): two topics showing screenshots get
// their images, and the host runs one render process — the daemon's child — not one per worker.
import { afterEach, describe, expect, it } from 'vitest';
import { readPid } from '../../src/platform/pid-lock.js';
import { cardsFor, imageKey, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { renderChildren, workerChildren } from '../support/host-sampler.js';

describe.runIf(process.platform === 'linux')('one render process for every session', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('two topics get their screenshots from the daemon\'s one render process; no worker starts its own', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const a = await fake.injectMessage({ chatType: 'p2p', text: 'echo first-$((20+1))' });
    const b = await fake.injectMessage({ chatType: 'p2p', text: 'echo second-$((20+2))' });
    await fake.waitFor(() => textsIn(fake, appId, a.chatId).some((t) => t.includes('first-21')), 30_000, 'first answer');
    await fake.waitFor(() => textsIn(fake, appId, b.chatId).some((t) => t.includes('second-22')), 30_000, 'second answer');
    for (const m of [a, b]) {
      const [card] = cardsFor(fake, appId, m.messageId);
      await fake.waitFor(() => imageKey(card!.content) !== undefined, 15_000, 'screenshot in card');
      const upload = fake.uploads.find((u) => u.imageKey === imageKey(card!.content));
      expect(upload?.bytes.subarray(0, 4).toString('hex')).toBe('89504e47');
    }
    const daemon = readPid(rig.home.paths.pidFile)!;
    const workers = await workerChildren(daemon);
    expect(workers).toHaveLength(2);
    // The render process ends a minute after the last frame: it still runs here.
    expect(await renderChildren(daemon)).toHaveLength(1);
    for (const w of workers) expect(await renderChildren(w)).toEqual([]);
  });
});
