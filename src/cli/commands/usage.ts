// `larkmux usage [--since YYYY-MM-DD|7d] [--tz ZONE] [--json]`: the usage ledger on this host (issue 30 item 2), read
// from the file, so it answers whether the daemon runs or not. Days are each bot's, in its `timezone` (as its budget
// and /usage count them; a bot no longer in config.json: the host's), unless --tz puts every bot in one zone.
import { readFileSync } from 'node:fs';
import { looseOwners } from '../../shared/config-checks.js';
import { parseConfigJson, substituteEnv } from '../../shared/config.js';
import { readUsageLedger, usageLedgerDir } from '../../platform/usage-ledger-file.js';
import { hostTimezone, isTimezone } from '../../shared/schedule-settings.js';
import { compactCount } from '../../shared/usage.js';
import { dayIn } from '../../shared/usage-budget.js';
import { earliestStartOf, parseSince, sinceDayIn, sumEntries, usageRows, type UsageTotals } from '../../shared/usage-ledger.js';
import { EXIT, type CliCommand } from '../types.js';

/** Without --since: the last 7 days, today included. */
export const USAGE_DEFAULT_SINCE = '7d';

/**
 * Each bot's `timezone` by app id, read loosely: a config.json with other mistakes, or whose `${VAR}` secrets this
 * shell does not have, still says where the bots' days start.
 */
function botZones(path: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const zones = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return zones;
  }
  const json = parseConfigJson(text);
  if (!json.ok) return zones;
  for (const { prefix, entry } of looseOwners(substituteEnv(json.raw, env))) {
    if (!prefix.startsWith('bots[') || typeof entry.appId !== 'string') continue;
    zones.set(entry.appId, typeof entry.timezone === 'string' && isTimezone(entry.timezone) ? entry.timezone : hostTimezone());
  }
  return zones;
}

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
    { name: 'tz', value: 'ZONE', description: "Count every bot's days in this IANA time zone (default: each bot's `timezone`, else the host's)" },
    { name: 'json', description: 'Print machine-readable JSON' },
  ],
  async run({ flags, paths, env, out, err }) {
    const now = Date.now();
    const parsed = parseSince(typeof flags.since === 'string' ? flags.since : USAGE_DEFAULT_SINCE);
    if (!parsed.ok) {
      err(parsed.error);
      return EXIT.usage;
    }
    const forced = typeof flags.tz === 'string' ? flags.tz : undefined;
    if (flags.tz !== undefined && (forced === undefined || !isTimezone(forced))) {
      err(`--tz ${forced ?? ''}: expected an IANA time zone such as Asia/Shanghai or UTC`);
      return EXIT.usage;
    }
    const zones = forced ? new Map<string, string>() : botZones(paths.config, env);
    const tzOf = (appId: string) => forced ?? zones.get(appId) ?? hostTimezone();
    const since = parsed.since;
    // Each entry counts from its own bot's first day; files last written before the earliest such day are not opened.
    const sinceOf = (appId: string) => sinceDayIn(since, now, tzOf(appId));
    const firstDay = [...new Set([...zones.keys(), ''])].map(sinceOf).sort()[0]!;
    const dir = usageLedgerDir(paths.home);
    let read;
    try {
      read = await readUsageLedger(dir, earliestStartOf(firstDay));
    } catch (e) {
      err(`could not read the usage ledger in ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return EXIT.failure;
    }
    const entries = read.entries.filter((e) => dayIn(Date.parse(e.at), tzOf(e.appId)) >= sinceOf(e.appId));
    const rows = usageRows(entries, tzOf);
    const totals = sumEntries(entries);
    const zonesUsed = [...new Set(rows.map((r) => r.timezone))];
    if (flags.json) {
      out(JSON.stringify({ since: firstDay, until: new Date(now).toISOString(), timezones: zonesUsed, totals, rows, skippedLines: read.skipped }, null, 2));
      return EXIT.ok;
    }
    const days = forced ? `days in ${forced}` : zonesUsed.length > 1 ? "days in each bot's time zone" : `days in ${zonesUsed[0] ?? tzOf('')}`;
    out(`usage since ${firstDay} (${days}), from ${dir}`);
    if (!rows.length) out('no turns recorded in this period');
    else {
      out(line(['day', 'bot', 'cli', 'model', 'turns', 'input', 'output', 'cache', 'total', 'cost']));
      for (const r of rows) out(row([r.day, zonesUsed.length > 1 ? `${r.bot} (${r.timezone})` : r.bot, r.cli, r.model || '-'], r));
      out(row(['total', '', '', ''], totals));
    }
    if (read.skipped) err(`${read.skipped} ledger line(s) could not be read and were skipped`);
    return EXIT.ok;
  },
};
