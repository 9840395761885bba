// The daemon's start-up phase: `restoring` while the stored sessions of every bot are being registered, `ready` once
// all are (a log line marks the moment). `larkmux status --json` reports it, so a script knows when to send.
import type { Logger } from '../../platform/log.js';
import type { RestoreStatus } from '../../shared/control-protocol.js';

/** What restoring needs of a bot (BotRuntime satisfies it). */
export interface RestorableBot {
  restore(): Promise<void>;
  readonly sessions: { all(): readonly unknown[] };
  readonly bot: { name: string };
}

export class Restoring {
  private state: RestoreStatus['state'] = 'restoring';
  private bots: readonly RestorableBot[] = [];
  private botsDone = 0;
  private tookMs: number | undefined;

  constructor(private readonly log: Logger) {}

  /** Registers every bot's stored sessions in parallel; a bot whose stores fail is logged and counted as done. */
  async run(bots: readonly RestorableBot[]): Promise<void> {
    this.bots = bots;
    await Promise.all(
      bots.map((b) =>
        b
          .restore()
          .catch((err) => this.log.error({ err, bot: b.bot.name }, 'restoring a bot failed'))
          .finally(() => this.botsDone++),
      ),
    );
    this.state = 'ready';
    // From the process's own start: module loading counts too (that is what the person waits for).
    this.tookMs = Math.round(performance.now());
    this.log.info({ sessions: this.sessionCount(), bots: bots.length, ms: this.tookMs }, 'restoring finished: every stored session is registered');
  }

  private sessionCount(): number {
    return this.bots.reduce((n, b) => n + b.sessions.all().length, 0);
  }

  status(): RestoreStatus {
    return {
      state: this.state,
      sessions: this.sessionCount(),
      bots: this.botsDone,
      botsTotal: this.bots.length,
      ...(this.tookMs !== undefined ? { tookMs: this.tookMs } : {}),
    };
  }
}
