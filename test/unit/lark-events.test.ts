// Table-driven tests for parsing raw Feishu events into InboundMessage / InboundCardAction.
import { describe, expect, it } from 'vitest';
import { forwardedContent, parseCardActionEvent, parseMessageEvent, postToText, resolveMentions, type ParseContext } from '../../src/daemon/im/lark/events.js';

const BOT = 'ou_bot0000000000000000000000000001';
const ctx: ParseContext = { appId: 'cli_a1b2c3d4e5f60718', botOpenId: BOT, botName: 'FakeBot', now: 1234 };

function ev(message: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: '2.0', event_id: 'e1', event_type: 'im.message.receive_v1', app_id: ctx.appId,
    sender: { sender_id: { open_id: 'ou_user', user_id: 'u1' }, sender_type: 'user' },
    message: { message_id: 'om_1', chat_id: 'oc_1', chat_type: 'p2p', message_type: 'text', content: '{"text":"hi"}', create_time: '1700000000000', ...message },
    ...extra,
  };
}
const botMention = { key: '@_user_1', id: { open_id: BOT }, name: 'FakeBot' };
const annMention = { key: '@_user_2', id: { open_id: 'ou_ann' }, name: 'Ann' };

describe('parseMessageEvent', () => {
  const cases: Array<{ name: string; raw: unknown; want: Record<string, unknown> }> = [
    { name: 'p2p text', raw: ev({}), want: { ok: true, text: 'hi', mentionsBot: false, place: { chatId: 'oc_1', chatType: 'p2p' }, createTime: 1700000000000, eventId: 'e1' } },
    { name: 'group thread with bot mention stripped', raw: ev({ chat_type: 'group', root_id: 'om_r', thread_id: 'omt_1', content: '{"text":"@_user_1 deploy now"}', mentions: [botMention] }), want: { ok: true, text: 'deploy now', mentionsBot: true, place: { chatId: 'oc_1', chatType: 'group', rootId: 'om_r', threadId: 'omt_1' } } },
    { name: 'other mention rendered as @name', raw: ev({ chat_type: 'group', content: '{"text":"@_user_1 ask @_user_2 please"}', mentions: [botMention, annMention] }), want: { ok: true, text: 'ask @Ann please', mentionsBot: true } },
    { name: 'only someone else mentioned', raw: ev({ chat_type: 'group', content: '{"text":"@_user_2 hi"}', mentions: [annMention] }), want: { ok: true, text: '@Ann hi', mentionsBot: false } },
    { name: 'post flattened', raw: ev({ message_type: 'post', content: JSON.stringify({ title: 'T', content: [[{ tag: 'at', user_id: '@_user_1' }, { tag: 'text', text: ' run tests' }], [{ tag: 'a', text: 'link', href: 'x' }]] }), mentions: [botMention] }), want: { ok: true, text: 'T\nrun tests\nlink', mentionsBot: true } },
    { name: 'image becomes an attachment', raw: ev({ message_type: 'image', content: '{"image_key":"img_1"}' }), want: { ok: true, text: '', attachments: [{ kind: 'image', key: 'img_1', messageId: 'om_1' }] } },
    { name: 'file keeps its name', raw: ev({ message_type: 'file', content: '{"file_key":"file_1","file_name":"a.pdf"}' }), want: { ok: true, text: '', attachments: [{ kind: 'file', key: 'file_1', name: 'a.pdf', messageId: 'om_1' }] } },
    { name: 'file without a key is unreadable', raw: ev({ message_type: 'file', content: 'not json' }), want: { ok: false, reason: expect.stringContaining('no key') } },
    { name: 'post images become attachments beside the text', raw: ev({ message_type: 'post', content: JSON.stringify({ content: [[{ tag: 'text', text: 'look' }, { tag: 'img', image_key: 'img_a' }], [{ tag: 'img', image_key: 'img_b' }]] }) }), want: { ok: true, text: 'look', attachments: [{ kind: 'image', key: 'img_a', messageId: 'om_1' }, { kind: 'image', key: 'img_b', messageId: 'om_1' }] } },
    { name: 'sticker flagged unsupported', raw: ev({ message_type: 'sticker', content: '{"file_key":"f"}' }), want: { ok: true, text: '', unsupportedType: 'sticker' } },
    { name: 'bot sender type kept', raw: ev({}, { sender: { sender_id: { open_id: 'ou_b' }, sender_type: 'bot' } }), want: { ok: true, senderType: 'bot', senderId: 'ou_b' } },
    { name: 'missing create_time falls back to now', raw: ev({ create_time: undefined }), want: { ok: true, createTime: 1234 } },
    { name: 'content not JSON', raw: ev({ content: '{oops' }), want: { ok: false, reason: expect.stringContaining('not a JSON object'), messageId: 'om_1', place: { chatId: 'oc_1', chatType: 'p2p' } } },
    { name: 'text without text field', raw: ev({ content: '{"txt":"x"}' }), want: { ok: false, reason: expect.stringContaining('no "text"') } },
    { name: 'missing message', raw: { event_id: 'e2', sender: { sender_id: { open_id: 'ou_user' } } }, want: { ok: false, reason: expect.stringContaining('malformed'), eventId: 'e2' } },
    { name: 'missing chat_id', raw: ev({ chat_id: undefined }), want: { ok: false, reason: expect.stringContaining('chat_id') } },
    { name: 'unknown chat type', raw: ev({ chat_type: 'meeting' }), want: { ok: false, reason: expect.stringContaining('chat_type') } },
    { name: 'no sender id', raw: ev({}, { sender: { sender_id: {}, sender_type: 'user' } }), want: { ok: false, reason: expect.stringContaining('open_id') } },
    { name: 'null', raw: null, want: { ok: false } },
    { name: 'a string', raw: 'garbage', want: { ok: false } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = parseMessageEvent(c.raw, ctx);
      const flat = r.ok ? { ok: true, ...r.event } : r;
      expect(flat).toMatchObject(c.want);
    });
  }

  it('matches mentions by bot name when the open_id is unknown', () => {
    const r = parseMessageEvent(ev({ chat_type: 'group', content: '{"text":"@_user_1 hi"}', mentions: [{ key: '@_user_1', id: { open_id: 'ou_x' }, name: 'FakeBot' }] }), { ...ctx, botOpenId: undefined });
    expect(r.ok && r.event).toMatchObject({ text: 'hi', mentionsBot: true });
  });
});

describe('resolveMentions', () => {
  const cases: Array<[string, Array<{ key: string; id?: { open_id?: string }; name?: string }>, string, boolean]> = [
    ['@_user_1 hello', [botMention], 'hello', true],
    ['@_user_10 and @_user_1', [{ key: '@_user_1', id: { open_id: BOT }, name: 'FakeBot' }, { key: '@_user_10', id: { open_id: 'ou_z' }, name: 'Zed' }], '@Zed and', true],
    ['hi @_all', [], 'hi @all', false],
    ['no mentions', [], 'no mentions', false],
  ];
  for (const [text, mentions, want, bot] of cases) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(want)}`, () => {
      expect(resolveMentions(text, mentions, ctx)).toEqual({ text: want, mentionsBot: bot });
    });
  }
});

describe('postToText', () => {
  it('reads locale-wrapped posts', () => {
    expect(postToText({ zh_cn: { title: '', content: [[{ tag: 'text', text: 'a' }], [{ tag: 'code_block', text: 'b' }]] } })).toBe('a\nb');
  });
});

describe('parseCardActionEvent', () => {
  const v2 = (value: unknown) => ({ schema: '2.0', event_id: 'ce1', operator: { open_id: 'ou_op' }, action: { value, tag: 'button' }, context: { open_message_id: 'om_c', open_chat_id: 'oc_c' } });
  const cases: Array<{ name: string; raw: unknown; want: Record<string, unknown> }> = [
    { name: 'key button', raw: v2({ action: 'key', sessionId: 's', key: 'ctrl_c' }), want: { ok: true, kind: 'card_action', eventId: 'ce1', messageId: 'om_c', chatId: 'oc_c', operatorId: 'ou_op', value: { action: 'key', sessionId: 's', key: 'ctrl_c' } } },
    { name: 'value as JSON string', raw: v2(JSON.stringify({ action: 'close', sessionId: 's' })), want: { ok: true, value: { action: 'close', sessionId: 's' } } },
    { name: 'legacy v1 body', raw: { open_id: 'ou_v1', open_message_id: 'om_v1', open_chat_id: 'oc_v1', action: { value: { action: 'screen', sessionId: 's' } } }, want: { ok: true, operatorId: 'ou_v1', messageId: 'om_v1' } },
    { name: 'foreign value', raw: v2({ action: 'approve' }), want: { ok: false, reason: expect.stringContaining('not one of ours'), messageId: 'om_c' } },
    { name: 'unknown key name', raw: v2({ action: 'key', sessionId: 's', key: 'f13' }), want: { ok: false } },
    { name: 'missing context', raw: { operator: { open_id: 'x' }, action: { value: {} } }, want: { ok: false, reason: expect.stringContaining('malformed card action') } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = parseCardActionEvent(c.raw, ctx);
      expect(r.ok ? { ok: true, ...r.event } : r).toMatchObject(c.want);
    });
  }
});

describe('forwardedContent', () => {
  it("takes only the parent's children; pictures and files go through the parent's id; text becomes lines", () => {
    const child = (id: string, msg_type: string, content: unknown, upper = 'om_p') => ({ message_id: id, msg_type, upper_message_id: upper, body: { content: JSON.stringify(content) } });
    const items = [
      { message_id: 'om_p', msg_type: 'merge_forward', body: { content: '{"content":"Merged and Forwarded Message"}' } },
      child('c1', 'text', { text: 'hello' }),
      child('c2', 'file', { file_key: 'fk', file_name: 'a.pdf' }),
      child('c3', 'image', { image_key: 'ik' }),
      child('c4', 'post', { content: [[{ tag: 'text', text: 'see' }, { tag: 'img', image_key: 'pk' }]] }),
      child('x', 'text', { text: 'elsewhere' }, 'om_other'),
      child('c5', 'sticker', { file_key: 's' }),
    ];
    expect(forwardedContent(items, 'om_p')).toEqual({
      text: 'hello\nsee',
      attachments: [
        { kind: 'file', key: 'fk', name: 'a.pdf', messageId: 'om_p' },
        { kind: 'image', key: 'ik', messageId: 'om_p' },
        { kind: 'image', key: 'pk', messageId: 'om_p' },
      ],
    });
    expect(forwardedContent('garbage', 'om_p')).toEqual({ text: '', attachments: [] });
  });
});
