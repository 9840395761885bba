// The wait for text after a lone picture: merged with the same person's next text, alone after the wait.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboundMessage } from '../../src/daemon/im/types.js';
import { ImageWait, isImageOnly } from '../../src/daemon/inbound/image-wait.js';

type D = { sessionKey: string };
const msg = (id: string, sender: string, text: string, images: string[] = [], files: string[] = []): InboundMessage => ({
  kind: 'message', appId: 'cli_x', messageId: id, place: { chatId: 'oc_1', chatType: 'p2p' }, senderId: sender, senderType: 'user', text, mentionsBot: false, createTime: 0,
  ...(images.length || files.length ? { attachments: [...images.map((k) => ({ kind: 'image' as const, key: k, messageId: id })), ...files.map((k) => ({ kind: 'file' as const, key: k, messageId: id }))] } : {}),
});

describe('ImageWait', () => {
  let expired: InboundMessage[];
  let announced: string[];
  let wait: ImageWait<D>;
  const d: D = { sessionKey: 'om_root::cli_x' };
  beforeEach(() => {
    vi.useFakeTimers();
    expired = [];
    announced = [];
    wait = new ImageWait<D>({ waitMs: () => 60_000, announce: async (_d, m, s) => { announced.push(`${m.messageId}:${s}`); }, expire: async (_d, m) => { expired.push(m); } });
  });
  afterEach(() => vi.useRealTimers());

  it.each([
    [msg('a', 'u', '', ['i1']), true],
    [msg('b', 'u', 'hi', ['i1']), false],
    [msg('c', 'u', '', ['i1'], ['f1']), false],
    [msg('d', 'u', '', [], ['f1']), false],
    [msg('e', 'u', '  '), false],
  ])('isImageOnly %#', (m, want) => expect(isImageOnly(m)).toBe(want));

  it("holds a lone picture, tells the person, and sends it with the same person's next text (pictures first, the text's id)", async () => {
    expect(await wait.take(d, msg('p1', 'u', '', ['i1']))).toBeNull();
    expect(await wait.take(d, msg('p2', 'u', '', ['i2']))).toBeNull();
    expect(announced).toEqual(['p1:60']);
    // Someone else's text in the topic does not take the pictures.
    expect((await wait.take(d, msg('o1', 'other', 'mine')))!.msg.attachments).toBeUndefined();
    const out = await wait.take(d, msg('t1', 'u', 'what is wrong here?', [], ['f9']));
    expect(out!.msg.messageId).toBe('t1');
    expect(out!.msg.text).toBe('what is wrong here?');
    expect(out!.msg.attachments!.map((a) => a.key)).toEqual(['i1', 'i2', 'f9']);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(expired).toEqual([]);
  });

  it('after the wait the pictures go alone; a later text goes as it is', async () => {
    await wait.take(d, msg('p1', 'u', '', ['i1']));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(expired.map((m) => m.messageId)).toEqual(['p1']);
    expect((await wait.take(d, msg('t1', 'u', 'late')))!.msg.attachments).toBeUndefined();
  });

  it('a wait of 0 sends the picture at once', async () => {
    const now = new ImageWait<D>({ waitMs: () => 0, announce: async () => { announced.push('x'); }, expire: async () => undefined });
    expect((await now.take(d, msg('p1', 'u', '', ['i1'])))!.msg.messageId).toBe('p1');
    expect(announced).toEqual([]);
  });
});
