// The usage ledger's line format and the sums `/usage` and `larkmux usage` show (issue 30 item 2). Pure: the file
// itself is platform/usage-ledger-file.ts.
import { z } from 'zod';
import { totalTokens, TurnUsageSchema, type TurnUsage } from './usage.js';
import { dayIn, daysBackStart } from './usage-budget.js';

/** Bumped when a ledger line changes shape; a line of a newer version is skipped by readers, never rewritten. */
export const USAGE_LEDGER_VERSION = 1;

/**
 * One ended turn. `usage` is absent for a CLI that writes no transcript (a shell, a custom command) and for a turn
 * whose transcript reported no model call: the turn still counts, with its elapsed time and no tokens.
 */
export const UsageEntrySchema = z.object({
  v: z.literal(USAGE_LEDGER_VERSION),
  /** When the turn ended (ISO 8601, UTC). */
  at: z.iso.datetime(),
  /** The bot's app id and its configured name. */
  appId: z.string().max(128),
  bot: z.string().max(200),
  sessionId: z.string().max(64),
  /** The CLI kind or custom command name (`claude-code`, `codex`, `gemini`, `shell`, …). */
  cli: z.string().max(200),
  /** The person whose prompt the turn answered (their open id), when known. */
  userId: z.string().max(128).optional(),
  /** The turn's duration: the CLI's own figure when it reports one, else from delivery to the final answer. */
  elapsedMs: z.number().int().nonnegative().optional(),
  usage: TurnUsageSchema.optional(),
});
export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/** Reads one ledger line: the entry, or null for a line that is not one (torn by a crash, or from a newer larkmux). */
export function parseUsageLine(line: string): UsageEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = UsageEntrySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The sums over a set of entries. `costUsd` sums only the turns that reported one; `costedTurns` says how many. */
export interface UsageTotals {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  costUsd: number;
  costedTurns: number;
  elapsedMs: number;
}

export function emptyTotals(): UsageTotals {
  return { turns: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, costUsd: 0, costedTurns: 0, elapsedMs: 0 };
}

export function addEntry(t: UsageTotals, e: UsageEntry): UsageTotals {
  const u: TurnUsage | undefined = e.usage;
  return {
    turns: t.turns + 1,
    inputTokens: t.inputTokens + (u?.inputTokens ?? 0),
    outputTokens: t.outputTokens + (u?.outputTokens ?? 0),
    cacheReadTokens: t.cacheReadTokens + (u?.cacheReadTokens ?? 0),
    cacheWriteTokens: t.cacheWriteTokens + (u?.cacheWriteTokens ?? 0),
    totalTokens: t.totalTokens + (u ? totalTokens(u) : 0),
    costUsd: t.costUsd + (u?.costUsd ?? 0),
    costedTurns: t.costedTurns + (u?.costUsd !== undefined ? 1 : 0),
    elapsedMs: t.elapsedMs + (e.elapsedMs ?? 0),
  };
}

export function sumEntries(entries: Iterable<UsageEntry>): UsageTotals {
  let t = emptyTotals();
  for (const e of entries) t = addEntry(t, e);
  return t;
}

/** `--since`: from a calendar day, or the last N days (today included: `1d` is today), days in a time zone each. */
export type Since = { kind: 'date'; day: string } | { kind: 'days'; n: number };

export type SinceParse = { ok: true; since: Since } | { ok: false; error: string };

/** `--since YYYY-MM-DD|<N>d`. */
export function parseSince(text: string): SinceParse {
  const days = /^(\d{1,4})d$/.exec(text);
  if (days) {
    const n = Number(days[1]);
    if (n < 1) return { ok: false, error: `--since ${text}: the number of days must be at least 1` };
    return { ok: true, since: { kind: 'days', n } };
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const at = new Date(Date.UTC(y, m - 1, d));
    if (at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d) return { ok: true, since: { kind: 'date', day: text } };
  }
  return { ok: false, error: `--since ${text}: expected a date (YYYY-MM-DD) or a number of days (7d)` };
}

/** The first day (YYYY-MM-DD) `since` takes in, days counted in `tz`. */
export function sinceDayIn(since: Since, now: number, tz: string): string {
  return since.kind === 'date' ? since.day : dayIn(daysBackStart(now, tz, since.n - 1), tz);
}

/** An instant no later than the start of `day` in any time zone (UTC+14 is the earliest): files older are not read. */
export function earliestStartOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - 14 * 60 * 60_000;
}

/** One row of the host report: the turns of one day (in `timezone`), bot, CLI and model. */
export interface UsageRow extends UsageTotals {
  day: string;
  timezone: string;
  bot: string;
  cli: string;
  model: string;
}

/** Groups entries by day (in each bot's `tzOf(appId)`), bot, CLI and model, oldest day first (then by bot, CLI, model). */
export function usageRows(entries: Iterable<UsageEntry>, tzOf: (appId: string) => string): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const e of entries) {
    const timezone = tzOf(e.appId);
    const day = dayIn(Date.parse(e.at), timezone);
    const model = e.usage?.model ?? '';
    const key = JSON.stringify([day, e.bot, e.cli, model, timezone]);
    const row = rows.get(key) ?? { day, timezone, bot: e.bot, cli: e.cli, model, ...emptyTotals() };
    rows.set(key, { ...row, ...addEntry(row, e) });
  }
  return [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.bot.localeCompare(b.bot) || a.cli.localeCompare(b.cli) || a.model.localeCompare(b.model));
}
