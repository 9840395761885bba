// `larkmux usage [--since YYYY-MM-DD|7d] [--json]`: the usage ledger on this host (issue 30 item 2), read from the file,
// so it answers whether the daemon runs or not.
import { readUsageLedger, usageLedgerDir } from '../../platform/usage-ledger-file.js';
import { compactCount } from '../../shared/usage.js';
import { localDay, parseSince, sumEntries, usageRows, type UsageTotals } from '../../shared/usage-ledger.js';
import { EXIT, type CliCommand } from '../types.js';

/** Without --since: the last 7 days, today included. */
export const USAGE_DEFAULT_SINCE = '7d';

function cost(t: UsageTotals): string {
  return t.costedTurns ? `$${t.costUsd.toFixed(2)}` : '-';
}

function line(cells: string[]): string {
  const widths = [10, 14, 12, 24, 6, 8, 8, 8, 8, 8];
  return cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ').trimEnd();
}

function row(head: [string, string, string, string], t: UsageTotals): string {
  const cache = t.cacheReadTokens + t.cacheWriteTokens;
  return line([...head, String(t.turns), compactCount(t.inputTokens), compactCount(t.outputTokens), compactCount(cache), compactCount(t.totalTokens), cost(t)]);
}

export const usage: CliCommand = {
  name: 'usage',
  summary: 'Turns, tokens and cost per day, bot, CLI and model, from the usage ledger',
  flags: [
    { name: 'since', value: 'YYYY-MM-DD|7d', description: `From that day, or the last N days (default ${USAGE_DEFAULT_SINCE})` },
    { name: 'json', description: 'Print machine-readable JSON' },
  ],
  async run({ flags, paths, out, err }) {
    const now = Date.now();
    const since = parseSince(typeof flags.since === 'string' ? flags.since : USAGE_DEFAULT_SINCE, now);
    if (!since.ok) {
      err(since.error);
      return EXIT.usage;
    }
    const dir = usageLedgerDir(paths.home);
    let read;
    try {
      read = await readUsageLedger(dir, since.sinceMs);
    } catch (e) {
      err(`could not read the usage ledger in ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return EXIT.failure;
    }
    const rows = usageRows(read.entries);
    const totals = sumEntries(read.entries);
    if (flags.json) {
      out(JSON.stringify({ since: new Date(since.sinceMs).toISOString(), until: new Date(now).toISOString(), totals, rows, skippedLines: read.skipped }, null, 2));
      return EXIT.ok;
    }
    out(`usage since ${localDay(since.sinceMs)} (host time), from ${dir}`);
    if (!rows.length) out('no turns recorded in this period');
    else {
      out(line(['day', 'bot', 'cli', 'model', 'turns', 'input', 'output', 'cache', 'total', 'cost']));
      for (const r of rows) out(row([r.day, r.bot, r.cli, r.model || '-'], r));
      out(row(['total', '', '', ''], totals));
    }
    if (read.skipped) err(`${read.skipped} ledger line(s) could not be read and were skipped`);
    return EXIT.ok;
  },
};
