// Pure pacing pieces of the Feishu delivery queue: rate windows, backoff, failure classification, the latest-wins patcher.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { AppBudget, CardPatcher, DELIVERY_LIMITS, RateWindow, backoffMs, type Clock, type Outcome } from '../../src/daemon/im/lark/delivery.js';
import { classify } from '../../src/daemon/im/lark/errors.js';
import { splitByBytes as splitBytes } from '../../src/shared/utf8-parts.js';
import { decodeFrame, encodeFrame } from '../support/fake-feishu/index.js';

describe('classify', () => {
  const cases: Array<[number | undefined, number | undefined, string]> = [
    [429, 99991400, 'rate_limited'], [400, 99991400, 'rate_limited'], [200, 230020, 'rate_limited'], [429, undefined, 'rate_limited'],
    [400, 99991663, 'token_rejected'], [200, 99991661, 'token_rejected'], [400, 99991668, 'token_rejected'],
    [400, 230011, 'message_gone'], [400, 230031, 'message_gone'],
    [500, 1, 'server_error'], [503, undefined, 'server_error'],
    [undefined, undefined, 'network'], [400, 230001, 'refused'], [200, 10014, 'refused'],
  ];
  for (const [status, code, want] of cases) it(`${status}/${code} → ${want}`, () => expect(classify(status, code)).toBe(want));
});

describe('RateWindow', () => {
  it('allows perSecond calls, then waits until the oldest leaves the window', () => {
    const w = new RateWindow(3, 100);
    for (const t of [0, 10, 20]) { expect(w.waitMs(t)).toBe(0); w.record(t); }
    expect(w.waitMs(30)).toBe(970);
    expect(w.waitMs(1000)).toBe(0);
  });
  it('enforces the per-minute cap', () => {
    const w = new RateWindow(100, 2);
    w.record(0); w.record(5000);
    expect(w.waitMs(6000)).toBe(54_000);
    expect(w.waitMs(60_000)).toBe(0);
  });
});

describe('backoffMs', () => {
  const limits = { backoffBaseMs: 200, backoffMaxMs: 5000 };
  const cases: Array<[number, number | undefined, number]> = [[0, undefined, 200], [1, undefined, 400], [4, undefined, 3200], [6, undefined, 5000], [0, 2, 2000], [0, 60, 5000]];
  for (const [attempt, reset, want] of cases) it(`attempt ${attempt} reset ${reset} → ${want}`, () => expect(backoffMs(attempt, limits, reset)).toBe(want));
});

describe('splitBytes', () => {
  it('keeps short text whole and splits long text under the byte limit without losing anything', () => {
    expect(splitBytes('abc', 10)).toEqual(['abc']);
    const text = '中文字符\n'.repeat(50);
    const parts = splitBytes(text, 64);
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(64);
  });
});

/** A clock whose sleeps resolve immediately while advancing time (no real waiting, deterministic). */
function fakeClock(): Clock & { t: number } {
  const c = { t: 1_000_000, now: () => c.t, sleep: async (ms: number) => { c.t += ms; await Promise.resolve(); } };
  return c;
}

describe('CardPatcher', () => {
  const log = pino({ level: 'silent' });

  function setup(patchResults: Array<Outcome<unknown>> = []) {
    const clock = fakeClock();
    const limits = { ...DELIVERY_LIMITS };
    const patched: Array<{ id: string; content: string; at: number }> = [];
    const replaced: string[] = [];
    let gate: Promise<void> = Promise.resolve();
    const patcher = new CardPatcher({
      patch: async (id, content) => { await gate; patched.push({ id, content, at: clock.t }); return patchResults.shift() ?? { ok: true, value: {} }; },
      replace: async (id, content) => { replaced.push(content); return { ok: true, value: `${id}-new` }; },
      budget: new AppBudget(limits, clock), limits, clock, log,
    });
    return { patcher, patched, replaced, clock, setGate: (g: Promise<void>) => { gate = g; } };
  }

  it('coalesces versions queued during an in-flight patch: only the latest is sent next', async () => {
    const s = setup();
    let open!: () => void;
    s.setGate(new Promise((r) => { open = r; }));
    const all = [1, 2, 3, 4, 5].map((i) => s.patcher.update('om_1', `v${i}`));
    await Promise.resolve();
    s.setGate(Promise.resolve());
    open();
    const results = await Promise.all(all);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.patched.map((p) => p.content)).toEqual(['v1', 'v5']);
  });

  it('spaces patches of one message by the per-message interval', async () => {
    const s = setup();
    await s.patcher.update('om_1', 'a');
    await s.patcher.update('om_1', 'b');
    expect(s.patched[1]!.at - s.patched[0]!.at).toBeGreaterThanOrEqual(DELIVERY_LIMITS.perMessageIntervalMs);
  });

  it('retries rate limits and sends the newest version on the retry', async () => {
    const rl = { ok: false as const, code: 'rate_limited' as const, message: '429', retryable: true };
    const s = setup([rl, rl]);
    const first = s.patcher.update('om_1', 'old');
    const second = s.patcher.update('om_1', 'new');
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
    expect(s.patched.map((p) => p.content)).toEqual(['old', 'new', 'new']);
  });

  it('gives up after maxAttempts on persistent failures', async () => {
    const rl = { ok: false as const, code: 'server_error' as const, message: '500', retryable: true };
    const s = setup(Array.from({ length: 20 }, () => rl));
    const r = await s.patcher.update('om_1', 'x');
    expect(r).toMatchObject({ ok: false, code: 'server_error' });
    expect(s.patched).toHaveLength(DELIVERY_LIMITS.maxAttempts);
  });

  it('replaces a gone card and redirects later updates to the new one', async () => {
    const s = setup([{ ok: false, code: 'message_gone', message: 'recalled', retryable: false }]);
    const r = await s.patcher.update('om_1', 'x');
    expect(r).toEqual({ ok: true, value: { messageId: 'om_1-new' } });
    expect(s.patcher.resolveId('om_1')).toBe('om_1-new');
    await s.patcher.update('om_1', 'y');
    expect(s.patched.at(-1)).toMatchObject({ id: 'om_1-new', content: 'y' });
  });
});

describe('pbbp2 codec', () => {
  it('round-trips a frame with headers and a payload', () => {
    const f = { SeqID: 2 ** 40 + 7, LogID: 300, service: 123456, method: 1, headers: [{ key: 'type', value: 'event' }, { key: 'sum', value: '1' }], payload: new TextEncoder().encode('{"a":"中"}') };
    const back = decodeFrame(encodeFrame(f));
    expect(back).toMatchObject({ SeqID: f.SeqID, LogID: 300, service: 123456, method: 1, headers: f.headers });
    expect(new TextDecoder().decode(back.payload)).toBe('{"a":"中"}');
  });
});
