// A failed session's card (issue 32 item 9): what a person sees in Feishu offers no key row and no terminal link,
// only what still helps there. Real SDK against the fake Feishu.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionCards } from '../../src/daemon/sessions/session-cards.js';
import { createLogger } from '../../src/platform/log.js';
import type { FrameRenderer } from '../../src/platform/render-process.js';
import { translator } from '../../src/shared/i18n.js';
import { CARD_KEY_ROW, keyLabel } from '../../src/shared/keys.js';
import { buttons, cardsFor } from '../support/cards.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { until } from '../support/until.js';

let h: LarkHarness;
let dir: string;
beforeEach(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'lmx-failed-card-'));
});
afterEach(async () => {
  await h.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const noFrames: FrameRenderer = { render: () => Promise.reject(new Error('no screen is drawn in this test')), forget: () => undefined, dispose: () => undefined };

describe('the card of a session whose CLI failed', () => {
  it('shows Close, not the ten keys, the web terminal or the write link', async () => {
    const t = translator('en');
    const p = h.makeAdapter();
    await connectProbe(p);
    const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'hello' });
    const place = { chatId: sent.chatId, chatType: 'p2p' as const };
    const log = createLogger({ file: join(dir, 'test.log') });
    const cards = new SessionCards({ sessionId: 'f'.repeat(32), im: p.adapter, place, title: 'claude · tmp', log, t, frames: noFrames, viewUrl: () => 'http://127.0.0.1:7680/view/x' });
    await cards.startTurn('hello', sent.messageId);
    const [card] = cardsFor(h.fake, TEST_APPS[0]!.appId, sent.messageId);
    expect(card).toBeDefined();
    const keyLabels = CARD_KEY_ROW.map((k) => keyLabel(k, t));
    // While starting, the card offers the keys and the terminal.
    expect(buttons(card!.content)).toEqual(expect.arrayContaining([...keyLabels, t('card.webTerminal')]));

    await cards.setNotice('claude is not installed: npm install -g @anthropic-ai/claude-code');
    await cards.setStatus('failed', 'claude: command not found');
    await cards.settle();
    await until('the card to say failed', () => JSON.stringify(card!.content).includes(t('status.failed')), 15_000);
    const shown = buttons(card!.content);
    expect(shown).toContain(t('card.close'));
    for (const gone of [...keyLabels, t('card.webTerminal'), t('card.writeLink')]) expect(shown).not.toContain(gone);
    cards.dispose();
  });
});
