// Quoted messages: which parent counts as an explicit quote and what is read from it (what is typed: typed-prompt.test.ts).
import { describe, expect, it } from 'vitest';
import { explicitQuoteId, quotedContent } from '../../src/daemon/im/lark/events.js';

describe('explicitQuoteId', () => {
  it.each([
    [{}, undefined],
    // A plain message in a topic: its parent is the topic's root — not a quote.
    [{ root_id: 'om_root', parent_id: 'om_root', thread_id: 'omt_1' }, undefined],
    // A reply to one message inside a topic.
    [{ root_id: 'om_root', parent_id: 'om_q', thread_id: 'omt_1' }, 'om_q'],
    // A reply outside any thread (direct chat, plain group).
    [{ root_id: 'om_q', parent_id: 'om_q' }, 'om_q'],
  ])('%j → %s', (msg, want) => expect(explicitQuoteId(msg)).toBe(want));
});

describe('quotedContent', () => {
  const item = (id: string, type: string, content: unknown, upper?: string) => ({ message_id: id, msg_type: type, body: { content: JSON.stringify(content) }, ...(upper ? { upper_message_id: upper } : {}) });
  it('reads the quoted message only (text, rich text with its pictures, a file), resources through its own id', () => {
    expect(quotedContent([item('om_q', 'text', { text: 'line 1\n第二行' })], 'om_q')).toEqual({ text: 'line 1\n第二行', attachments: [] });
    expect(quotedContent([item('om_q', 'post', { title: 'T', content: [[{ tag: 'text', text: 'see ' }, { tag: 'img', image_key: 'img_1' }]] })], 'om_q')).toEqual({
      text: 'T\nsee ', attachments: [{ kind: 'image', key: 'img_1', messageId: 'om_q' }],
    });
    expect(quotedContent([item('om_q', 'file', { file_key: 'f_1', file_name: 'a.txt' })], 'om_q').attachments).toEqual([{ kind: 'file', key: 'f_1', name: 'a.txt', messageId: 'om_q' }]);
    expect(quotedContent([item('om_other', 'text', { text: 'x' })], 'om_q')).toEqual({ text: '', attachments: [] });
  });
});
