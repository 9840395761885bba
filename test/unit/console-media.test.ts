// The console's media: which bytes may show inline, and composer attachments reaching the core as a Feishu message's do.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { CONSOLE_MEDIA_LIMITS, ConsoleMediaStore, inlineImageType } from '../../src/daemon/im/local/console-media.js';
import { ConsoleAdapter, CONSOLE_USER_ID } from '../../src/daemon/im/local/console-adapter.js';
import type { InboundEvent, InboundMessage } from '../../src/daemon/im/types.js';

const hex = (h: string) => Buffer.from(h, 'hex');

describe('inlineImageType', () => {
  it.each([
    ['png', hex('89504e470d0a1a0a0000000d'), 'image/png'],
    ['jpeg', hex('ffd8ffe000104a464946'), 'image/jpeg'],
    ['gif89a', Buffer.from('GIF89a\x01\x00'), 'image/gif'],
    ['webp', Buffer.concat([Buffer.from('RIFF'), hex('00000000'), Buffer.from('WEBPVP8 ')]), 'image/webp'],
    ['bmp', Buffer.from('BM\x00\x00'), 'image/bmp'],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'), null],
    ['html named .png', Buffer.from('<html><script>alert(1)</script>'), null],
    ['riff that is not webp', Buffer.concat([Buffer.from('RIFF'), hex('00000000'), Buffer.from('WAVE')]), null],
    ['empty', Buffer.alloc(0), null],
  ])('%s', (_name, bytes, want) => {
    expect(inlineImageType(bytes)).toBe(want);
  });
});

describe('ConsoleMediaStore', () => {
  it('a picture that is not one a browser shows is kept as a file; the oldest leave once the byte cap is passed', () => {
    expect(CONSOLE_MEDIA_LIMITS.totalBytes).toBeGreaterThanOrEqual(100 * 1024 * 1024); // one largest Feishu file fits
    const store = new ConsoleMediaStore({ totalBytes: 3000, files: 10 });
    expect(store.add(Buffer.from('<svg/>'), 'x.svg', 'image').kind).toBe('file');
    const big = 1000;
    const refs = [0, 1, 2, 3].map(() => store.add(new Uint8Array(big), 'b.bin', 'file').ref);
    expect(store.get(refs[0]!)).toBeUndefined();
    expect(store.get(refs[1]!)).toBeDefined();
    expect(store.get(refs[3]!)?.bytes.byteLength).toBe(big);
  });
});

describe('ConsoleAdapter attachments', () => {
  it('an uploaded file named by a message becomes an attachment the core downloads within its cap; unknown refs are refused', async () => {
    const adapter = new ConsoleAdapter({ logger: createLogger({ level: 'silent' }), clis: [{ id: 'c', label: 'shell', spec: 'shell' }], projects: [{ label: 'w', path: '/w' }], uploadBytes: 1000 });
    const events: InboundEvent[] = [];
    await adapter.connect({ onEvent: async (ev) => void events.push(ev) });
    const png = hex('89504e470d0a1a0a0000000d49484452');
    const pic = adapter.upload(png, 'a.png');
    const doc = adapter.upload(Buffer.from('hello'), '报告.txt');
    expect([pic.kind, doc.kind]).toEqual(['image', 'file']);
    // Only attachments, no words: still a message.
    expect(await adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r', cli: 'c', project: '/w', text: '', attachments: [pic.ref, doc.ref] })).toBeUndefined();
    const msg = events[0] as InboundMessage;
    expect(msg.attachments).toEqual([
      { kind: 'image', key: pic.ref, messageId: msg.messageId, name: 'a.png' },
      { kind: 'file', key: doc.ref, messageId: msg.messageId, name: '报告.txt' },
    ]);
    const got = await adapter.downloadAttachment(msg.attachments![1]!, 100);
    expect(got.ok && Buffer.from(got.value).toString()).toBe('hello');
    expect((await adapter.downloadAttachment(msg.attachments![1]!, 3)).ok).toBe(false);
    expect(await adapter.receive(CONSOLE_USER_ID, { type: 'send', topicId: msg.messageId, text: 'x', attachments: ['file_nope'] })).toEqual({ error: 'unknown_attachment' });
    expect(await adapter.receive(CONSOLE_USER_ID, { type: 'send', topicId: msg.messageId, text: ' ' })).toEqual({ error: 'empty_message' });
    expect(adapter.hello().type === 'hello' && adapter.hello()).toMatchObject({ uploadBytes: 1000 });
  });
});
