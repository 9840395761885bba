// Table-driven tests of message and card-tap routing (DESIGN §4, §8).
import { describe, expect, it } from 'vitest';
import type { InboundCardAction, InboundMessage } from '../../src/daemon/im/types.js';
import { NO_GRANTS, type Grants } from '../../src/daemon/ground/permissions.js';
import { anchorOf, cardActionLevel, orderKeyOf, routeCardAction, routeMessage, routeRejected, type RouteInput, type RouterBot } from '../../src/daemon/inbound/router.js';
import { buildCommandTable, COMMAND_TABLE } from '../../src/daemon/commands/index.js';
import { CardActionValueSchema } from '../../src/shared/card-model.js';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { t, translator } from '../../src/shared/i18n.js';

/** The English assertions below are for a bot with "locale": "en". */
const EN = translator('en');
const REJECTED_REPLY = t('en', 'route.rejected');

const APP = 'cli_0123456789abcdef';
const APP2 = 'cli_fedcba9876543210';
const BOT: RouterBot = { appId: APP, cli: 'claude-code', groupScope: 'thread', allowedUsers: ['ou_alice'], allowedChats: [] };
const GRANTS: Grants = { talkUsers: ['ou_guest'], talkChats: [], peerBots: ['ou_peer'] };

function msg(over: Omit<Partial<InboundMessage>, 'place'> & { place?: Partial<InboundMessage['place']> } = {}): InboundMessage {
  const { place, ...rest } = over;
  return {
    kind: 'message', appId: APP, eventId: 'ev1', messageId: 'om_msg', senderId: 'ou_alice', senderType: 'user',
    text: 'hello', mentionsBot: false, createTime: 1, ...rest,
    place: { chatId: 'oc_p2p', chatType: 'p2p', ...place },
  };
}

function session(anchorId: string, appId = APP, lifecycle: SessionCore['lifecycle'] = 'live'): SessionCore {
  return { ...newSessionCore({ appId, anchorId, scope: 'thread', chatId: 'oc_group', chatType: 'group', cli: 'claude-code', cwd: '/w', ownerId: 'ou_alice', now: 1 }), lifecycle };
}

function input(m: InboundMessage, over: Partial<RouteInput> = {}, sessions: SessionCore[] = []): RouteInput {
  return {
    msg: m, bot: BOT, grants: GRANTS, duplicate: false, pairingOpen: false, noticesSent: new Set(), t: EN,
    sessionByKey: (k) => sessions.find((s) => s.key === k), ...over,
  };
}

const group = (over: Partial<InboundMessage['place']> = {}) => ({ chatId: 'oc_group', chatType: 'group' as const, ...over });

describe('routeMessage: ignore', () => {
  it.each([
    { name: 'another app', m: msg({ appId: APP2 }), over: {}, reason: 'other_app' },
    { name: 'a duplicate', m: msg(), over: { duplicate: true }, reason: 'duplicate' },
    { name: 'this bot itself (not a peer of itself)', m: msg({ senderId: 'ou_self', senderType: 'bot' }), over: {}, reason: 'bot_not_peer' },
    { name: 'a bot that is not a peer', m: msg({ senderId: 'ou_randombot', senderType: 'app' }), over: {}, reason: 'bot_not_peer' },
    { name: 'a group message without mention outside a topic', m: msg({ place: group() }), over: {}, reason: 'not_addressed' },
    { name: 'a group message without mention in a topic the bot has no session in', m: msg({ place: group({ rootId: 'om_root' }) }), over: {}, reason: 'not_addressed' },
    { name: 'a group message without mention in a chat-scope group', m: msg({ place: group() }), over: { bot: { ...BOT, groupScope: 'chat' as const } }, reason: 'not_addressed' },
    { name: 'a peer bot while this bot is still closed', m: msg({ senderId: 'ou_peer', senderType: 'bot' }), over: { pairingOpen: true }, reason: 'denied_bot' },
  ])('$name', ({ m, over, reason }) => {
    expect(routeMessage(input(m, over))).toEqual({ kind: 'ignore', reason });
  });

  it('a topic of another bot in the same chat is not this bot’s topic', () => {
    const other = session('om_root', APP2);
    expect(routeMessage(input(msg({ place: group({ rootId: 'om_root' }) }), {}, [other]))).toEqual({ kind: 'ignore', reason: 'not_addressed' });
  });
  it('a closed session’s topic needs a mention again', () => {
    const closed = session('om_root', APP, 'closed');
    expect(routeMessage(input(msg({ place: group({ rootId: 'om_root' }) }), {}, [closed]))).toEqual({ kind: 'ignore', reason: 'not_addressed' });
  });
});

describe('routeMessage: session key and scope', () => {
  const rows = [
    { name: 'p2p → chat scope on the chat id', m: msg(), bot: BOT, anchorId: 'oc_p2p', scope: 'chat' },
    { name: 'p2p reply thread still → the chat', m: msg({ place: { rootId: 'om_r' } }), bot: BOT, anchorId: 'oc_p2p', scope: 'chat' },
    { name: 'group topic with mention → the topic root', m: msg({ mentionsBot: true, place: group({ rootId: 'om_root', threadId: 'omt_1' }) }), bot: BOT, anchorId: 'om_root', scope: 'thread' },
    { name: 'group post outside a topic with mention → starts a topic on itself', m: msg({ mentionsBot: true, messageId: 'om_new', place: group() }), bot: BOT, anchorId: 'om_new', scope: 'thread' },
    { name: 'group with groupScope chat → the chat', m: msg({ mentionsBot: true, place: group({ rootId: 'om_root' }) }), bot: { ...BOT, groupScope: 'chat' as const }, anchorId: 'oc_group', scope: 'chat' },
  ];
  it.each(rows)('$name', ({ m, bot, anchorId, scope }) => {
    const d = routeMessage(input(m, { bot }));
    expect(d).toMatchObject({ kind: 'prompt', text: 'hello', sessionKey: `${anchorId}::${APP}`, scope, isNewSession: true });
  });

  it.each(rows)('$name: the order key is that same session key', ({ m, bot }) => {
    const d = routeMessage(input(m, { bot }));
    expect(d.kind === 'prompt' && d.sessionKey).toBe(orderKeyOf(m, bot));
  });
  const sameOrder = [
    { name: 'p2p: unthreaded and threaded', a: msg(), b: msg({ messageId: 'om_2', place: { rootId: 'om_msg' } }), bot: BOT },
    { name: 'chat-scope group: two top-level posts', a: msg({ mentionsBot: true, place: group() }), b: msg({ mentionsBot: true, messageId: 'om_2', place: group() }), bot: { ...BOT, groupScope: 'chat' as const } },
    { name: 'topic group: the root post and a reply in its topic', a: msg({ mentionsBot: true, messageId: 'om_root', place: group() }), b: msg({ messageId: 'om_2', place: group({ rootId: 'om_root' }) }), bot: BOT },
  ];
  it.each(sameOrder)('one session, one order: $name', ({ a, b, bot }) => {
    expect(orderKeyOf(a, bot)).toBe(orderKeyOf(b, bot));
  });
  it('two top-level posts in a topic group are two sessions, ordered apart', () => {
    expect(orderKeyOf(msg({ mentionsBot: true, place: group() }), BOT)).not.toBe(orderKeyOf(msg({ mentionsBot: true, messageId: 'om_2', place: group() }), BOT));
  });

  it('a message in the bot’s own topic needs no mention and continues the session', () => {
    const s = session('om_root');
    const d = routeMessage(input(msg({ place: group({ rootId: 'om_root' }) }), {}, [s]));
    expect(d).toMatchObject({ kind: 'prompt', sessionKey: s.key, isNewSession: false });
  });
  it('two bots in one topic get different session keys', () => {
    const m = msg({ mentionsBot: true, place: group({ rootId: 'om_root' }) });
    expect(anchorOf(m, BOT).sessionKey).not.toBe(anchorOf({ ...m, appId: APP2 }, { ...BOT, appId: APP2 }).sessionKey);
  });
});

describe('routeMessage: replies, pairing, commands', () => {
  it('a stranger is told once, then ignored', () => {
    const m = msg({ senderId: 'ou_stranger' });
    const first = routeMessage(input(m));
    expect(first).toMatchObject({ kind: 'reply', onceKey: 'denied:oc_p2p:ou_stranger' });
    expect(first.kind === 'reply' && first.text).toContain('/grant ou_stranger');
    expect(routeMessage(input(m, { noticesSent: new Set(['denied:oc_p2p:ou_stranger']) }))).toEqual({ kind: 'ignore', reason: 'notice_already_sent' });
  });
  it('an image gets a clear reply', () => {
    const d = routeMessage(input(msg({ text: '', unsupportedType: 'image' })));
    expect(d.kind === 'reply' && d.text).toMatch(/only pass text.*image/);
  });
  it.each([
    ['image', '这条图片消息没有发送'], ['file', '这条文件消息没有发送'], ['location', '这条location消息没有发送'],
  ])('in Chinese, a %s is named as a Chinese reader calls it', (type, want) => {
    const d = routeMessage(input(msg({ text: '', unsupportedType: type }), { t: translator('zh-CN') }));
    expect(d.kind === 'reply' && d.text).toContain(want);
  });
  it('in Chinese, a stranger is told how to get access', () => {
    const d = routeMessage(input(msg({ senderId: 'ou_stranger' }), { t: translator('zh-CN') }));
    expect(d).toMatchObject({ kind: 'reply', text: '你没有使用这个机器人的权限。请让它的所有者发送 /grant ou_stranger。' });
  });
  it('a bare mention gets a hint', () => {
    expect(routeMessage(input(msg({ text: '  ', mentionsBot: true, place: group() })))).toMatchObject({ kind: 'reply', text: expect.stringContaining('/help') });
  });
  it('a closed bot: a code-shaped p2p message is a pairing attempt', () => {
    expect(routeMessage(input(msg({ senderId: 'ou_x', text: 'LMX-ABCD-EFGH' }), { pairingOpen: true }))).toMatchObject({ kind: 'pair', userId: 'ou_x', text: 'LMX-ABCD-EFGH' });
  });
  it('a closed bot: a code in a group is refused; other text gets the not-paired notice once', () => {
    expect(routeMessage(input(msg({ text: 'LMX-ABCD-EFGH', mentionsBot: true, place: group() }), { pairingOpen: true }))).toMatchObject({ kind: 'reply', text: expect.stringContaining('direct chat') });
    expect(routeMessage(input(msg({ text: 'hi' }), { pairingOpen: true }))).toMatchObject({ kind: 'reply', onceKey: 'unpaired:oc_p2p:ou_alice' });
  });
  it('a granted guest and a peer bot may talk', () => {
    expect(routeMessage(input(msg({ senderId: 'ou_guest' })))).toMatchObject({ kind: 'prompt' });
    expect(routeMessage(input(msg({ senderId: 'ou_peer', senderType: 'bot', mentionsBot: true, place: group() })))).toMatchObject({ kind: 'prompt' });
  });
  it.each([
    { text: '/cd ~/x', want: { kind: 'command', command: 'cd', args: '~/x' } },
    { text: '/model sonnet', want: { kind: 'passthrough', text: '/model sonnet', isNewSession: true } },
    { text: '//cd', want: { kind: 'prompt', text: '/cd' } },
  ])('$text', ({ text, want }) => {
    expect(routeMessage(input(msg({ text })))).toMatchObject({ ...want, sessionKey: `oc_p2p::${APP}` });
  });
});

describe('routeCardAction', () => {
  const s = { ...session('om_root'), requesterId: 'ou_guest' };
  const tap = (value: InboundCardAction['value'], operatorId: string): InboundCardAction => ({ kind: 'card_action', appId: APP, eventId: 'e', messageId: 'om_card', chatId: 'oc_group', operatorId, value });
  const rows = [
    { name: 'operator presses a key', value: { action: 'key' as const, sessionId: s.id, key: 'ctrl_c' as const }, user: 'ou_alice', kind: 'act' },
    { name: 'talk-only guest presses a key', value: { action: 'key' as const, sessionId: s.id, key: 'ctrl_c' as const }, user: 'ou_guest', kind: 'deny' },
    { name: 'guest changes display', value: { action: 'display' as const, sessionId: s.id, mode: 'text' as const }, user: 'ou_guest', kind: 'deny' },
    // Talk never yields operate (issue 13 finding 6): a guest cannot get a web-terminal write link from a card.
    { name: 'talk-only guest asks for a write link', value: { action: 'write_link' as const, sessionId: s.id }, user: 'ou_guest', kind: 'deny' },
    { name: 'operator asks for a write link', value: { action: 'write_link' as const, sessionId: s.id }, user: 'ou_alice', kind: 'act' },
    { name: 'guest asks for a screen', value: { action: 'screen' as const, sessionId: s.id }, user: 'ou_guest', kind: 'act' },
    { name: 'the requester answers the selection', value: { action: 'select' as const, sessionId: s.id, promptId: 'p', optionIndex: 0 }, user: 'ou_guest', kind: 'act' },
    { name: 'a stranger answers the selection', value: { action: 'select' as const, sessionId: s.id, promptId: 'p', optionIndex: 0 }, user: 'ou_stranger', kind: 'deny' },
    { name: 'guest picks a project', value: { action: 'project' as const, anchorKey: s.key, path: '/x' }, user: 'ou_guest', kind: 'deny' },
    { name: 'operator picks a project', value: { action: 'project' as const, anchorKey: s.key, path: '/x' }, user: 'ou_alice', kind: 'act' },
  ];
  it.each(rows)('$name → $kind', ({ value, user, kind }) => {
    const d = routeCardAction({ action: tap(value, user), bot: BOT, grants: GRANTS, duplicate: false, sessionById: (id) => (id === s.id ? s : undefined), selectionRequester: () => 'ou_guest', t: EN });
    expect(d.kind).toBe(kind);
  });
  it("a talker who posted last in the owner's topic cannot answer the owner's prompt (issue 13 finding 8)", () => {
    // The guest's message made them the session's latest requester; the prompt came from the owner's turn.
    const select = { action: 'select' as const, sessionId: s.id, promptId: 'p', optionIndex: 0 };
    const route = (user: string, bound: string | undefined) =>
      routeCardAction({ action: tap(select, user), bot: BOT, grants: GRANTS, duplicate: false, sessionById: () => s, selectionRequester: () => bound, t: EN }).kind;
    expect(route('ou_guest', 'ou_alice')).toBe('deny');
    expect(route('ou_guest', undefined)).toBe('deny');
    expect(route('ou_alice', 'ou_guest')).toBe('act');
  });
  it('unknown session and duplicates are ignored', () => {
    const v = { action: 'close' as const, sessionId: 'f'.repeat(32) };
    expect(routeCardAction({ action: tap(v, 'ou_alice'), bot: BOT, grants: NO_GRANTS, duplicate: false, sessionById: () => undefined, t: EN })).toEqual({ kind: 'ignore', reason: 'unknown_session' });
    expect(routeCardAction({ action: tap(v, 'ou_alice'), bot: BOT, grants: NO_GRANTS, duplicate: true, sessionById: () => s, t: EN })).toEqual({ kind: 'ignore', reason: 'duplicate' });
  });
});

describe('routeRejected', () => {
  const base = { appId: APP, reason: 'content is not JSON', eventId: 'e', messageId: 'om_bad', place: { chatId: 'oc_p2p', chatType: 'p2p' as const }, senderId: 'ou_alice' };
  it.each([
    { name: 'an allowed user in p2p gets a clear reply', r: base, over: {}, want: { kind: 'reply', text: REJECTED_REPLY, replyTo: 'om_bad' } },
    { name: 'in a group we cannot tell it was for us', r: { ...base, place: { chatId: 'oc_g', chatType: 'group' as const } }, over: {}, want: { kind: 'ignore', reason: 'unroutable' } },
    { name: 'no place known', r: { appId: APP, reason: 'x' }, over: {}, want: { kind: 'ignore', reason: 'unroutable' } },
    { name: 'a stranger gets nothing', r: { ...base, senderId: 'ou_stranger' }, over: {}, want: { kind: 'ignore', reason: 'not_allowed' } },
    { name: 'a closed bot says nothing', r: base, over: { pairingOpen: true }, want: { kind: 'ignore', reason: 'not_allowed' } },
    { name: 'a redelivery is ignored', r: base, over: { duplicate: true }, want: { kind: 'ignore', reason: 'duplicate' } },
  ])('$name', ({ r, over, want }) => {
    expect(routeRejected({ rejected: r, bot: BOT, grants: GRANTS, duplicate: false, pairingOpen: false, t: EN, ...over })).toMatchObject(want);
  });
});

describe('card buttons are commands in the one table and take their level', () => {
  const ACTIONS = CardActionValueSchema.options.map((o) => o.shape.action.value);
  it.each(ACTIONS)('%s is answered by exactly one command', (action) => {
    const entry = COMMAND_TABLE.byTap.get(action);
    expect(entry, `no command answers ${action}`).toBeDefined();
    expect(cardActionLevel(action)).toBe(entry!.command.level);
  });
  it.each([
    { action: 'key', command: 'key', level: 'operate', typed: false },
    { action: 'select', command: 'select', level: 'operate', typed: false },
    { action: 'display', command: 'display', level: 'operate', typed: true },
    { action: 'write_link', command: 'term', level: 'operate', typed: true },
    { action: 'close', command: 'close', level: 'operate', typed: true },
    { action: 'project', command: 'cd', level: 'operate', typed: true },
    { action: 'adopt', command: 'adopt', level: 'operate', typed: true },
    { action: 'screen', command: 'screen', level: 'talk', typed: true },
  ] as const)('$action → $command ($level)', ({ action, command, level, typed }) => {
    expect(COMMAND_TABLE.byTap.get(action)?.command.name).toBe(command);
    expect(cardActionLevel(action)).toBe(level);
    // A typed twin is the same entry a person reaches with /name; a button-only command is not typeable.
    expect(COMMAND_TABLE.byName.get(command) === COMMAND_TABLE.byTap.get(action)?.command).toBe(typed);
  });
  it('a card action answered twice is a bug in the table', () => {
    const twice = { name: 'again', level: 'operate', taps: { key: async () => undefined } } as const;
    expect(() => buildCommandTable([], [twice, twice])).toThrow(/answered twice/);
  });
});
