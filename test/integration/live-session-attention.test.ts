// Issue 16: what a session's reports do to the person who asked — failed deliveries, crashes, long and short turns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionKeeper } from '../../src/daemon/sessions/attention-keeper.js';
import { LiveSession } from '../../src/daemon/sessions/live-session.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { SessionCards } from '../../src/daemon/sessions/session-cards.js';
import { BotConfigSchema } from '../../src/shared/config.js';
import { createLogger } from '../../src/platform/log.js';
import { translator } from '../../src/shared/i18n.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';

let h: LarkHarness;
let logDir: string;
beforeEach(async () => { h = await startHarness(); logDir = mkdtempSync(join(tmpdir(), 'lmx-live-')); });
afterEach(async () => { await h.cleanup(); rmSync(logDir, { recursive: true, force: true }); });

const REQUESTER = 'ou_requester0000000000000000000001';

async function session(attention: Record<string, unknown> = {}): Promise<{ live: LiveSession; keeper: AttentionKeeper; turnId: string; chatId: string }> {
  const p = h.makeAdapter();
  await connectProbe(p);
  const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'do the thing', senderOpenId: REQUESTER });
  const place = { chatId: sent.chatId, chatType: 'p2p' as const };
  const core = newSessionCore({ appId: TEST_APPS[0]!.appId, anchorId: sent.chatId, scope: 'chat', chatId: sent.chatId, chatType: 'p2p', cli: 'shell', cwd: '/tmp', ownerId: REQUESTER, now: Date.now() });
  const log = createLogger({ file: join(logDir, 'test.log') });
  const t = translator('en');
  const cards = new SessionCards({ sessionId: core.id, im: p.adapter, place, title: 'shell · tmp', log, t, frames: testFrames(logDir) });
  const keeper = new AttentionKeeper({ im: p.adapter, place, config: BotConfigSchema.shape.attention.parse(attention), log, t });
  const live = new LiveSession(core, cards, p.adapter, { update: () => undefined, attention: keeper }, log, t);
  await live.beginTurn({ turnId: sent.messageId, messageId: sent.messageId, requester: { userId: REQUESTER } }, 'do the thing');
  return { live, keeper, turnId: sent.messageId, chatId: sent.chatId };
}

const mentionTexts = () => h.fake.messages.filter((m) => m.msgType === 'text').map((m) => String((m.content as { text: string }).text)).filter((t) => t.includes('<at '));

describe('attention from a session', () => {
  it('a failed delivery mentions the requester with the reason and pins until their next message', async () => {
    const { live, keeper, turnId } = await session();
    await live.handle({ type: 'input_failed', turnId, reason: 'the text is still in the input box' });
    await keeper.settle();
    expect(mentionTexts()).toEqual([`<at user_id="${REQUESTER}"></at> Your message did not reach the CLI: the text is still in the input box`]);
    expect(h.fake.feedCards.map((c) => c.timeSensitive)).toEqual([true]);
    await live.beginTurn({ turnId: 't2', messageId: 't2', requester: { userId: REQUESTER } }, 'again');
    await keeper.settle();
    expect(h.fake.feedCards.map((c) => c.timeSensitive)).toEqual([true, false]);
    live.dispose();
  });

  it('a CLI gone mid-turn is a crash: the requester is told; after /close it is not', async () => {
    const crashed = await session();
    await crashed.live.handle({ type: 'cli_exit', code: 1, logTail: 'Segmentation fault' });
    await crashed.keeper.settle();
    expect(mentionTexts()).toEqual([`<at user_id="${REQUESTER}"></at> The CLI stopped. Send a message to start it again.`]);
    crashed.live.dispose();

    const closed = await session();
    closed.live.markClosing();
    await closed.live.handle({ type: 'cli_exit', code: null, logTail: '' });
    await closed.keeper.settle();
    expect(mentionTexts()).toHaveLength(1);
    closed.live.dispose();
  });

  it('a turn longer than notifyAfterSeconds ends with a mention of its requester; a shorter one ends quietly', async () => {
    const quiet = await session();
    await quiet.live.handle({ type: 'final_output', turnId: quiet.turnId, text: 'FAKE-REPLY: quick' });
    expect(mentionTexts()).toEqual([]);
    quiet.live.dispose();

    const noticed = await session({ notifyAfterSeconds: 0 });
    await new Promise((r) => setTimeout(r, 20));
    await noticed.live.handle({ type: 'final_output', turnId: noticed.turnId, text: 'FAKE-REPLY: slow' });
    expect(mentionTexts()).toEqual([`<at user_id="${REQUESTER}"></at> Done after 1 min.`]);
    expect(h.fake.feedCards).toEqual([]);
    noticed.live.dispose();
  });
});
