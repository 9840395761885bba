// A bot's totals today for its budget, kept in memory and brought up to date by reading only what was appended to the
// usage ledger since the last look (issue 30 item 3): torn lines, rotation, other bots, and the day change in the
// bot's time zone.
import { appendFileSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { UsageLedger } from '../../src/platform/usage-ledger-file.js';
import { LedgerDayTotals } from '../../src/platform/usage-day-totals.js';
import { USAGE_LEDGER_VERSION, type UsageEntry } from '../../src/shared/usage-ledger.js';

const entry = (at: string, tokens: number, appId = 'cli_a', costUsd?: number): UsageEntry => ({
  v: USAGE_LEDGER_VERSION, at, appId, bot: 'b', sessionId: 's', cli: 'codex',
  usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...(costUsd !== undefined ? { costUsd } : {}) },
});
const line = (e: UsageEntry) => `${JSON.stringify(e)}\n`;
// 2026-12-04 in Asia/Shanghai runs from 2026-12-03T16:00Z to 2026-12-04T16:00Z.
const NOW = Date.parse('2026-12-04T10:00:00Z');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lmx-day-totals-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const live = () => join(dir, 'usage.jsonl');

describe('LedgerDayTotals', () => {
  it('counts only today in the time zone, per bot, and adds what is appended later', async () => {
    appendFileSync(live(), line(entry('2026-12-03T15:59:59Z', 1000)) + line(entry('2026-12-03T16:00:00Z', 7)) + line(entry('2026-12-04T01:00:00Z', 5, 'cli_b')));
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    expect(await totals.totals('cli_a', NOW)).toEqual({ tokens: 7, costUsd: 0 });
    expect(await totals.totals('cli_b', NOW)).toEqual({ tokens: 5, costUsd: 0 });
    appendFileSync(live(), line(entry('2026-12-04T09:00:00Z', 30, 'cli_a', 0.5)));
    expect(await totals.totals('cli_a', NOW)).toEqual({ tokens: 37, costUsd: 0.5 });
    expect(await totals.totals('cli_x', NOW)).toEqual({ tokens: 0, costUsd: 0 });
  });

  it('reads only the bytes appended since its last look, not the day again', async () => {
    const first = line(entry('2026-12-04T01:00:00Z', 850));
    appendFileSync(live(), first);
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(850);
    // The line already counted is changed in place (same length): a look that read the day again would see 111.
    const fd = openSync(live(), 'r+');
    writeSync(fd, first.replace('850', '111'), 0);
    closeSync(fd);
    appendFileSync(live(), line(entry('2026-12-04T02:00:00Z', 100)));
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(950);
  });

  it('leaves a line still being written for the next look, and counts it once', async () => {
    const whole = line(entry('2026-12-04T02:00:00Z', 40));
    appendFileSync(live(), line(entry('2026-12-04T01:00:00Z', 2)) + whole.slice(0, 25));
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(2);
    appendFileSync(live(), whole.slice(25));
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(42);
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(42);
  });

  it('a torn line (a crash mid-append) is skipped, the lines after it count', async () => {
    const ledger = new UsageLedger({ dir, log: createLogger({ level: 'silent' }) });
    await ledger.append(entry('2026-12-04T01:00:00Z', 3));
    appendFileSync(live(), line(entry('2026-12-04T01:30:00Z', 500)).slice(0, 30));
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(3);
    await ledger.append(entry('2026-12-04T02:00:00Z', 4));
    expect((await totals.totals('cli_a', NOW)).tokens).toBe(7);
  });

  it('follows the live file across rotations: today in the rotated files and the new one, each line once', async () => {
    const ledger = new UsageLedger({ dir, log: createLogger({ level: 'silent' }), maxFileBytes: 600 });
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    let want = 0;
    for (let i = 1; i <= 12; i++) {
      await ledger.append(entry(`2026-12-04T0${Math.floor(i / 4)}:00:00Z`, i));
      want += i;
      expect((await totals.totals('cli_a', NOW)).tokens).toBe(want);
    }
    expect(readdirSync(dir).filter((f) => f !== 'usage.jsonl').length).toBeGreaterThan(1);
    // A fresh look (the daemon restarted) agrees.
    expect((await new LedgerDayTotals(dir, 'Asia/Shanghai').totals('cli_a', NOW)).tokens).toBe(want);
  });

  it('starts again at the day change in its time zone', async () => {
    appendFileSync(live(), line(entry('2026-12-04T15:00:00Z', 10)));
    const totals = new LedgerDayTotals(dir, 'Asia/Shanghai');
    expect((await totals.totals('cli_a', Date.parse('2026-12-04T15:30:00Z'))).tokens).toBe(10);
    appendFileSync(live(), line(entry('2026-12-04T16:10:00Z', 1)));
    // 00:20 on 2026-12-05 in Shanghai: yesterday's 10 no longer count.
    expect((await totals.totals('cli_a', Date.parse('2026-12-04T16:20:00Z'))).tokens).toBe(1);
  });

  it('counts nothing while there is no ledger, and picks up the first file', async () => {
    const totals = new LedgerDayTotals(join(dir, 'usage-none'), 'UTC');
    expect(await totals.totals('cli_a', NOW)).toEqual({ tokens: 0, costUsd: 0 });
    const other = new LedgerDayTotals(dir, 'UTC');
    expect((await other.totals('cli_a', NOW)).tokens).toBe(0);
    appendFileSync(live(), line(entry('2026-12-04T01:00:00Z', 9)));
    expect((await other.totals('cli_a', NOW)).tokens).toBe(9);
  });
});
