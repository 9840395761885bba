// Issue 12 (6): the "delivered" reaction reaches the user's message whatever order the worker's reports arrive in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERED_REACTION, LiveSession } from '../../src/daemon/live-session.js';
import { newSessionCore } from '../../src/daemon/session-core.js';
import { SessionCards } from '../../src/daemon/session-cards.js';
import { createLogger } from '../../src/shared/log.js';
import { translator } from '../../src/shared/i18n.js';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';

let h: LarkHarness;
let logDir: string;
beforeEach(async () => { h = await startHarness(); logDir = mkdtempSync(join(tmpdir(), 'lmx-live-')); });
afterEach(async () => { await h.cleanup(); rmSync(logDir, { recursive: true, force: true }); });

async function session(): Promise<{ live: LiveSession; turnId: string; messageId: string }> {
  const p = h.makeAdapter();
  await connectProbe(p);
  const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'a fast question' });
  const place = { chatId: sent.chatId, chatType: 'p2p' as const };
  const core = newSessionCore({ appId: TEST_APPS[0]!.appId, anchorId: sent.chatId, scope: 'chat', chatId: sent.chatId, chatType: 'p2p', cli: 'shell', cwd: '/tmp', ownerId: 'ou_x', now: Date.now() });
  const log = createLogger({ file: join(logDir, 'test.log') });
  const cards = new SessionCards({ sessionId: core.id, im: p.adapter, place, title: 'shell · tmp', log, t: translator('en') });
  const live = new LiveSession(core, cards, p.adapter, { update: () => undefined }, log, translator('en'));
  await live.beginTurn({ turnId: sent.messageId, messageId: sent.messageId, requester: { userId: 'ou_x' } }, 'a fast question');
  return { live, turnId: sent.messageId, messageId: sent.messageId };
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

  it('a failed delivery gets no reaction', async () => {
    const { live, turnId, messageId } = await session();
    await live.handle({ type: 'input_failed', turnId, reason: 'the text is still in the input box' });
    await live.handle({ type: 'final_output', turnId, text: 'late' });
    await new Promise((r) => setTimeout(r, 300));
    expect(h.fake.reactions.filter((r) => r.messageId === messageId)).toEqual([]);
  });
});
