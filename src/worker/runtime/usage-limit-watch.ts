// Reads the CLI's usage-limit state from each look at its screen and each finished turn, and sends `usage_limit` to
// the daemon when it changes (lifecycle/usage-limit-report.ts decides). The worker only reports; the daemon holds.
import type { Logger } from '../../platform/log.js';
import type { WorkerToDaemon } from '../../shared/ipc.js';
import { cliTimeZone } from '../cli/limit-time.js';
import type { CliAdapter } from '../cli/types.js';
import { limitReportStep, type LimitEvent, type LimitReportState } from '../lifecycle/usage-limit-report.js';

export class UsageLimitWatch {
  private state: LimitReportState = { told: null };
  private lastTurnId: string | undefined;
  private timeZone: string | null = null;
  /**
   * The CLI prints clock times in its own zone: the worker's, unless the bot's environment sets TZ. Resolved on the
   * first clock time read, not at start (why: clockTime in cli/limit-time.ts).
   */
  private readonly zone = (): string => (this.timeZone ??= cliTimeZone({ ...process.env, ...this.deps.env }));

  constructor(private readonly deps: { adapter: CliAdapter; env: Record<string, string>; log: Logger; send(msg: WorkerToDaemon): void }) {}

  /** A message went into the CLI: a limit seen from now on is this turn's. */
  noteTurn(turnId: string): void {
    this.lastTurnId = turnId;
  }

  screen(text: string): void {
    const of = this.deps.adapter.usageLimitOf;
    if (!of) return;
    const now = Date.now();
    this.apply({ type: 'screen', seen: of(text, now, this.zone), now, ...(this.lastTurnId ? { turnId: this.lastTurnId } : {}) });
  }

  turnEnded(turnId: string | undefined, finalText: string): void {
    const of = this.deps.adapter.usageLimitOf;
    if (!of) return;
    this.apply({ type: 'turn_end', ...(turnId ? { turnId } : {}), finalText, limitInText: of(finalText, Date.now(), this.zone) !== null });
  }

  private apply(ev: LimitEvent): void {
    const step = limitReportStep(this.state, ev);
    this.state = step.state;
    if (!step.report) return;
    this.deps.log.info({ state: step.report.state, untilMs: step.report.untilMs, turnId: step.report.turnId, excerpt: step.report.excerpt }, 'usage limit');
    this.deps.send({ type: 'usage_limit', ...step.report });
  }
}
