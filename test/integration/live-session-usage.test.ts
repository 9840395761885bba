// A final answer's usage (issue 30 item 2): the session reports the turn for the ledger (who asked, when it began, what
// the transcript said) and puts model · context · tokens · elapsed at the foot of the turn card, through the real Lark
// adapter and the fake Feishu. A turn larkmux did not start (typed in the pane) is reported without a person.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LiveSession, type LiveSessionHooks } from '../../src/daemon/sessions/live-session.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { SessionCards } from '../../src/daemon/sessions/session-cards.js';
import { createLogger } from '../../src/platform/log.js';
import { translator } from '../../src/shared/i18n.js';
import type { TurnUsage } from '../../src/shared/usage.js';
import { cardsFor, decodeEntities, markdownText } from '../support/cards.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';

let h: LarkHarness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const USAGE: TurnUsage = { model: 'claude-opus-5-5', inputTokens: 31, outputTokens: 7, cacheReadTokens: 4, cacheWriteTokens: 0, contextTokens: 35, elapsedMs: 2500 };

it('the turn is reported with its requester and usage, and its card ends with the figures; a pane-typed turn has no person', async () => {
  const probe = h.makeAdapter();
  await connectProbe(probe);
  const asked = await h.fake.injectMessage({ chatType: 'p2p', text: 'how much?' });
  const ended: Parameters<NonNullable<LiveSessionHooks['onTurnEnd']>>[0][] = [];
  const log = createLogger({ level: 'silent' });
  const core = newSessionCore({ appId: TEST_APPS[0]!.appId, anchorId: asked.chatId, scope: 'chat', chatId: asked.chatId, chatType: 'p2p', cli: 'claude-code', cwd: '/tmp', ownerId: 'ou_x', now: Date.now() });
  const cards = new SessionCards({ sessionId: core.id, im: probe.adapter, place: { chatId: asked.chatId, chatType: 'p2p' }, title: 'claude · tmp', log, t: translator('en'), frames: testFrames(h.home) });
  const live = new LiveSession(core, cards, probe.adapter, { update: () => undefined, onTurnEnd: (turn) => ended.push(turn) }, log, translator('en'));

  const before = Date.now();
  await live.beginTurn({ turnId: asked.messageId, messageId: asked.messageId, requester: { userId: 'ou_asker' } }, 'how much?');
  await live.handle({ type: 'final_output', turnId: asked.messageId, text: 'FAKE-REPLY: a lot', usage: USAGE });
  await live.handle({ type: 'final_output', text: 'typed in the pane' });
  await cards.settle();

  expect(ended).toEqual([{ userId: 'ou_asker', startedAt: expect.any(Number), usage: USAGE }, {}]);
  expect(ended[0]!.startedAt).toBeGreaterThanOrEqual(before);
  const card = cardsFor(h.fake, TEST_APPS[0]!.appId, asked.messageId)[0]!;
  expect(decodeEntities(markdownText(card.content))).toContain('claude-opus-5-5 · context 35 · 42 tokens · 2.5s');
});
