// `larkmux usage` through the real command over a ledger the daemon's appender wrote: rows, totals, --since, --json.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { UsageLedger, usageLedgerDir } from '../../src/platform/usage-ledger-file.js';
import type { UsageEntry } from '../../src/shared/usage-ledger.js';
import { hostTimezone } from '../../src/shared/schedule-settings.js';
import { dayIn } from '../../src/shared/usage-budget.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

const DAY = 86_400_000;
/** With no config.json the days are the host's. */
const localDay = (at: number) => dayIn(at, hostTimezone());
let home: TestHome | null = null;
afterEach(() => {
  home?.cleanup();
  home = null;
});

function entry(at: number, cli: string, tokens?: [number, number], appId = 'cli_usage'): UsageEntry {
  return {
    v: 1, at: new Date(at).toISOString(), appId, bot: 'dev', sessionId: 's1', cli, userId: 'ou_1', elapsedMs: 1500,
    ...(tokens ? { usage: { model: 'claude-opus-5-5', inputTokens: tokens[0], outputTokens: tokens[1], cacheReadTokens: 5, cacheWriteTokens: 0 } } : {}),
  };
}

describe('larkmux usage', () => {
  it('--json: this period\'s rows and totals; older turns and a torn line are left out', async () => {
    home = makeTestHome('lmx-usage-');
    const now = Date.now();
    const ledger = new UsageLedger({ dir: usageLedgerDir(home.dir), log: createLogger({ level: 'silent' }) });
    await ledger.append(entry(now - 30 * DAY, 'claude-code', [9999, 9999]));
    await ledger.append(entry(now, 'claude-code', [100, 20]));
    await ledger.append(entry(now, 'claude-code', [50, 10]));
    await ledger.append(entry(now, 'shell'));
    appendFileSync(join(usageLedgerDir(home.dir), 'usage.jsonl'), '{"v":1,"at":"2026-');

    const res = await runLarkmux(['usage', '--json', '--since', '7d'], home.env);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { totals: Record<string, number>; rows: Record<string, unknown>[]; skippedLines: number };
    expect(report.totals).toMatchObject({ turns: 3, inputTokens: 150, outputTokens: 30, cacheReadTokens: 10, totalTokens: 190, costedTurns: 0, elapsedMs: 4500 });
    expect(report.rows).toEqual([
      expect.objectContaining({ day: localDay(now), bot: 'dev', cli: 'claude-code', model: 'claude-opus-5-5', turns: 2, totalTokens: 190 }),
      expect.objectContaining({ day: localDay(now), bot: 'dev', cli: 'shell', model: '', turns: 1, totalTokens: 0 }),
    ]);
    expect(report.skippedLines).toBe(1);

    const all = JSON.parse((await runLarkmux(['usage', '--json', '--since', localDay(now - 40 * DAY)], home.env)).stdout) as { totals: { turns: number } };
    expect(all.totals.turns).toBe(4);

    const text = await runLarkmux(['usage'], home.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/claude-code\s+claude-opus-5-5\s+2\s+150\s+30\s+10\s+190\s+-/);
    expect(text.stderr).toContain('1 ledger line(s) could not be read');
  });

  it("counts each bot's days in its own time zone, or every bot's in --tz", async () => {
    home = makeTestHome('lmx-usage-');
    // 25 hours apart: any instant is on different days in these two zones.
    home.writeConfig({ bots: [{ name: 'east', appId: 'cli_east', appSecret: '${NOT_IN_THIS_SHELL}', timezone: 'Pacific/Kiritimati' }, { name: 'west', appId: 'cli_west', timezone: 'Pacific/Pago_Pago' }] });
    const at = Date.now() - 2 * DAY;
    const ledger = new UsageLedger({ dir: usageLedgerDir(home.dir), log: createLogger({ level: 'silent' }) });
    await ledger.append({ ...entry(at, 'codex', [10, 0], 'cli_east'), bot: 'east' });
    await ledger.append({ ...entry(at, 'codex', [20, 0], 'cli_west'), bot: 'west' });
    type Report = { timezones: string[]; rows: { day: string; bot: string; timezone: string }[] };
    const own = JSON.parse((await runLarkmux(['usage', '--json'], home.env)).stdout) as Report;
    expect(own.rows.map((r) => [r.bot, r.day, r.timezone]).sort()).toEqual([
      ['east', dayIn(at, 'Pacific/Kiritimati'), 'Pacific/Kiritimati'],
      ['west', dayIn(at, 'Pacific/Pago_Pago'), 'Pacific/Pago_Pago'],
    ]);
    expect(dayIn(at, 'Pacific/Kiritimati')).not.toBe(dayIn(at, 'Pacific/Pago_Pago'));
    const text = await runLarkmux(['usage'], home.env);
    expect(text.stdout).toContain("days in each bot's time zone");
    expect(text.stdout).toContain('east (Pacific/Kiritimati)');

    const utc = JSON.parse((await runLarkmux(['usage', '--json', '--tz', 'UTC'], home.env)).stdout) as Report;
    expect(utc.rows.map((r) => [r.bot, r.day]).sort()).toEqual([['east', dayIn(at, 'UTC')], ['west', dayIn(at, 'UTC')]]);
    expect(utc.timezones).toEqual(['UTC']);
    const bad = await runLarkmux(['usage', '--tz', 'Mars/Olympus'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('IANA time zone');
  });

  it('no ledger yet: an empty report; a bad --since: a usage error that names the forms', async () => {
    home = makeTestHome('lmx-usage-');
    mkdirSync(home.dir, { recursive: true });
    const empty = await runLarkmux(['usage', '--json'], home.env);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toMatchObject({ totals: { turns: 0 }, rows: [] });
    const bad = await runLarkmux(['usage', '--since', 'last-week'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('YYYY-MM-DD');
  });
});
