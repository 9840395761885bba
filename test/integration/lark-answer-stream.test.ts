// The final answer through the real SDK against the fake platform: streamed into CardKit answer cards (typewriter),
// split by bytes into cards in order, whole as a .md file when long, and as text messages when CardKit is refused.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerCardsIn, answerText, decodeEntities, textsIn } from '../support/cards.js';
import { CARDKIT_CODES } from '../support/fake-feishu/index.js';
import { connectProbe, startHarness, type LarkHarness } from '../support/fake-feishu/harness.js';
import { deliverAnswer } from '../../src/daemon/outbound/answer-stream.js';
import type { ChatPlace } from '../../src/daemon/ground/anchor.js';
import { translator } from '../../src/shared/i18n.js';

let h: LarkHarness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.cleanup(); });

const log = pino({ level: 'silent' });

async function topic(): Promise<{ place: ChatPlace; userMsg: string }> {
  const sent = await h.fake.injectMessage({ chatType: 'group', rootId: 'om_topic_root', text: 'go', mentionBot: true });
  return { place: { chatId: sent.chatId, chatType: 'group', rootId: 'om_topic_root', threadId: sent.threadId }, userMsg: sent.messageId };
}

/** Lines of numbered words: a reader can tell a missing or repeated piece. */
function longAnswer(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += `line ${i}: the quick brown fox jumps over the lazy dog\n`;
  return s.slice(0, chars);
}

function cjkAnswer(chars: number): string {
  return Array.from({ length: chars }, (_, i) => (i % 100 === 99 ? '\n' : String.fromCodePoint(0x4e00 + ((i * 7) % 20_000)))).join('');
}

describe('answer streaming (CardKit)', () => {
  it('a 20 000-character answer streams into one card in ≥ 3 updates with increasing sequence; the card ends equal to the answer and closed', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    const text = longAnswer(20_000);
    await deliverAnswer(text, { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });

    const cards = answerCardsIn(h.fake, p.adapter.appId, place.chatId);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ parentId: userMsg, threadId: place.threadId });
    const entity = h.fake.cardEntities.get(cards[0]!.cardId!)!;
    expect(entity.updates.length).toBeGreaterThanOrEqual(3);
    const seqs = [...entity.updates.map((u) => u.sequence), ...entity.settings.map((s) => s.sequence)];
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
    // Each update extends the last (typewriter), and the last is the whole answer.
    for (let i = 1; i < entity.updates.length; i++) expect(entity.updates[i]!.content.startsWith(entity.updates[i - 1]!.content)).toBe(true);
    expect(answerText(cards[0]!)).toBe(text);
    expect((entity.card.config as { streaming_mode: boolean }).streaming_mode).toBe(false);
    // Paced under the platform's 10 operations a second per card: nothing was refused.
    expect(h.fake.calls.filter((c) => c.endpoint.startsWith('card_') && c.code !== 0)).toEqual([]);
    // No text message duplicates it, and 20 000 characters need no file.
    expect(h.fake.messages.filter((m) => m.msgType === 'text' || m.msgType === 'file')).toEqual([]);
  }, 60_000);

  it('40 000 CJK characters (120 KB) arrive complete and in order across continuation cards, and whole as answer.md', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    const text = cjkAnswer(40_000);
    await deliverAnswer(text, { im: p.adapter, place, replyTo: userMsg, t: translator('zh-CN'), log });

    const cards = answerCardsIn(h.fake, p.adapter.appId, place.chatId);
    expect(cards.length).toBeGreaterThanOrEqual(5);
    expect(cards.map(answerText).join('')).toBe(text);
    expect(cards.map((c) => (c.content as { header: { title: { content: string } } }).header.title.content)).toEqual(cards.map((_c, i) => `回答（${i + 1}/${cards.length}）`));
    for (const c of cards) expect(Buffer.byteLength(JSON.stringify(c.content))).toBeLessThanOrEqual(30 * 1024);
    const file = h.fake.messages.find((m) => m.msgType === 'file');
    expect(file).toBeDefined();
    const upload = h.fake.fileUploads.find((u) => u.fileKey === (file!.content as { file_key: string }).file_key)!;
    expect(upload.fileName).toBe('answer.md');
    expect(upload.bytes.toString('utf8')).toBe(text);
    // The file comes after the last card.
    expect(h.fake.messages.indexOf(file!)).toBeGreaterThan(h.fake.messages.indexOf(cards[cards.length - 1]!));
  }, 120_000);

  it('a huge answer (300 KB) streams into at most 8 cards, the rest follows as text in order, and answer.md has it all', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    const text = longAnswer(300_000);
    await deliverAnswer(text, { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });
    const cards = answerCardsIn(h.fake, p.adapter.appId, place.chatId);
    expect(cards).toHaveLength(8);
    expect(textsIn(h.fake, p.adapter.appId, place.chatId).join('')).toBe(text);
    const file = h.fake.messages.find((m) => m.msgType === 'file')!;
    expect(h.fake.fileUploads.find((u) => u.fileKey === (file.content as { file_key: string }).file_key)!.bytes.toString('utf8')).toBe(text);
  }, 120_000);

  it('hostile text streams as text: a mention tag, a link and markup show as typed and never act', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    const text = 'ping <at user_id="all"></at> [safe](https://evil.example) **bold** ~~x~~ & $(whoami) 😀';
    await deliverAnswer(text, { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });
    const card = answerCardsIn(h.fake, p.adapter.appId, place.chatId)[0]!;
    expect(JSON.stringify(card.content)).not.toContain('<at');
    const markdown = (card.content as { body: { elements: { content: string }[] } }).body.elements[0]!.content;
    expect(markdown).not.toContain('](https://');
    expect(markdown).not.toContain('**');
    expect(answerText(card)).toBe(text);
  });

  it('when CardKit is refused the answer goes as text messages, and the bot stops asking for cards', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    h.fake.failNext('card_create', 1, { status: 400, code: 99991672, msg: 'Access denied. One of the following scopes is required: [cardkit:card:write]' });
    await deliverAnswer('first answer', { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });
    await deliverAnswer('second answer', { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });
    expect(textsIn(h.fake, p.adapter.appId, place.chatId)).toEqual(['first answer', 'second answer']);
    expect(answerCardsIn(h.fake, p.adapter.appId, place.chatId)).toEqual([]);
    expect(h.fake.calls.filter((c) => c.endpoint === 'card_create')).toHaveLength(1);
  });

  it('a rate-limited update (230020) is retried with a higher sequence and the card still ends whole', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const { place, userMsg } = await topic();
    const text = longAnswer(5000);
    h.fake.failNext('card_content', 2, { status: 400, code: 230020, msg: 'card update frequency limit' });
    await deliverAnswer(text, { im: p.adapter, place, replyTo: userMsg, t: translator('en'), log });
    const card = answerCardsIn(h.fake, p.adapter.appId, place.chatId)[0]!;
    expect(answerText(card)).toBe(text);
    expect(h.fake.calls.filter((c) => c.endpoint === 'card_content' && c.code === 230020)).toHaveLength(2);
    expect(h.fake.messages.filter((m) => m.msgType === 'text')).toEqual([]);
  });

  it('the fake platform refuses a sequence that does not increase and text after streaming closed', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const token = await p.adapter.api.tenantToken();
    if (!token.ok) throw new Error('no token');
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${h.fake.baseUrl}/open-apis/cardkit/v1/cards${path}`, { method, headers: { authorization: `Bearer ${token.value}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await res.json()) as { code: number; data?: { card_id?: string } };
    };
    const card = { schema: '2.0', config: { streaming_mode: true }, body: { elements: [{ tag: 'markdown', element_id: 'md', content: '' }] } };
    const created = await call('POST', '', { type: 'card_json', data: JSON.stringify(card) });
    const id = created.data!.card_id!;
    expect((await call('PUT', `/${id}/elements/md/content`, { content: 'a', sequence: 2 })).code).toBe(0);
    expect((await call('PUT', `/${id}/elements/md/content`, { content: 'ab', sequence: 2 })).code).toBe(CARDKIT_CODES.sequenceNotIncreasing);
    expect((await call('PATCH', `/${id}/settings`, { settings: JSON.stringify({ config: { streaming_mode: false } }), sequence: 3 })).code).toBe(0);
    expect((await call('PUT', `/${id}/elements/md/content`, { content: 'abc', sequence: 4 })).code).toBe(CARDKIT_CODES.streamingClosed);
    expect(decodeEntities(h.fake.cardEntities.get(id)!.updates.map((u) => u.content).join('|'))).toBe('a');
  });
});
