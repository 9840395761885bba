// The daily budget's check before each new turn (issue 30 item 3): with a ledger near its 4 MiB rotation size, how
// long one check takes when it reads the day's ledger again (as before) and when it reads only the line appended
// since the last check (usage-day-totals.ts), and how many bytes each reads.
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readUsageLedger, USAGE_LEDGER_LIMITS } from '../src/platform/usage-ledger-file.js';
import { LedgerDayTotals } from '../src/platform/usage-day-totals.js';
import { dayStart } from '../src/shared/usage-budget.js';
import { sumEntries, USAGE_LEDGER_VERSION } from '../src/shared/usage-ledger.js';

const BENCH = { checks: 200, tz: 'UTC' } as const;
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

const dir = mkdtempSync(join(tmpdir(), 'lmx-bench-budget-'));
const file = join(dir, 'usage.jsonl');
const line = (i: number) => `${JSON.stringify({ v: USAGE_LEDGER_VERSION, at: new Date().toISOString(), appId: `cli_${i % 4}`, bot: `bot${i % 4}`, sessionId: `s${i % 50}`, cli: 'claude-code', userId: 'ou_bench', elapsedMs: 4200, usage: { model: 'claude-opus-5-5', inputTokens: 1200 + i, outputTokens: 300, cacheReadTokens: 40_000, cacheWriteTokens: 900, contextTokens: 42_000 } })}\n`;
try {
  let n = 0;
  const chunk: string[] = [];
  while (n * line(0).length < USAGE_LEDGER_LIMITS.maxFileBytes * 0.95) chunk.push(line(n++));
  appendFileSync(file, chunk.join(''));
  log(`ledger: ${n} lines, ${statSync(file).size} bytes`);

  const whole: number[] = [];
  for (let i = 0; i < BENCH.checks; i++) {
    appendFileSync(file, line(n++));
    const t = performance.now();
    const read = await readUsageLedger(dir, dayStart(Date.now(), BENCH.tz));
    sumEntries(read.entries.filter((e) => e.appId === 'cli_1'));
    whole.push(performance.now() - t);
  }
  const totals = new LedgerDayTotals(dir, BENCH.tz);
  const first = performance.now();
  await totals.totals('cli_1', Date.now());
  const firstMs = performance.now() - first;
  const tail: number[] = [];
  for (let i = 0; i < BENCH.checks; i++) {
    appendFileSync(file, line(n++));
    const t = performance.now();
    await totals.totals('cli_1', Date.now());
    tail.push(performance.now() - t);
  }
  process.stdout.write(`${JSON.stringify({
    bench: 'budget-check', ledgerBytes: statSync(file).size, checks: BENCH.checks,
    wholeDayReadMedianMs: round(median(whole)), wholeDayBytesPerCheck: statSync(file).size,
    appendedOnlyFirstLookMs: round(firstMs), appendedOnlyMedianMs: round(median(tail)), appendedOnlyBytesPerCheck: line(n).length,
  })}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
