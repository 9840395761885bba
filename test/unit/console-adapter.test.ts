// ConsoleAdapter as the core sees it: page requests become InboundEvents, cards and texts land in the right topic.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardModel } from '../../src/shared/card-model.js';
import type { ConsoleServerMessage } from '../../src/shared/console-protocol.js';
import { createLogger } from '../../src/platform/log.js';
import { CONSOLE_CHAT_LIMITS, ConsoleChat } from '../../src/daemon/im/local/console-chat.js';
import { ConsoleAdapter, CONSOLE_USER_ID } from '../../src/daemon/im/local/console-adapter.js';
import type { InboundEvent } from '../../src/daemon/im/types.js';

const log = createLogger({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup(home?: string) {
  const adapter = new ConsoleAdapter({
    logger: log,
    clis: [{ id: 'cli0', label: 'shell', spec: 'shell' }, { id: 'cli1', label: 'codex', spec: 'codex' }],
    projects: [{ label: 'w', path: '/w' }, { label: 'p', path: '/p' }],
    ...(home ? { home } : {}),
  });
  const events: InboundEvent[] = [];
  const sent: ConsoleServerMessage[] = [];
  await adapter.connect({ onEvent: async (ev) => { events.push(ev); return ev.kind === 'card_action' ? { toast: { type: 'info', content: 'Key sent' } } : undefined; } });
  adapter.subscribe((m) => sent.push(m));
  return { adapter, events, sent };
}

const stream = (sessionId: string, status: 'working' | 'idle' = 'working'): CardModel => ({
  kind: 'stream', sessionId, title: 't', status, display: 'screenshot', keys: ['ctrl_c'], buttons: [], frozen: false,
});

describe('ConsoleAdapter', () => {
  it('a new topic is a message that opens a session with the chosen CLI and folder; later messages stay in its thread', async () => {
    const { adapter, events, sent } = await setup();
    await adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r1', cli: 'cli1', project: '/p', text: 'fix the bug\nplease' });
    const first = events[0]!;
    expect(first).toMatchObject({ kind: 'message', appId: 'console', senderId: CONSOLE_USER_ID, senderType: 'user', mentionsBot: true, text: 'fix the bug\nplease', newSession: { cli: 'codex', cwd: '/p' } });
    if (first.kind !== 'message') throw new Error('not a message');
    expect(first.place).toEqual({ chatId: 'console', chatType: 'group' });
    const topic = sent.find((m) => m.type === 'topic');
    expect(topic).toMatchObject({ type: 'topic', requestId: 'r1', topic: { id: first.messageId, title: 'fix the bug', cli: 'codex', project: '/p' } });

    await adapter.receive(CONSOLE_USER_ID, { type: 'send', topicId: first.messageId, text: '$(rm -rf ~) 中文 😀' });
    const second = events[1]!;
    expect(second.kind === 'message' && second.place.rootId).toBe(first.messageId);
    expect(second.kind === 'message' && second.text).toBe('$(rm -rf ~) 中文 😀');
    // The topic's choice rides along (used only if the session was closed in between).
    expect(second.kind === 'message' && second.newSession).toEqual({ cli: 'codex', cwd: '/p' });
    expect(new Set(events.map((e) => e.messageId)).size).toBe(2);
  });

  it.each([
    [{ cli: 'cli9', project: '/p' }, 'unknown_cli'],
    [{ cli: 'cli0', project: '/etc' }, 'unknown_project'],
  ])('refuses a topic with %j (%s) and passes nothing on', async (choice, error) => {
    const { adapter, events } = await setup();
    expect(await adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r', text: 'x', ...choice })).toEqual({ error });
    expect(await adapter.receive(CONSOLE_USER_ID, { type: 'send', topicId: 'm_nope', text: 'x' })).toEqual({ error: 'unknown_topic' });
    expect(events).toHaveLength(0);
  });

  it('cards, texts and reactions land in the topic of the message they answer; a card is replaced in place', async () => {
    const { adapter, events, sent } = await setup();
    await adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r', cli: 'cli0', project: '/w', text: 'echo hi' });
    const topicId = events[0]!.messageId;
    const card = await adapter.sendCard({ chatId: 'console', chatType: 'group' }, stream('s1'), topicId);
    expect(card.ok).toBe(true);
    if (!card.ok) return;
    expect((await adapter.sendText({ chatId: 'console', chatType: 'group', rootId: topicId }, 'hi')).ok).toBe(true);
    expect((await adapter.updateCard(card.value, stream('s1', 'idle'))).ok).toBe(true);
    expect((await adapter.react(topicId, 'DONE')).ok).toBe(true);
    const entries = adapter.chat.snapshot().entries;
    expect(entries.map((e) => e.kind)).toEqual(['user', 'card', 'text']);
    expect(entries.every((e) => e.topicId === topicId)).toBe(true);
    expect(entries[1]!.kind === 'card' && entries[1]!.card.kind === 'stream' && entries[1]!.card.status).toBe('idle');
    expect(entries[0]!.kind === 'user' && entries[0]!.reaction).toBe('DONE');
    expect(sent.filter((m) => m.type === 'entry').length).toBe(5);
    // Nowhere to put it: an answer to an unknown message is an error value, not a throw.
    expect((await adapter.sendText({ chatId: 'console', chatType: 'group' }, 'x', 'm_unknown')).ok).toBe(false);
  });

  it('a tap counts only for the card it is on', async () => {
    const { adapter, events } = await setup();
    await adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r', cli: 'cli0', project: '/w', text: 'x' });
    const card = await adapter.sendCard({ chatId: 'console', chatType: 'group' }, stream('s1'), events[0]!.messageId);
    if (!card.ok) throw new Error('no card');
    const other = { type: 'action' as const, entryId: card.value.messageId, value: { action: 'key' as const, sessionId: 's2', key: 'ctrl_c' as const } };
    expect(await adapter.receive(CONSOLE_USER_ID, other)).toEqual({ error: 'unknown_button' });
    const mine = { ...other, value: { ...other.value, sessionId: 's1' } };
    expect(await adapter.receive(CONSOLE_USER_ID, mine)).toEqual({ toast: { type: 'info', content: 'Key sent' } });
    expect(events.at(-1)).toMatchObject({ kind: 'card_action', appId: 'console', messageId: card.value.messageId, operatorId: CONSOLE_USER_ID, value: mine.value });
  });

  it('the conversation is saved and comes back in a new adapter (a daemon restart)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'lmx-conchat-'));
    dirs.push(home);
    const a = await setup(home);
    await a.adapter.receive(CONSOLE_USER_ID, { type: 'new_topic', requestId: 'r', cli: 'cli0', project: '/w', text: 'first' });
    const topicId = a.events[0]!.messageId;
    const card = await a.adapter.sendCard({ chatId: 'console', chatType: 'group', rootId: topicId }, stream('s1'));
    await a.adapter.dispose();
    const b = await setup(home);
    const snap = b.adapter.chat.snapshot();
    expect(snap.topics.map((t) => t.id)).toEqual([topicId]);
    expect(snap.entries.map((e) => e.kind)).toEqual(['user', 'card']);
    // The old card is still patchable (the session's render state names it).
    if (card.ok) expect((await b.adapter.updateCard(card.value, stream('s1', 'idle'))).ok).toBe(true);
    await b.adapter.dispose();
  });
});

describe('ConsoleChat', () => {
  it('drops old screenshots but never one a card shows', () => {
    const chat = new ConsoleChat();
    chat.addTopic({ id: 't', title: 't', cli: 'shell', project: '/', createdAt: 0 });
    const shown = chat.addImage(new Uint8Array([1]));
    chat.put({ kind: 'card', id: 'c', topicId: 't', at: 0, card: { ...stream('s'), image: { ref: shown } } as CardModel });
    const refs = Array.from({ length: CONSOLE_CHAT_LIMITS.images + 5 }, () => chat.addImage(new Uint8Array([2])));
    expect(chat.image(shown)).toBeDefined();
    expect(chat.image(refs[0]!)).toBeUndefined();
    expect(chat.image(refs.at(-1)!)).toBeDefined();
  });
});
