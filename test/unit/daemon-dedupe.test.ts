// Inbound dedupe: an event is handled once, across restarts, within bounds.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEDUPE_LIMITS, InboundDedupe, dedupeKeysOf } from '../../src/daemon/inbound/dedupe.js';
import type { InboundCardAction, InboundMessage } from '../../src/daemon/im/types.js';
import { larkmuxPaths } from '../../src/platform/paths.js';

const APP = 'cli_0123456789abcdef';
let home: string;
let now: number;
beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'lmx-dedupe-')); now = 1_800_000_000_000; });
afterEach(() => rmSync(home, { recursive: true, force: true }));

const message = (eventId: string | undefined, messageId: string): InboundMessage => ({
  kind: 'message', appId: APP, ...(eventId ? { eventId } : {}), messageId, place: { chatId: 'oc', chatType: 'p2p' }, senderId: 'ou', senderType: 'user', text: 'x', mentionsBot: false, createTime: 0,
});
const tap = (eventId: string): InboundCardAction => ({ kind: 'card_action', appId: APP, eventId, messageId: 'om_card', chatId: 'oc', operatorId: 'ou', value: { action: 'screen', sessionId: 's' } });
const make = () => new InboundDedupe({ path: larkmuxPaths(home).dedupeStore, now: () => now });

describe('InboundDedupe', () => {
  it('a redelivered event (same event id or same message id) is a repeat', async () => {
    const d = make();
    await d.load();
    expect(d.firstSeenEvent(message('e1', 'om_1'))).toBe(true);
    expect(d.firstSeenEvent(message('e1', 'om_1'))).toBe(false);
    expect(d.firstSeenEvent(message('e2', 'om_1'))).toBe(false);
    expect(d.firstSeenEvent(message(undefined, 'om_1'))).toBe(false);
    expect(d.firstSeenEvent(message('e3', 'om_2'))).toBe(true);
    await d.dispose();
  });
  it('two taps on one card are two events; the same tap redelivered is one', async () => {
    const d = make();
    await d.load();
    expect(dedupeKeysOf(tap('t1'))).toEqual([`ev:${APP}:t1`]);
    expect(d.firstSeenEvent(tap('t1'))).toBe(true);
    expect(d.firstSeenEvent(tap('t2'))).toBe(true);
    expect(d.firstSeenEvent(tap('t1'))).toBe(false);
    await d.dispose();
  });
  it('two bots in one chat both handle the same message', async () => {
    const d = make();
    await d.load();
    expect(d.firstSeenEvent(message('e1', 'om_1'))).toBe(true);
    expect(d.firstSeenEvent({ ...message('e1', 'om_1'), appId: 'cli_fedcba9876543210' })).toBe(true);
    await d.dispose();
  });
  it('remembers across a restart', async () => {
    const d = make();
    await d.load();
    d.firstSeenEvent(message('e1', 'om_1'));
    await d.dispose();
    const again = make();
    expect(await again.load()).toEqual({ ok: true, count: 2 });
    expect(again.firstSeenEvent(message('e1', 'om_1'))).toBe(false);
    await again.dispose();
  });
  it('forgets ids older than a day and keeps at most maxIds', async () => {
    const d = new InboundDedupe({ path: larkmuxPaths(home).dedupeStore, now: () => now, limits: { maxIds: 3 } });
    await d.load();
    for (const id of ['a', 'b', 'c', 'd']) d.firstSeen([id]);
    expect(d.size).toBe(3);
    expect(d.firstSeen(['a'])).toBe(true); // the oldest was dropped
    now += DEDUPE_LIMITS.maxAgeMs + 1;
    expect(d.firstSeen(['z'])).toBe(true);
    expect(d.size).toBe(1);
    await d.dispose();
  });
  it('a damaged file is moved aside and reported', async () => {
    writeFileSync(larkmuxPaths(home).dedupeStore, '{"format":"larkmux-seen-ev');
    const d = make();
    expect(await d.load()).toMatchObject({ ok: false, code: 'corrupt' });
    expect(readdirSync(home).some((n) => n.startsWith('seen-events.json.corrupt-'))).toBe(true);
    await d.dispose();
  });
});
