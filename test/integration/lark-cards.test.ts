// Cards through the real SDK against the fake platform: reply/patch, latest wins, images, taps, faults, replacement, webhook.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buttonLabels } from '../support/fake-feishu/index.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import type { StreamingCard } from '../../src/shared/card-model.js';
import { CARD_KEY_ROW } from '../../src/shared/keys.js';
import type { InboundCardAction } from '../../src/daemon/im/types.js';
import type { ChatPlace } from '../../src/daemon/ground/anchor.js';

let h: LarkHarness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.cleanup(); });

function streamCard(over: Partial<StreamingCard> = {}): StreamingCard {
  return {
    kind: 'stream', sessionId: 's1', title: 'claude · repo', status: 'working', display: 'text',
    screenText: '$ ready', keys: [...CARD_KEY_ROW], frozen: false,
    buttons: [{ label: 'Text', style: 'default', value: { action: 'display', sessionId: 's1', mode: 'text' } }, { label: 'Web terminal', style: 'default', url: 'https://box.example/s/s1' }],
    ...over,
  };
}

const headerTitle = (c: unknown) => ((c as { header: { title: { content: string } } }).header.title.content);
const headerTemplate = (c: unknown) => ((c as { header: { template: string } }).header.template);
const markdowns = (c: unknown) => ((c as { body: { elements: Array<{ tag: string; content?: string }> } }).body.elements.filter((e) => e.tag === 'markdown').map((e) => e.content ?? ''));

async function threadPlace(): Promise<{ place: ChatPlace; userMsg: string }> {
  const sent = await h.fake.injectMessage({ chatType: 'group', rootId: 'om_topic_root', text: 'go', mentionBot: true });
  return { place: { chatId: sent.chatId, chatType: 'group', rootId: 'om_topic_root', threadId: sent.threadId }, userMsg: sent.messageId };
}

describe('lark cards', () => {
  it('replies with a card in the topic and patches it; the latest of 10 quick updates wins', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await threadPlace();
    const sent = await p.adapter.sendCard(place, streamCard({ status: 'starting' }), userMsg);
    expect(sent.ok).toBe(true);
    const id = sent.ok ? sent.value.messageId : '';
    const msg = h.fake.message(id)!;
    expect(msg).toMatchObject({ msgType: 'interactive', parentId: userMsg, replyInThread: true, threadId: place.threadId });
    expect(headerTemplate(msg.content)).toBe('blue');
    const updates = Array.from({ length: 10 }, (_, i) => p.adapter.updateCard({ messageId: id }, streamCard({ screenText: `frame ${i + 1}`, status: i === 9 ? 'idle' : 'working' })));
    const results = await Promise.all(updates);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(markdowns(h.fake.message(id)!.content).join('\n')).toContain('frame 10');
    expect(headerTemplate(h.fake.message(id)!.content)).toBe('green');
    // Coalesced: the first update goes out, the nine queued behind it collapse into the latest one.
    expect(h.fake.message(id)!.history.length).toBeLessThanOrEqual(3);
    expect(h.fake.calls.filter((c) => c.endpoint === 'patch' && c.code !== 0)).toEqual([]);
  });

  it('uploads a screenshot and shows it in the card', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await threadPlace();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const up = await p.adapter.uploadImage(png);
    expect(up.ok).toBe(true);
    const key = up.ok ? up.value.imageRef : '';
    expect(h.fake.uploads[0]).toMatchObject({ imageKey: key, imageType: 'message', size: png.length });
    expect(h.fake.uploads[0]!.bytes.equals(png)).toBe(true);
    const sent = await p.adapter.sendCard(place, streamCard({ display: 'screenshot', image: { ref: key } }), userMsg);
    const content = h.fake.message(sent.ok ? sent.value.messageId : '')!.content as { body: { elements: Array<{ tag: string; img_key?: string }> } };
    expect(content.body.elements.find((e) => e.tag === 'img')?.img_key).toBe(key);
  });

  it('a button tap comes back as an InboundCardAction and the toast goes back in the ACK', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    p.onCardAction = async () => ({ toast: { type: 'success', content: 'Sent Ctrl+C' } });
    const { place, userMsg } = await threadPlace();
    const sent = await p.adapter.sendCard(place, streamCard(), userMsg);
    const id = sent.ok ? sent.value.messageId : '';
    expect(buttonLabels(h.fake.message(id)!.content)).toEqual(['Esc', 'Ctrl+C', 'Tab', 'Enter', '↑', '↓', '←', '→', 'PgUp', 'PgDn', 'Text', 'Web terminal']);
    const tap = await h.fake.tapButton(id, 'Ctrl+C', 'ou_operator');
    expect(tap.ack?.code).toBe(200);
    expect(tap.response).toEqual({ toast: { type: 'success', content: 'Sent Ctrl+C' } });
    const ev = p.events.find((e): e is InboundCardAction => e.kind === 'card_action')!;
    expect(ev).toMatchObject({ appId: TEST_APPS[0]!.appId, eventId: tap.eventId, messageId: id, chatId: place.chatId, operatorId: 'ou_operator', value: { action: 'key', sessionId: 's1', key: 'ctrl_c' } });
  });

  it('a slow card handler does not hold the ACK; its work still finishes', async () => {
    const p = h.makeAdapter(undefined, { ackDeadlineMs: 200 });
    await connectProbe(p);
    let finished = false;
    p.onCardAction = async () => { await new Promise((r) => setTimeout(r, 800)); finished = true; return { toast: { type: 'info', content: 'late' } }; };
    const sent = await p.adapter.sendCard({ chatId: 'oc_g', chatType: 'group' }, streamCard());
    const tap = await h.fake.tapButton(sent.ok ? sent.value.messageId : '', 'Esc');
    expect(tap.ack?.code).toBe(200);
    expect(tap.response).toBeUndefined();
    expect(finished).toBe(false);
    await h.fake.waitFor(() => finished, 3000, 'slow handler to finish');
  });

  it('a tap on a foreign button value answers with a warning toast and a rejection', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const r = await h.fake.injectCardAction({ messageId: 'om_old', value: { action: 'approve', run: 42 } });
    expect(r.response).toEqual({ toast: { type: 'warning', content: 'This button is no longer active.' } });
    expect(p.rejected[0]?.reason).toContain('not one of ours');
  });

  it('five 429s on patch are retried and the final card state is still right', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const sent = await p.adapter.sendCard({ chatId: 'oc_g', chatType: 'group' }, streamCard({ status: 'working' }));
    const id = sent.ok ? sent.value.messageId : '';
    h.fake.failNext('patch', 5, { status: 429, code: 99991400 });
    const r = await p.adapter.updateCard({ messageId: id }, streamCard({ status: 'idle', screenText: 'all done' }));
    expect(r.ok).toBe(true);
    expect(h.fake.calls.filter((c) => c.endpoint === 'patch' && c.status === 429)).toHaveLength(5);
    expect(headerTemplate(h.fake.message(id)!.content)).toBe('green');
    expect(markdowns(h.fake.message(id)!.content).join()).toContain('all done');
  });

  it('230020 and 5xx on send are retried too', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    h.fake.failNext('send', 1, { status: 400, code: 230020 });
    h.fake.failNext('send', 1, { status: 503, code: 1 });
    const r = await p.adapter.sendText({ chatId: 'oc_g', chatType: 'group' }, 'hello');
    expect(r.ok).toBe(true);
    expect(h.fake.messages.filter((m) => m.msgType === 'text')).toHaveLength(1);
  });

  it('an upload the platform refuses is a failed result (the caller falls back to text); empty images are refused locally', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    h.fake.failUpload(1);
    const r = await p.adapter.uploadImage(Buffer.from([1, 2, 3]));
    expect(r).toMatchObject({ ok: false, code: 'upload_failed' });
    const empty = await p.adapter.uploadImage(new Uint8Array());
    expect(empty).toMatchObject({ ok: false, code: 'empty_image' });
    expect(h.fake.uploads).toHaveLength(0);
  });

  it('a card that can no longer be patched is replaced by a new one, and later updates follow it', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await threadPlace();
    const sent = await p.adapter.sendCard(place, streamCard({ title: 'v1' }), userMsg);
    const oldId = sent.ok ? sent.value.messageId : '';
    h.fake.deleteMessage(oldId);
    const r = await p.adapter.updateCard({ messageId: oldId }, streamCard({ title: 'v2' }));
    expect(r.ok).toBe(true);
    // What the chat shows: the newest card the bot has in the thread.
    const newestCard = () => h.fake.messages.filter((m) => m.msgType === 'interactive' && m.threadId === place.threadId && !m.deleted).at(-1)!.messageId;
    const newId = newestCard();
    expect(newId).not.toBe(oldId);
    expect(headerTitle(h.fake.message(newId)!.content)).toBe('v2');
    expect(h.fake.message(newId)!.threadId).toBe(place.threadId);
    await p.adapter.updateCard({ messageId: oldId }, streamCard({ title: 'v3' }));
    expect(headerTitle(h.fake.message(newId)!.content)).toBe('v3');
    h.fake.expireMessage(newId);
    await p.adapter.updateCard({ messageId: oldId }, streamCard({ title: 'v4' }));
    const third = newestCard();
    expect(third).not.toBe(newId);
    expect(headerTitle(h.fake.message(third)!.content)).toBe('v4');
  });

  it('a frozen card has no buttons; a selection card shows who answered', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const place: ChatPlace = { chatId: 'oc_g', chatType: 'group' };
    const s = await p.adapter.sendCard(place, streamCard());
    const id = s.ok ? s.value.messageId : '';
    await p.adapter.updateCard({ messageId: id }, streamCard({ frozen: true }));
    expect(buttonLabels(h.fake.message(id)!.content)).toEqual([]);
    const sel = { kind: 'selection' as const, sessionId: 's1', promptId: 'p1', title: 'Trust this folder?', options: [{ label: 'Yes' }, { label: 'No' }], defaultIndex: 0 };
    const ss = await p.adapter.sendCard(place, sel);
    const sid = ss.ok ? ss.value.messageId : '';
    expect(buttonLabels(h.fake.message(sid)!.content)).toEqual(['Yes', 'No']);
    await h.fake.tapButton(sid, 'No');
    expect(p.events.at(-1)).toMatchObject({ kind: 'card_action', value: { action: 'select', promptId: 'p1', optionIndex: 1 } });
    await p.adapter.updateCard({ messageId: sid }, { ...sel, answered: { by: 'Ann', optionIndex: 1 } });
    expect(buttonLabels(h.fake.message(sid)!.content)).toEqual([]);
    expect(markdowns(h.fake.message(sid)!.content).join()).toContain('Answered by** Ann: No');
  });

  it('reacts, DMs a user, and splits text over the platform limit', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const m = await h.fake.injectMessage({ text: 'hi' });
    expect((await p.adapter.react(m.messageId, 'DONE')).ok).toBe(true);
    expect(h.fake.reactions).toEqual([expect.objectContaining({ messageId: m.messageId, emoji: 'DONE' })]);
    const dm = await p.adapter.dmUser('ou_someone', 'your link');
    expect(dm.ok).toBe(true);
    expect(h.fake.messages.at(-1)).toMatchObject({ chatType: 'p2p', content: { text: 'your link' } });
    const long = 'x'.repeat(100) + '\n';
    const r = await p.adapter.sendText({ chatId: m.chatId, chatType: 'p2p' }, long.repeat(2000), m.messageId);
    expect(r.ok).toBe(true);
    const texts = h.fake.messages.filter((x) => x.parentId === m.messageId).map((x) => (x.content as { text: string }).text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe(long.repeat(2000));
  });

  it('a revoked token is replaced once and the call succeeds; concurrent first calls fetch one token', async () => {
    const p = h.makeAdapter();
    const place: ChatPlace = { chatId: 'oc_g', chatType: 'group' };
    await Promise.all([1, 2, 3].map((i) => p.adapter.sendText(place, `t${i}`)));
    expect(h.fake.tokensIssued()).toBe(1);
    h.fake.revokeTokens();
    const r = await p.adapter.sendText(place, 'after revoke');
    expect(r.ok).toBe(true);
    expect(h.fake.tokensIssued()).toBe(2);
  });

  it('webhook mode: encrypted, signed events and card callbacks reach the handler; bad signatures are refused', async () => {
    const app = TEST_APPS[1]!;
    const p = h.makeAdapter(app.appId, { webhook: { port: 0, path: '/hook' }, botOverrides: { events: 'webhook', encryptKey: 'enc-key-42' } });
    expect((await connectProbe(p)).ok).toBe(true);
    h.fake.setWebhook(app.appId, { url: `http://127.0.0.1:${p.adapter.webhookPort}/hook?x=1`, encryptKey: 'enc-key-42' });
    await h.fake.injectMessage({ appId: app.appId, text: 'via webhook' });
    await h.fake.waitFor(() => p.events.find((e) => e.kind === 'message' && e.text === 'via webhook'));
    p.onCardAction = async () => ({ toast: { type: 'info', content: 'ok' } });
    const tap = await h.fake.injectCardAction({ appId: app.appId, messageId: 'om_1', value: { action: 'screen', sessionId: 's9' } });
    expect(tap.response).toEqual({ toast: { type: 'info', content: 'ok' } });
    h.fake.setWebhook(app.appId, { url: `http://127.0.0.1:${p.adapter.webhookPort}/hook`, encryptKey: 'some-other-key' });
    const bad = await h.fake.injectMessage({ appId: app.appId, text: 'forged' });
    expect(bad.ack?.code).toBe(401);
    expect(p.events.some((e) => e.kind === 'message' && e.text === 'forged')).toBe(false);
  });
});
