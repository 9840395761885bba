// Attention through the real SDK against the fake platform (issue 16): typed answers, pin/unpin, buzz, missing scopes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionKeeper } from '../../src/daemon/sessions/attention-keeper.js';
import type { InboundCardAction } from '../../src/daemon/im/types.js';
import type { ChatPlace } from '../../src/daemon/ground/anchor.js';
import { BotConfigSchema } from '../../src/shared/config.js';
import { t } from '../../src/shared/i18n.js';
import { createLogger } from '../../src/platform/log.js';
import type { SelectionCard } from '../../src/shared/card-model.js';
import { connectProbe, startHarness, type LarkHarness } from '../support/fake-feishu/harness.js';

let h: LarkHarness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.cleanup(); });

/** Text a person might type that must stay text: shell, tmux key names, quotes, tags, CJK, emoji, a newline. */
const HOSTILE = `$(touch /tmp/pwned) \`id\` C-c Enter "quoted" 'single' <at user_id="all"></at> 中文回答 🎉\nsecond line; rm -rf ~`;

const question: SelectionCard = {
  kind: 'selection', sessionId: 's1', promptId: 'p1', title: 'Which colour?',
  options: [{ label: '1. Red' }, { label: '2. Blue' }, { label: '3. Type something.' }], defaultIndex: 0, textOption: 2,
  attention: { mention: 'ou_requester1', summary: 'Which colour?' },
};

async function p2p(): Promise<{ place: ChatPlace; userMsg: string }> {
  const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'go' });
  return { place: { chatId: sent.chatId, chatType: 'p2p' }, userMsg: sent.messageId };
}

const keeperConfig = (over: Partial<ReturnType<typeof BotConfigSchema.shape.attention.parse>> = {}) => ({ ...BotConfigSchema.shape.attention.parse(undefined), ...over });

describe('attention on Feishu', () => {
  it("a typed answer submitted in the card's form arrives exactly as typed, bound to the option that takes it", async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await p2p();
    const sent = await p.adapter.sendCard(place, question, userMsg);
    if (!sent.ok) throw new Error(sent.message);
    const submit = await h.fake.submitForm(sent.value.messageId, HOSTILE, 'ou_requester1');
    expect(submit.ack).not.toBeNull();
    const ev = p.events.find((e): e is InboundCardAction => e.kind === 'card_action')!;
    expect(ev.value).toEqual({ action: 'select', sessionId: 's1', promptId: 'p1', optionIndex: 2 });
    expect(ev.typedText).toBe(HOSTILE);
    expect(ev.operatorId).toBe('ou_requester1');
  });

  it('pins the private chat for one person and unpins it; a group uses its chat id as the feed card', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place } = await p2p();
    expect((await p.adapter.pinChat(place, 'ou_requester1', true)).ok).toBe(true);
    expect((await p.adapter.pinChat(place, 'ou_requester1', false)).ok).toBe(true);
    const group: ChatPlace = { chatId: 'oc_0123456789abcdef0123456789abcdef', chatType: 'group', rootId: 'om_root' };
    expect((await p.adapter.pinChat(group, 'ou_requester1', true)).ok).toBe(true);
    expect(h.fake.feedCards.map(({ feedCardId, timeSensitive, userIds }) => ({ feedCardId, timeSensitive, userIds }))).toEqual([
      { feedCardId: 'bot_time_sentive', timeSensitive: true, userIds: ['ou_requester1'] },
      { feedCardId: 'bot_time_sentive', timeSensitive: false, userIds: ['ou_requester1'] },
      { feedCardId: group.chatId, timeSensitive: true, userIds: ['ou_requester1'] },
    ]);
  });

  it('without the scope, pinning is refused once, logged once, and never asked again for that bot', async () => {
    h.fake.missingScopes.add('feed_card');
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place } = await p2p();
    const first = await p.adapter.pinChat(place, 'ou_requester1', true);
    const second = await p.adapter.pinChat(place, 'ou_requester1', false);
    expect(first).toMatchObject({ ok: false, code: 'disabled' });
    expect(second).toMatchObject({ ok: false, code: 'disabled' });
    expect(h.fake.calls.filter((c) => c.endpoint === 'feed_card').map((c) => c.code)).toEqual([99991672]);
    expect(h.logText().split('\n').filter((l) => l.includes('turned off for this bot')).length).toBe(1);
  });

  it('a wait pins, buzzes its requester on a short text after buzzAfterMinutes, and unpins when it ends; an ended wait never buzzes', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place } = await p2p();
    const log = createLogger({ file: h.logFile, level: 'info', name: 'attention-test' });
    // 0.002 min = 120 ms.
    const keeper = new AttentionKeeper({ im: p.adapter, place, config: keeperConfig({ buzzAfterMinutes: 0.002 }), log, t: (k, params) => t('en', k, params) });
    const attention = keeper.waitStarted('p1', 'permission', 'Do you want to proceed? <at user_id="all"></at>', 'ou_requester1');
    expect(attention).toEqual({ mention: 'ou_requester1', summary: 'Do you want to proceed? <at user_id="all"></at>' });
    const buzz = await h.fake.waitFor(() => h.fake.urgents[0], 20_000, 'buzz');
    expect(buzz.userIds).toEqual(['ou_requester1']);
    const text = String((h.fake.message(buzz.messageId)!.content as { text: string }).text);
    // One real mention, of the requester; the question's own tag is broken so it pings nobody.
    expect(text.match(/<at user_id="[^"]*"><\/at>/g)).toEqual(['<at user_id="ou_requester1"></at>']);
    expect(text).toContain('Do you want to proceed?');
    keeper.waitEnded('p1', 'answered');
    await keeper.settle();
    expect(h.fake.feedCards.map((c) => c.timeSensitive)).toEqual([true, false]);

    keeper.waitStarted('p2', 'selection', 'Pick one', 'ou_requester1');
    keeper.waitEnded('p2', 'answered');
    await new Promise((r) => setTimeout(r, 600));
    await keeper.settle();
    expect(h.fake.urgents.length).toBe(1);
    expect(h.fake.feedCards.map((c) => c.timeSensitive)).toEqual([true, false, true, false]);
    keeper.dispose();
  });

  it('no requester (a prompt after a restart): the summary still shows the question, nobody is mentioned, pinned or buzzed', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place } = await p2p();
    const keeper = new AttentionKeeper({ im: p.adapter, place, config: keeperConfig({ buzzAfterMinutes: 0.001 }), log: createLogger({ file: h.logFile, level: 'info', name: 'attention-test' }), t: (k, params) => t('en', k, params) });
    expect(keeper.waitStarted('p1', 'permission', 'Proceed?', undefined)).toEqual({ summary: 'Proceed?' });
    await new Promise((r) => setTimeout(r, 300));
    await keeper.settle();
    expect(h.fake.feedCards).toEqual([]);
    expect(h.fake.urgents).toEqual([]);
    keeper.dispose();
  });
});
