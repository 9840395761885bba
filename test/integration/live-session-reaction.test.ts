// Issue 12 (6): the "delivered" reaction reaches the user's message whatever order the worker's reports arrive in;
// and a failed delivery is explained on the card in the bot's language (the worker sends a failure code).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERED_REACTION, LiveSession } from '../../src/daemon/sessions/live-session.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { SessionCards } from '../../src/daemon/sessions/session-cards.js';
import { createLogger } from '../../src/platform/log.js';
import { translator, type Locale } from '../../src/shared/i18n.js';
import { failure, failureText } from '../../src/shared/failure.js';
import { cardsFor, markdownText } from '../support/cards.js';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';

let h: LarkHarness;
let logDir: string;
beforeEach(async () => { h = await startHarness(); logDir = mkdtempSync(join(tmpdir(), 'lmx-live-')); });
afterEach(async () => { await h.cleanup(); rmSync(logDir, { recursive: true, force: true }); });

async function session(locale: Locale = 'en'): Promise<{ live: LiveSession; turnId: string; messageId: string; chatId: string }> {
  const p = h.makeAdapter();
  await connectProbe(p);
  const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'a fast question' });
  const place = { chatId: sent.chatId, chatType: 'p2p' as const };
  const core = newSessionCore({ appId: TEST_APPS[0]!.appId, anchorId: sent.chatId, scope: 'chat', chatId: sent.chatId, chatType: 'p2p', cli: 'shell', cwd: '/tmp', ownerId: 'ou_x', now: Date.now() });
  const log = createLogger({ file: join(logDir, 'test.log') });
  const cards = new SessionCards({ sessionId: core.id, im: p.adapter, place, title: 'shell · tmp', log, t: translator(locale), frames: testFrames(logDir) });
  const live = new LiveSession(core, cards, p.adapter, { update: () => undefined }, log, translator(locale));
  await live.beginTurn({ turnId: sent.messageId, messageId: sent.messageId, requester: { userId: 'ou_x' } }, 'a fast question');
  return { live, turnId: sent.messageId, messageId: sent.messageId, chatId: sent.chatId };
}

describe('delivered reaction and the final answer, in either order', () => {
  const orders: [string, WorkerToDaemon['type'][]][] = [
    ['delivery report first', ['input_delivered', 'final_output']],
    ['final answer first (a fast turn overtakes the delivery report)', ['final_output', 'input_delivered']],
  ];
  it.each(orders)('%s: one reaction, one answer', async (_name, order) => {
    const { live, turnId, messageId } = await session();
    for (const type of order) {
      const msg: WorkerToDaemon = type === 'final_output' ? { type, turnId, text: 'FAKE-REPLY: fast' } : { type: 'input_delivered', turnId, evidence: 'transcript', enterRetries: 0 };
      await live.handle(msg);
    }
    await h.fake.waitFor(() => h.fake.reactions.some((r) => r.messageId === messageId), 10_000, 'delivered reaction');
    expect(h.fake.reactions.filter((r) => r.messageId === messageId)).toEqual([expect.objectContaining({ emoji: DELIVERED_REACTION })]);
    // A second report of the same delivery does not react twice.
    await live.handle({ type: 'input_delivered', turnId, evidence: 'transcript', enterRetries: 0 });
    expect(h.fake.reactions.filter((r) => r.messageId === messageId)).toHaveLength(1);
  });

  it('its worker gone before the report (a host\'s link dropped), the next worker proves it delivered: one reaction', async () => {
    const { live, turnId, messageId } = await session();
    live.workerGone();
    await live.handle({ type: 'input_delivered', turnId, evidence: 'transcript', enterRetries: 0 });
    await h.fake.waitFor(() => h.fake.reactions.some((r) => r.messageId === messageId), 10_000, 'delivered reaction');
    await live.handle({ type: 'input_delivered', turnId, evidence: 'transcript', enterRetries: 0 });
    await live.handle({ type: 'final_output', turnId, text: 'FAKE-REPLY: fast' });
    expect(h.fake.reactions.filter((r) => r.messageId === messageId)).toHaveLength(1);
  });

  it('a failed delivery gets no reaction', async () => {
    const { live, turnId, messageId } = await session();
    await live.handle({ type: 'input_failed', turnId, reason: 'the text is still in the input box' });
    await live.handle({ type: 'final_output', turnId, text: 'late' });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.fake.reactions.filter((r) => r.messageId === messageId)).toEqual([]);
  });
});

describe('a failed delivery is explained in the bot\'s language', () => {
  it.each([
    ['zh-CN', '输入框前出现了一个对话框', 'a dialog is showing'],
    ['en', 'a dialog is showing instead of the input box', '对话框'],
  ] as const)('%s card', async (locale, want, notWant) => {
    const { live, turnId, messageId } = await session(locale);
    const why = failure('dialog_showing', 'Do you trust the files in this folder?');
    await live.handle({ type: 'input_failed', turnId, reason: failureText('en', why), failure: why });
    const card = () => cardsFor(h.fake, TEST_APPS[0]!.appId, messageId)[0];
    const text = () => (card() ? markdownText(card()!.content) : '');
    await h.fake.waitFor(() => text().includes(want), 10_000, 'the failure on the card');
    expect(text()).toContain('Do you trust the files in this folder?');
    expect(text()).not.toContain(notWant);
  });

  it('a worker without failure codes (older build) still shows its English reason', async () => {
    const { live, turnId, messageId } = await session('zh-CN');
    await live.handle({ type: 'input_failed', turnId, reason: 'some reason from an older worker' });
    const text = () => { const c = cardsFor(h.fake, TEST_APPS[0]!.appId, messageId)[0]; return c ? markdownText(c.content) : ''; };
    await h.fake.waitFor(() => text().includes('some reason from an older worker'), 10_000, 'reason on the card');
    expect(text()).toContain('你的消息没有送达 CLI');
  });
});
