// One usage-ledger entry per ended turn (issue 30 item 2): what the worker read from the transcript, plus who asked,
// which bot and session, and how long it took. The ledger file is shared by every bot of the daemon.
import { cliLabel } from '../../shared/console-cli.js';
import type { CliSpec } from '../../shared/config.js';
import type { TurnUsage } from '../../shared/usage.js';
import { USAGE_LEDGER_VERSION, type UsageEntry } from '../../shared/usage-ledger.js';
import type { Logger } from '../../platform/log.js';
import { UsageLedger, usageLedgerDir } from '../../platform/usage-ledger-file.js';

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
