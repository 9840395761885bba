// The real SDK over the long connection against the fake platform: connect, receive, reconnect, duplicates, malformed events, secrets.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import type { InboundMessage } from '../../src/daemon/im/types.js';

let h: LarkHarness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.cleanup(); });

const messages = (evs: unknown[]) => evs.filter((e): e is InboundMessage => (e as InboundMessage).kind === 'message');

describe('lark long connection', () => {
  it('connects and receives a p2p text message', async () => {
    const p = h.makeAdapter();
    const res = await connectProbe(p);
    expect(res.ok).toBe(true);
    expect(p.adapter.state().state).toBe('connected');
    expect(p.adapter.botOpenId).toBe(h.fake.app().botOpenId);
    const sent = await h.fake.injectMessage({ chatType: 'p2p', text: 'hello there' });
    expect(sent.ack?.code).toBe(200);
    const ev = await h.fake.waitFor(() => messages(p.events)[0]);
    expect(ev).toMatchObject({
      kind: 'message', appId: TEST_APPS[0]!.appId, eventId: sent.eventId, messageId: sent.messageId,
      place: { chatId: sent.chatId, chatType: 'p2p' }, senderId: h.fake.defaultUser, senderType: 'user',
      text: 'hello there', mentionsBot: false,
    });
    expect(h.fake.pingsReceived).toBeGreaterThan(0);
  });

  it('receives a group thread message that mentions the bot, with the mention stripped and others named', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const sent = await h.fake.injectMessage({
      chatType: 'group', rootId: 'om_root_1', text: 'deploy @_user_1 staging', mentions: [{ openId: 'ou_someone', name: 'Ann' }], mentionBot: true,
    });
    const ev = await h.fake.waitFor(() => messages(p.events)[0]);
    expect(ev.place).toEqual({ chatId: sent.chatId, chatType: 'group', rootId: 'om_root_1', threadId: sent.threadId });
    expect(ev.text).toBe('deploy @Ann staging');
    expect(ev.mentionsBot).toBe(true);
  });

  it('a group message that mentions only someone else is not a mention of the bot', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    await h.fake.injectMessage({ chatType: 'group', text: '@_user_1 look', mentions: [{ openId: 'ou_other', name: 'Bo' }] });
    const ev = await h.fake.waitFor(() => messages(p.events)[0]);
    expect(ev.mentionsBot).toBe(false);
    expect(ev.text).toBe('@Bo look');
  });

  it('a large event arrives intact through fragmented frames', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const big = 'line of text 0123456789\n'.repeat(1500);
    await h.fake.injectMessage({ text: big });
    const ev = await h.fake.waitFor(() => messages(p.events)[0]);
    expect(ev.text).toBe(big.trim());
  });

  it('reconnects after the websocket is dropped and the next message arrives', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    h.fake.dropConnections();
    await h.fake.waitFor(() => p.states.some((s) => s.state === 'reconnecting'), 5000, 'reconnecting state');
    await h.fake.waitFor(() => p.adapter.state().state === 'connected' && h.fake.connectionCount() === 1, 10_000, 'reconnected');
    await h.fake.injectMessage({ text: 'after the drop' });
    const ev = await h.fake.waitFor(() => messages(p.events).find((e) => e.text === 'after the drop'));
    expect(ev.text).toBe('after the drop');
    expect(h.fake.connectionsOpened).toBe(2);
  });

  it('a message injected while the socket is down is delivered after the reconnect', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    h.fake.dropConnections();
    const pending = h.fake.injectMessage({ text: 'sent during the outage' });
    const ev = await h.fake.waitFor(() => messages(p.events).find((e) => e.text === 'sent during the outage'), 10_000);
    expect((await pending).ack?.code).toBe(200);
    expect(ev.messageId).toBeTruthy();
  });

  it('the same event delivered twice reaches the handler twice with the same eventId', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    const sent = await h.fake.injectMessage({ text: 'once please', deliverTwice: true });
    await h.fake.waitFor(() => messages(p.events).length === 2);
    const [a, b] = messages(p.events);
    expect(a!.eventId).toBe(sent.eventId);
    expect(b!.eventId).toBe(sent.eventId);
    expect(a!.messageId).toBe(b!.messageId);
  });

  it('malformed events become rejections or flagged messages, never a crash', async () => {
    const p = h.makeAdapter();
    await connectProbe(p);
    await h.fake.injectMessage({ content: 'this is {not json', chatType: 'p2p' });
    await h.fake.injectMessage({ messageType: 'sticker', content: JSON.stringify({ file_key: 'file_x' }) });
    await h.fake.injectRaw(JSON.stringify({ schema: '2.0', header: { event_id: 'ev_broken', event_type: 'im.message.receive_v1' }, event: { message: { chat_type: 'p2p' } } }));
    const raw = await h.fake.injectRaw('this is not an envelope at all', { ackTimeoutMs: 500 });
    expect(raw).toBeNull();
    await h.fake.injectMessage({ text: 'still alive' });
    await h.fake.waitFor(() => messages(p.events).find((e) => e.text === 'still alive'));
    expect(p.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('not a JSON object'),
      expect.stringContaining('malformed message event'),
    ]);
    expect(p.rejected[0]!.place?.chatType).toBe('p2p');
    expect(p.rejected[1]!.eventId).toBe('ev_broken');
    const sticker = messages(p.events).find((e) => e.unsupportedType);
    expect(sticker).toMatchObject({ unsupportedType: 'sticker', text: '' });
    expect(h.logText()).toContain('inbound event rejected');
  });

  it('an app id the SDK would silently ignore is reported as failed', async () => {
    const p = h.makeAdapter(undefined, { botAppId: 'cli_not-hex' });
    const res = await connectProbe(p);
    expect(res.ok).toBe(false);
    expect(p.adapter.state()).toMatchObject({ state: 'failed', detail: expect.stringContaining('16 hex digits') });
  });

  it('a wrong secret is reported as failed, and the secret never reaches the log', async () => {
    const p = h.makeAdapter(undefined, { secret: 'wrong-secret-value-123' });
    const res = await connectProbe(p);
    expect(res).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(p.states.at(-1)?.state).toBe('failed');
    expect(h.logText()).not.toContain('wrong-secret-value-123');
  });

  it('a fatal bootstrap code stops the client with a state that says why', async () => {
    h.fake.failNext('ws_endpoint', 1, { status: 200, code: 403, msg: 'forbidden' });
    const p = h.makeAdapter();
    const res = await connectProbe(p);
    expect(res.ok).toBe(false);
    expect(p.adapter.state()).toMatchObject({ state: 'failed', detail: expect.stringContaining('persistent connection') });
  });

  it('never writes the app secret or a token to the log, even when the token endpoint fails', async () => {
    h.fake.failNext('token', 1, { status: 500, code: 1, msg: 'boom' });
    const p = h.makeAdapter();
    await connectProbe(p);
    const r = await p.adapter.sendText({ chatId: 'oc_x', chatType: 'group' }, 'hi');
    expect(r.ok).toBe(true);
    h.fake.revokeTokens();
    await p.adapter.sendText({ chatId: 'oc_x', chatType: 'group' }, 'again');
    const log = h.logText();
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(TEST_APPS[0]!.appSecret);
    expect(log).not.toMatch(/t-[0-9a-f]{40}/);
    expect(log).not.toMatch(/ticket=[0-9a-f]/);
  });

  it('two bots on one platform each get their own connection and events', async () => {
    const a = h.makeAdapter(TEST_APPS[0]!.appId);
    const b = h.makeAdapter(TEST_APPS[1]!.appId);
    await connectProbe(a);
    await connectProbe(b);
    const chatId = 'oc_shared_group';
    await h.fake.injectMessage({ appId: TEST_APPS[1]!.appId, chatType: 'group', chatId, text: 'for beta', mentionBot: true });
    const ev = await h.fake.waitFor(() => messages(b.events)[0]);
    expect(ev).toMatchObject({ appId: TEST_APPS[1]!.appId, mentionsBot: true, text: 'for beta' });
    expect(messages(a.events)).toHaveLength(0);
    expect(h.fake.connectionCount(TEST_APPS[0]!.appId)).toBe(1);
    expect(h.fake.connectionCount(TEST_APPS[1]!.appId)).toBe(1);
  });
});
