// A bot's daily budget (issue 30 item 3): today's totals from the usage ledger against `budget` in config. Pure: the
// daemon's budget keeper reads the ledger, asks here, warns the owner and holds new turns (usage-hold.ts).
// Cost counts only where a CLI reported it (no supported CLI does today), so `dailyCostUsd` limits only costed turns.
import { z } from 'zod';

export const BudgetSchema = z.strictObject({
  dailyTokens: z.number().int().positive().optional().describe("Tokens (input + output + cache) this bot may use per day, days counted in its `timezone`: at 80% of it (or of dailyCostUsd) the bot's owner is warned once that day, at 100% new turns wait with a notice until the next day, or until the budget is raised (edit config.json: the daemon sees the change without a restart); unset, no limit"),
  dailyCostUsd: z.number().positive().optional().describe('US dollars this bot may spend per day, as dailyTokens; counts only turns whose CLI reports a cost (none of the built-in CLIs does today, so it limits nothing for them)'),
});
export type Budget = z.infer<typeof BudgetSchema>;

export const BUDGET_RULES = {
  /** The owner is warned once a day when a figure reaches this share of its budget. */
  warnAt: 0.8,
} as const;

export interface DayTotals {
  tokens: number;
  costUsd: number;
}

export type BudgetLevel = 'ok' | 'warn' | 'over';

/** The highest level any configured figure reaches, and its share of the budget (0..∞). */
export function budgetLevel(budget: Budget | undefined, totals: DayTotals): { level: BudgetLevel; share: number } {
  const shares: number[] = [];
  if (budget?.dailyTokens) shares.push(totals.tokens / budget.dailyTokens);
  if (budget?.dailyCostUsd) shares.push(totals.costUsd / budget.dailyCostUsd);
  const share = shares.length ? Math.max(...shares) : 0;
  return { level: share >= 1 ? 'over' : share >= BUDGET_RULES.warnAt ? 'warn' : 'ok', share };
}

/** What a check of the budget does: warn the owner (once a day), hold new turns, or let them go. */
export interface BudgetDecision {
  warn: boolean;
  hold: boolean;
  /** The day warned about, to store (so the warning is not repeated that day). */
  warnedDay: string | undefined;
}

/** `day` is today's date in the bot's time zone (YYYY-MM-DD); `warnedDay` the last day the owner was warned. */
export function decideBudget(budget: Budget | undefined, totals: DayTotals, day: string, warnedDay: string | undefined): BudgetDecision {
  const { level } = budgetLevel(budget, totals);
  const warn = level !== 'ok' && warnedDay !== day;
  return { warn, hold: level === 'over', warnedDay: warn ? day : warnedDay };
}

/** The calendar day of `at` in `tz` (YYYY-MM-DD). */
export function dayIn(at: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The first millisecond of the day after `at`'s day in `tz` (found by stepping, so DST days are right). */
export function nextDayStart(at: number, tz: string): number {
  const today = dayIn(at, tz);
  // Never more than 26 h away: step an hour at a time to the first hour of another day, then back minute by minute.
  let t = at;
  while (dayIn(t, tz) === today) t += 60 * 60_000;
  let lo = t - 60 * 60_000;
  let hi = t;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (dayIn(mid, tz) === today) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The first millisecond of `at`'s day in `tz`: the next day's start seen from an instant of the day before. */
export function dayStart(at: number, tz: string): number {
  const today = dayIn(at, tz);
  let t = at;
  while (dayIn(t, tz) === today) t -= 60 * 60_000;
  return nextDayStart(t, tz);
}

/** The first millisecond of the day `daysBack` days before `at`'s day in `tz` (0: today's start). */
export function daysBackStart(at: number, tz: string, daysBack: number): number {
  let t = dayStart(at, tz);
  for (let i = 0; i < daysBack; i++) t = dayStart(t - 1, tz);
  return t;
}

export type BudgetRead = { ok: true; budget: Budget | undefined } | { ok: false; error: string };

/**
 * A bot's `budget` in config.json's parsed JSON, found by its app id (else its name, for an app id written as
 * `${VAR}`). Only this field is read: the rest of the file (and its `${VAR}` secrets, gone from the daemon's
 * environment after start) is not looked at. Errors name the field, never a value.
 */
export function budgetInConfig(raw: unknown, bot: { appId: string; name: string }): BudgetRead {
  const bots = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { bots?: unknown }).bots : undefined;
  if (!Array.isArray(bots)) return { ok: false, error: 'config.json has no bots list' };
  const entries = bots.filter((b): b is Record<string, unknown> => !!b && typeof b === 'object' && !Array.isArray(b));
  const index = [entries.findIndex((b) => b.appId === bot.appId), entries.findIndex((b) => b.name === bot.name)].find((i) => i >= 0);
  if (index === undefined) return { ok: false, error: `config.json no longer lists the bot "${bot.name}"` };
  const parsed = BudgetSchema.optional().safeParse(entries[index]!.budget);
  if (!parsed.success) return { ok: false, error: `bots[${index}].budget: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'budget'}: ${i.message}`).join('; ')}` };
  return { ok: true, budget: parsed.data };
}
