// A notice set while a turn's card is still being started belongs to that turn: "host b unreachable since hh:mm" (or
// "waiting for a free slot") comes within milliseconds of the message when the host is down, while the new card waits
// for the card before it to be frozen on Feishu. The start used to wipe it: the topic was never told (bench remote
// found it after its card pacing run, when freezing the previous card took a while). Real SDK against the fake Feishu.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionCards } from '../../src/daemon/sessions/session-cards.js';
import type { ImAdapter } from '../../src/daemon/im/types.js';
import { createLogger } from '../../src/platform/log.js';
import { translator } from '../../src/shared/i18n.js';
import { cardsFor, markdownText } from '../support/cards.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';

let h: LarkHarness;
let dir: string;
beforeEach(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lmx-notice-race-'));
});
afterEach(async () => {
  await h.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** The adapter, with card updates held until `release` (the freeze of the card before, slow on Feishu). */
function holdingUpdates(adapter: ImAdapter): { im: ImAdapter; hold: () => void; release: () => void } {
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  const im = new Proxy(adapter, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === 'updateCard') {
        return async (...args: Parameters<ImAdapter['updateCard']>) => {
          if (gate) await gate;
          return target.updateCard(...args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { im, hold: () => (gate = new Promise<void>((r) => (open = r))), release: () => { gate = null; open(); } };
}

describe('a notice set while the turn card is being started', () => {
  it('shows on the new turn card, not lost and not on the card before', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const appId = TEST_APPS[0]!.appId;
    const first = await h.fake.injectMessage({ chatType: 'p2p', text: 'first' });
    const place = { chatId: first.chatId, chatType: 'p2p' as const };
    const frames = testFrames(dir);
    try {
      const held = holdingUpdates(p.adapter);
      const cards = new SessionCards({ sessionId: randomUUID().replaceAll('-', ''), im: held.im, place, title: 'shell · b:w', log: createLogger({ file: join(dir, 't.log') }), t: translator('en'), frames });
      await cards.startTurn('first', first.messageId);

      const second = await h.fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: 'second' });
      held.hold();
      const started = cards.startTurn('second', second.messageId);
      const told = cards.setNotice('host b unreachable since 04:01, retrying');
      held.release();
      await Promise.all([started, told]);

      const [before] = cardsFor(h.fake, appId, first.messageId);
      const [turn] = cardsFor(h.fake, appId, second.messageId);
      expect(turn).toBeDefined();
      expect(markdownText(turn!.content)).toContain('host b unreachable since 04:01, retrying');
      expect(markdownText(before!.content)).not.toContain('unreachable');
    } finally {
      frames.dispose();
    }
  });
});
