// Pairing codes and the bot-state file: the first user with the exact code becomes the owner; grants persist.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotState, botStatePath, generatePairingCode, looksLikePairingCode, pairingCodeMatches } from '../../src/daemon/ground/pairing.js';

const APP = 'cli_0123456789abcdef';
const CLOSED = { allowedUsers: [], allowedChats: [] };
let home: string;
beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'lmx-pair-')); });
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('codes', () => {
  it('look like LMX-XXXX-XXXX from the unambiguous alphabet', () => {
    const code = generatePairingCode();
    expect(code).toMatch(/^LMX-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(generatePairingCode()).not.toBe(code);
  });
  it.each([
    { text: 'LMX-ABCD-EFGH', shape: true, match: true },
    { text: ' lmx-abcd-efgh ', shape: true, match: true },
    { text: 'LMXABCDEFGH', shape: true, match: true },
    { text: 'LMX-ABCD-EFGJ', shape: true, match: false },
    { text: 'LMX-ABCD', shape: false, match: false },
    { text: 'hello there', shape: false, match: false },
  ])('$text', ({ text, shape, match }) => {
    expect(looksLikePairingCode(text)).toBe(shape);
    expect(pairingCodeMatches(text, 'LMX-ABCD-EFGH')).toBe(match);
  });
});

describe('BotState', () => {
  it('a closed bot gets one code; the first user with it becomes the owner, persisted; the code is then dead', async () => {
    const st = new BotState({ home, appId: APP });
    expect(await st.load()).toEqual({ ok: true });
    const code = st.pairingCode(CLOSED)!;
    expect(st.pairingCode(CLOSED)).toBe(code);
    expect(await st.tryPair('ou_mallory', 'LMX-2222-2222')).toMatchObject({ ok: false, code: 'mismatch' });
    expect(await st.tryPair('ou_alice', code.toLowerCase())).toEqual({ ok: true, ownerId: 'ou_alice' });
    expect(await st.tryPair('ou_bob', code)).toEqual({ ok: false, code: 'not_pairing' });
    expect(st.pairingCode(CLOSED)).toBeNull();
    const file = readFileSync(botStatePath(home, APP), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ ownerId: 'ou_alice' });
    expect(file).not.toContain(code);

    const again = new BotState({ home, appId: APP });
    await again.load();
    expect(again.ownerId).toBe('ou_alice');
    expect(again.needsPairing(CLOSED)).toBe(false);
  });
  it('a bot with an allowlist never offers pairing', async () => {
    const st = new BotState({ home, appId: APP });
    await st.load();
    expect(st.pairingCode({ allowedUsers: ['ou_a'], allowedChats: [] })).toBeNull();
  });
  it("a stranger's wrong guesses lock out that stranger and never change the printed code (issue 13 finding 9)", async () => {
    const st = new BotState({ home, appId: APP });
    await st.load();
    const code = st.pairingCode(CLOSED)!;
    const results = [];
    for (let i = 0; i < 12; i++) results.push(await st.tryPair('ou_m', 'LMX-2222-2222'));
    expect(results[0]).toEqual({ ok: false, code: 'mismatch', attemptsLeft: 4 });
    expect(results.slice(4).every((r) => !r.ok && r.code === 'locked')).toBe(true);
    // Locked means locked: even the right code from that sender pairs nobody.
    expect(await st.tryPair('ou_m', code)).toEqual({ ok: false, code: 'locked' });
    expect(st.pairingCode(CLOSED)).toBe(code);
    // Another person's count is their own; the owner pairs with the code that was printed at start.
    expect(await st.tryPair('ou_a', 'LMX-3333-3333')).toEqual({ ok: false, code: 'mismatch', attemptsLeft: 4 });
    expect(await st.tryPair('ou_a', code)).toEqual({ ok: true, ownerId: 'ou_a' });
  });
  it('grants persist and revoke reports whether anything changed', async () => {
    const st = new BotState({ home, appId: APP });
    await st.load();
    expect(await st.grantTalk({ user: 'ou_g' })).toBe(true);
    expect(await st.grantTalk({ user: 'ou_g' })).toBe(false);
    expect(await st.grantTalk({ chat: 'oc_c' })).toBe(true);
    const again = new BotState({ home, appId: APP });
    await again.load();
    expect(again.grants()).toEqual({ talkUsers: ['ou_g'], talkChats: ['oc_c'], peerBots: [] });
    expect(await again.revokeTalk({ user: 'ou_g' })).toBe(true);
    expect(await again.revokeTalk({ user: 'ou_g' })).toBe(false);
  });
  it('a damaged bot-state file is moved aside and reported, not silently replaced', async () => {
    writeFileSync(botStatePath(home, APP), '{"format":"larkmux-bot-state","version":1,"ownerId":"ou_al');
    const st = new BotState({ home, appId: APP });
    const res = await st.load();
    expect(res).toMatchObject({ ok: false, code: 'corrupt' });
    expect(readdirSync(home).some((n) => n.startsWith(`bot-state-${APP}.json.corrupt-`))).toBe(true);
  });
});
