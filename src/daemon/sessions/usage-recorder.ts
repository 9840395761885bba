// One usage-ledger entry per ended turn (issue 30 item 2): what the worker read from the transcript, plus who asked,
// which bot and session, and how long it took. The ledger file is shared by every bot of the daemon. Also the turn
// card's footer made of the same figures.
import { cliLabel } from '../../shared/console-cli.js';
import type { CliSpec } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import { compactCount, totalTokens, type TurnUsage } from '../../shared/usage.js';
import { USAGE_LEDGER_VERSION, type UsageEntry } from '../../shared/usage-ledger.js';
import type { Logger } from '../../platform/log.js';
import { UsageLedger, usageLedgerDir } from '../../platform/usage-ledger-file.js';
import { LedgerDayTotals } from '../../platform/usage-day-totals.js';
import type { DayTotals } from '../../shared/usage-budget.js';

export interface EndedTurn {
  /** When the final answer arrived. */
  at: number;
  appId: string;
  bot: string;
  sessionId: string;
  cli: CliSpec;
  userId?: string;
  /** When the daemon handed the turn to the worker (absent for a turn it did not start, e.g. typed in the pane). */
  startedAt?: number;
  usage?: TurnUsage;
}

/** The ledger line for an ended turn. Elapsed is the CLI's own figure when it has one, else the daemon's. */
export function usageEntryOf(turn: EndedTurn): UsageEntry {
  const elapsed = turn.usage?.elapsedMs ?? (turn.startedAt !== undefined ? Math.max(0, turn.at - turn.startedAt) : undefined);
  return {
    v: USAGE_LEDGER_VERSION,
    at: new Date(turn.at).toISOString(),
    appId: turn.appId,
    bot: turn.bot,
    sessionId: turn.sessionId,
    cli: cliLabel(turn.cli),
    ...(turn.userId ? { userId: turn.userId } : {}),
    ...(elapsed !== undefined ? { elapsedMs: Math.round(elapsed) } : {}),
    ...(turn.usage ? { usage: turn.usage } : {}),
  };
}

/** One appender per ledger folder in this process, so the bots' turns are appended one at a time. */
const ledgers = new Map<string, UsageLedger>();

export function usageLedgerFor(home: string, log: Logger): UsageLedger {
  const dir = usageLedgerDir(home);
  let ledger = ledgers.get(dir);
  if (!ledger) {
    ledger = new UsageLedger({ dir, log });
    ledgers.set(dir, ledger);
  }
  return ledger;
}

/** The day's totals kept per ledger folder and time zone in this process (usage-day-totals.ts). */
const dayTotals = new Map<string, LedgerDayTotals>();

/** A bot's tokens and cost today (days in `tz`), for its budget: only what was appended since the last look is read. */
export function botTotalsToday(home: string, appId: string, now: number, tz: string): Promise<DayTotals> {
  const dir = usageLedgerDir(home);
  const key = JSON.stringify([dir, tz]);
  let totals = dayTotals.get(key);
  if (!totals) {
    totals = new LedgerDayTotals(dir, tz);
    dayTotals.set(key, totals);
  }
  return totals.totals(appId, now);
}

/** Elapsed as the footer says it: 4.2s, 38s, 3m 05s. */
function elapsedText(ms: number, t: Translate): string {
  if (ms < 10_000) return t('usage.footer.elapsed', { seconds: (ms / 1000).toFixed(1) });
  if (ms < 60_000) return t('usage.footer.elapsed', { seconds: Math.round(ms / 1000) });
  const s = Math.round(ms / 1000);
  return t('usage.footer.elapsedMin', { m: Math.floor(s / 60), s: String(s % 60).padStart(2, '0') });
}

/** The turn card's footer: model · context used · tokens · elapsed, each only where it is known. */
export function usageFooter(usage: TurnUsage, elapsedMs: number | undefined, t: Translate): string {
  const parts: string[] = [];
  if (usage.model) parts.push(usage.model);
  if (usage.contextTokens !== undefined) {
    const used = compactCount(usage.contextTokens);
    parts.push(usage.contextWindow ? t('usage.footer.contextOf', { used, window: compactCount(usage.contextWindow) }) : t('usage.footer.context', { used }));
  }
  parts.push(t('usage.footer.tokens', { tokens: compactCount(totalTokens(usage)) }));
  if (elapsedMs !== undefined) parts.push(elapsedText(elapsedMs, t));
  return parts.join(' · ');
}
