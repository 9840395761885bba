// Webhook authentication (issue 13 finding 1): forged events are refused, whatever the bot's webhook settings.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/shared/config.js';
import { InboundDedupe } from '../../src/daemon/inbound/dedupe.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';

let h: LarkHarness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.cleanup(); });

const app = TEST_APPS[1]!;

/** What an attacker who knows the URL posts: a well-formed v2 message event "from" someone, with any token. */
function forgedEvent(text: string, token: string): string {
  return JSON.stringify({
    schema: '2.0',
    header: { event_id: `ev_${text}`, token, create_time: String(Date.now()), event_type: 'im.message.receive_v1', tenant_key: 't', app_id: app.appId },
    event: {
      sender: { sender_id: { open_id: 'ou_owner', union_id: 'on_x', user_id: 'u' }, sender_type: 'user', tenant_key: 't' },
      message: { message_id: `om_${text}`, chat_id: 'oc_p2p_forged', chat_type: 'p2p', message_type: 'text', content: JSON.stringify({ text }), create_time: String(Date.now()) },
    },
  });
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.text();
  return res.status;
}

describe('webhook authentication', () => {
  it('with only a verificationToken: an event with a wrong or missing token is refused, the real one passes', async () => {
    const p = h.makeAdapter(app.appId, { webhook: { port: 0, path: '/hook' }, botOverrides: { events: 'webhook', verificationToken: 'vt-real-123' } });
    expect((await connectProbe(p)).ok).toBe(true);
    const url = `http://127.0.0.1:${p.adapter.webhookPort}/hook`;
    expect(await post(url, forgedEvent('forged-wrong', 'guessed-token'))).toBe(401);
    expect(await post(url, forgedEvent('forged-none', ''))).toBe(401);
    h.fake.setWebhook(app.appId, { url, verificationToken: 'vt-real-123' });
    await h.fake.injectMessage({ appId: app.appId, text: 'genuine' });
    await h.fake.waitFor(() => p.events.find((e) => e.kind === 'message' && e.text === 'genuine'));
    expect(p.events.some((e) => e.kind === 'message' && e.text.startsWith('forged'))).toBe(false);
    // A card tap carries the token too.
    p.onCardAction = async () => ({ toast: { type: 'info', content: 'ok' } });
    const tap = await h.fake.injectCardAction({ appId: app.appId, messageId: 'om_1', value: { action: 'screen', sessionId: 's9' } });
    expect(tap.response).toEqual({ toast: { type: 'info', content: 'ok' } });
  });

  it('with an encryptKey: a non-numeric or stale timestamp is refused even with a matching signature', async () => {
    const key = 'enc-key-77';
    const p = h.makeAdapter(app.appId, { webhook: { port: 0, path: '/hook' }, botOverrides: { events: 'webhook', encryptKey: key } });
    expect((await connectProbe(p)).ok).toBe(true);
    const url = `http://127.0.0.1:${p.adapter.webhookPort}/hook`;
    const signed = (ts: string, body: string) => ({
      'x-lark-request-timestamp': ts, 'x-lark-request-nonce': 'n1',
      'x-lark-signature': createHash('sha256').update(ts + 'n1' + key + body).digest('hex'),
    });
    const b1 = forgedEvent('forged-nan', 'x');
    expect(await post(url, b1, signed('not-a-number', b1))).toBe(401);
    const b2 = forgedEvent('forged-old', 'x');
    expect(await post(url, b2, signed(String(Math.floor(Date.now() / 1000) - 3600), b2))).toBe(401);
    const b3 = forgedEvent('forged-badsig', 'x');
    expect(await post(url, b3, { ...signed(String(Math.floor(Date.now() / 1000)), b3), 'x-lark-signature': '0'.repeat(64) })).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect(p.events.some((e) => e.kind === 'message')).toBe(false);
  });

  it('with an encryptKey: a replay inside the window passes the check and is deduplicated, not refused (what docs/operations.md says)', async () => {
    const key = 'enc-key-78';
    const p = h.makeAdapter(app.appId, { webhook: { port: 0, path: '/hook' }, botOverrides: { events: 'webhook', encryptKey: key } });
    expect((await connectProbe(p)).ok).toBe(true);
    const url = `http://127.0.0.1:${p.adapter.webhookPort}/hook`;
    const body = forgedEvent('replayed', 'x');
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = { 'x-lark-request-timestamp': ts, 'x-lark-request-nonce': 'n1', 'x-lark-signature': createHash('sha256').update(ts + 'n1' + key + body).digest('hex') };
    expect(await post(url, body, headers)).toBe(200);
    expect(await post(url, body, headers)).toBe(200);
    const replayed = () => p.events.filter((e) => e.kind === 'message' && e.text === 'replayed');
    await h.fake.waitFor(() => replayed().length === 2, 10_000, 'both deliveries reach the adapter');
    // The daemon's dedupe (bot-runtime.ts: firstSeenEvent before anything is handled) takes the first and drops the repeat.
    const dir = mkdtempSync(join(tmpdir(), 'lmx-replay-'));
    try {
      const dedupe = new InboundDedupe({ path: join(dir, 'seen-events.json') });
      await dedupe.load();
      expect(replayed().map((e) => dedupe.firstSeenEvent(e))).toEqual([true, false]);
      await dedupe.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('webhook mode with neither encryptKey nor verificationToken does not start, and says what to set', async () => {
    const p = h.makeAdapter(app.appId, { webhook: { port: 0, path: '/hook' }, botOverrides: { events: 'webhook' } });
    const res = await connectProbe(p);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.message).toMatch(/encryptKey.*verificationToken|verificationToken.*encryptKey/);
    expect(p.adapter.webhookPort ?? 0).toBe(0);
    const cfg = parseConfig({ bots: [{ name: 'w', appId: app.appId, appSecret: 'x-secret-1', events: 'webhook', cli: 'claude-code' }] }, {});
    expect(cfg.ok).toBe(false);
    if (!cfg.ok) expect(cfg.errors.join('\n')).toMatch(/bots\[0\].*encryptKey.*verificationToken/);
  });
});
