// The usage ledger: its line format, the sums and rows it is read into, `--since`, and the file (append, torn lines,
// rotation, retention) on a real folder.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { readUsageLedger, UsageLedger } from '../../src/platform/usage-ledger-file.js';
import { earliestStartOf, parseSince, parseUsageLine, sinceDayIn, sumEntries, usageRows, type UsageEntry } from '../../src/shared/usage-ledger.js';
import { hostTimezone } from '../../src/shared/schedule-settings.js';

const log = createLogger({ level: 'silent' });
const NOW = new Date(2026, 11, 4, 15, 30).getTime(); // 2026-12-04 15:30 local

function entry(over: Partial<UsageEntry> = {}, tokens?: [number, number, number?]): UsageEntry {
  return {
    v: 1, at: new Date(NOW).toISOString(), appId: 'cli_a', bot: 'dev', sessionId: 's1', cli: 'claude-code', userId: 'ou_1', elapsedMs: 1000,
    ...(tokens ? { usage: { model: 'm1', inputTokens: tokens[0], outputTokens: tokens[1], cacheReadTokens: 0, cacheWriteTokens: 0, ...(tokens[2] !== undefined ? { costUsd: tokens[2] } : {}) } } : {}),
    ...over,
  };
}

describe('ledger lines', () => {
  it.each([
    { name: 'an entry', line: JSON.stringify(entry({}, [10, 2])), ok: true },
    { name: 'a shell turn without usage', line: JSON.stringify(entry({ cli: 'shell' })), ok: true },
    { name: 'a torn line', line: JSON.stringify(entry()).slice(0, 40), ok: false },
    { name: 'a newer version', line: JSON.stringify({ ...entry(), v: 2 }), ok: false },
    { name: 'negative tokens', line: JSON.stringify(entry({}, [-1, 2])), ok: false },
  ])('$name', ({ line, ok }) => {
    expect(parseUsageLine(line) !== null).toBe(ok);
  });
});

describe('sums and rows', () => {
  it('sums tokens, counts turns without usage, sums cost only where reported', () => {
    const t = sumEntries([entry({}, [100, 10, 0.5]), entry({}, [50, 5]), entry({ cli: 'shell', elapsedMs: 3000 })]);
    expect(t).toEqual({ turns: 3, inputTokens: 150, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 165, costUsd: 0.5, costedTurns: 1, elapsedMs: 5000 });
  });
  it('rows by day (in the bot\'s time zone), bot, CLI and model, oldest first', () => {
    const yesterday = new Date(NOW - 24 * 3600_000).toISOString();
    const rows = usageRows([entry({}, [1, 1]), entry({ at: yesterday }, [2, 2]), entry({ cli: 'codex' }, [3, 3]), entry({}, [4, 4])], () => hostTimezone());
    expect(rows.map((r) => [r.day, r.cli, r.model, r.turns, r.totalTokens])).toEqual([
      ['2026-12-03', 'claude-code', 'm1', 1, 4],
      ['2026-12-04', 'claude-code', 'm1', 2, 10],
      ['2026-12-04', 'codex', 'm1', 1, 6],
    ]);
  });
});

describe('--since', () => {
  // 2026-12-04 20:30 UTC: already 2026-12-05 in Shanghai, still 2026-12-04 in Los Angeles.
  const at = Date.parse('2026-12-04T20:30:00Z');
  it.each([
    { text: '1d', tz: 'Asia/Shanghai', day: '2026-12-05' },
    { text: '1d', tz: 'America/Los_Angeles', day: '2026-12-04' },
    { text: '7d', tz: 'Asia/Shanghai', day: '2026-11-29' },
    { text: '7d', tz: 'UTC', day: '2026-11-28' },
    { text: '2026-12-01', tz: 'Asia/Shanghai', day: '2026-12-01' },
  ])('$text in $tz from $day', ({ text, tz, day }) => {
    const r = parseSince(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(sinceDayIn(r.since, at, tz)).toBe(day);
  });
  it.each(['0d', '2026-02-30', 'yesterday', '7', ''])('%j is refused with a clear error', (text) => {
    const r = parseSince(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('--since');
  });
  it('files older than the earliest start of a day anywhere are not needed', () => {
    expect(new Date(earliestStartOf('2026-12-01')).toISOString()).toBe('2026-11-30T10:00:00.000Z');
  });
});

describe('the ledger file', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'lmx-ledger-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('appends in order, owner-only, and reads back; no folder yet reads as empty', async () => {
    const dir = join(tmp(), 'usage');
    expect(await readUsageLedger(dir)).toEqual({ entries: [], skipped: 0 });
    const ledger = new UsageLedger({ dir, log });
    await Promise.all([1, 2, 3].map((i) => ledger.append(entry({ sessionId: `s${i}` }, [i, i]))));
    const read = await readUsageLedger(dir);
    expect(read.entries.map((e) => e.sessionId)).toEqual(['s1', 's2', 's3']);
    expect(readdirSync(dir)).toEqual(['usage.jsonl']);
    expect((await import('node:fs')).statSync(join(dir, 'usage.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('a torn last line (a crash mid-append) is skipped and the next entry starts on its own line', async () => {
    const dir = tmp();
    const ledger = new UsageLedger({ dir, log });
    await ledger.append(entry({ sessionId: 'a' }));
    appendFileSync(join(dir, 'usage.jsonl'), JSON.stringify(entry()).slice(0, 30));
    await ledger.append(entry({ sessionId: 'b' }));
    const read = await readUsageLedger(dir);
    expect(read.entries.map((e) => e.sessionId)).toEqual(['a', 'b']);
    expect(read.skipped).toBe(1);
  });

  it('rotates past the size cap, keeps the newest rotated files, and reads across them', async () => {
    const dir = tmp();
    const one = `${JSON.stringify(entry({ sessionId: 's00' }))}\n`.length;
    const ledger = new UsageLedger({ dir, log, maxFileBytes: one * 2, keepRotated: 2 });
    for (let i = 0; i < 9; i++) await ledger.append(entry({ sessionId: `s${String(i).padStart(2, '0')}` }));
    const files = readdirSync(dir).sort();
    expect(files.filter((f) => f.startsWith('usage-'))).toHaveLength(2);
    expect(files).toContain('usage.jsonl');
    const read = await readUsageLedger(dir);
    // 9 entries, 2 a file: s00..s03 were in the two rotated files removed; s04..s08 are left.
    expect(read.entries.map((e) => e.sessionId)).toEqual(['s04', 's05', 's06', 's07', 's08']);
    expect(readFileSync(join(dir, 'usage.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('--since: entries before it are left out, and a rotated file last written before it is not read', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'usage-20260101T000000000Z-000.jsonl'), 'not json at all\n');
    utimesSync(join(dir, 'usage-20260101T000000000Z-000.jsonl'), new Date(NOW - 10 * 86400_000), new Date(NOW - 10 * 86400_000));
    const ledger = new UsageLedger({ dir, log });
    await ledger.append(entry({ sessionId: 'old', at: new Date(NOW - 3 * 86400_000).toISOString() }));
    await ledger.append(entry({ sessionId: 'new' }));
    expect(await readUsageLedger(dir, NOW - 86400_000)).toEqual({ entries: [expect.objectContaining({ sessionId: 'new' })], skipped: 0 });
    expect((await readUsageLedger(dir)).skipped).toBe(1);
  });
});
