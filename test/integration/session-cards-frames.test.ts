// A frame takes one trip (issue 28 item 3): the worker sends screens, the daemon draws them where the card is, and the
// card's pacing decides what is drawn and uploaded. Real render process, real SDK against the fake Feishu.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveSession } from '../../src/daemon/sessions/live-session.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { CARD_PACING, SessionCards } from '../../src/daemon/sessions/session-cards.js';
import { createLogger } from '../../src/platform/log.js';
import type { FrameRenderer } from '../../src/platform/render-process.js';
import { translator } from '../../src/shared/i18n.js';
import type { CapturedScreen } from '../../src/shared/render-protocol.js';
import { cardsFor, imageKey } from '../support/cards.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';
import { until } from '../support/until.js';
import { pngPixels } from '../support/png-scanlines.js';

let h: LarkHarness;
let dir: string;
let frames: FrameRenderer;
beforeEach(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lmx-frames-'));
  frames = testFrames(dir);
});
afterEach(async () => {
  frames.dispose();
  await h.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const screen = (n: number): CapturedScreen => ({ ansi: `$ echo frame-${n}\n\u001b[32mframe-${n} 第${n}帧\u001b[0m\n$ `, cursor: { x: 2, y: 2, visible: true }, cols: 120, rows: 40 });

describe('screens from a worker become card pictures in the daemon', () => {
  it('a burst of screens: the first is shown at once, the last one after the pace, none in between is drawn', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'print frames' });
    const place = { chatId: sent.chatId, chatType: 'p2p' as const };
    const core = newSessionCore({ appId: TEST_APPS[0]!.appId, anchorId: sent.chatId, scope: 'chat', chatId: sent.chatId, chatType: 'p2p', cli: 'shell', cwd: '/tmp', ownerId: 'ou_x', now: Date.now() });
    const log = createLogger({ file: join(dir, 'test.log') });
    const drawnTexts: string[] = [];
    const counting: FrameRenderer = {
      render: (s, kind, stream) => {
        drawnTexts.push(s.ansi);
        return frames.render(s, kind, stream);
      },
      forget: (stream) => frames.forget(stream),
      dispose: () => undefined,
    };
    const cards = new SessionCards({ sessionId: core.id, im: p.adapter, place, title: 'shell · tmp', log, t: translator('en'), frames: counting });
    const live = new LiveSession(core, cards, p.adapter, { update: () => undefined }, log, translator('en'));
    await live.beginTurn({ turnId: sent.messageId, messageId: sent.messageId, requester: { userId: 'ou_x' } }, 'print frames');
    const [card] = cardsFor(h.fake, TEST_APPS[0]!.appId, sent.messageId);
    expect(card).toBeDefined();

    const burst = 10;
    await live.handle({ type: 'screen', screen: screen(1), hash: '00000001' });
    // The first screen goes on the card at once.
    await until('the first picture', () => h.fake.uploads.length >= 1, 60_000);
    // The rest come faster than the card's pace: only the newest is drawn, once the pace allows.
    for (let n = 2; n <= burst; n++) await live.handle({ type: 'screen', screen: screen(n), hash: `0000000${n}`.slice(-8) });
    await until('the second picture', () => h.fake.uploads.length >= 2, 60_000);
    await new Promise((r) => setTimeout(r, CARD_PACING.screenshotIntervalMs + 500));
    expect(drawnTexts.map((t) => /frame-(\d+)/.exec(t)?.[1])).toEqual(['1', String(burst)]);
    expect(h.fake.uploads).toHaveLength(2);

    // The card shows the newest screen, drawn from the screen text the worker sent (no picture crossed from it).
    const expected = await frames.render(screen(burst), 'card');
    expect(expected.ok).toBe(true);
    const last = h.fake.uploads[h.fake.uploads.length - 1]!;
    // The card's frames are encoded in bands under the session's stream, so the bytes differ from a lone encode's;
    // the pixels may not.
    const shown = pngPixels(last.bytes);
    const alone = pngPixels(expected.ok ? expected.png : Buffer.alloc(0));
    expect([shown.width, shown.height]).toEqual([alone.width, alone.height]);
    expect(shown.rgba.equals(alone.rgba)).toBe(true);
    await until('the card to show the newest picture', () => imageKey(card!.content) === last.imageKey, 15_000);
    live.dispose();
  });
});
