// The scheduler of one bot: one timer for the earliest due schedule (never one per schedule, never a poll), and the
// firing rule — the due time is recorded and flushed to disk before the prompt goes out, so a crash or restart
// cannot fire it twice; however many due times passed, it fires once (schedule.ts decideDue).
import type { Logger } from '../../platform/log.js';
import type { CatchUp } from '../../shared/schedule-settings.js';
import { decideDue, firstDue, nextDue, newScheduleId, type Schedule, type ScheduleSpec } from '../../shared/schedule.js';
import type { ScheduleStore } from './schedule-store.js';

export const SCHEDULER_TIMING = {
  /** setTimeout's longest delay (2^31-1 ms, about 24.8 days); a later due time re-arms on the way. */
  maxDelayMs: 2 ** 31 - 1,
} as const;

/** Why a prompt goes out: at its time, or once now for a time the daemon was down for (catchUp once). */
export type FireReason = 'due' | 'caughtUp';

export interface SchedulerOptions {
  store: ScheduleStore;
  log: Logger;
  catchUp: () => CatchUp;
  timezone: () => string;
  /** Hands the prompt to the bot (scheduled-turn.ts); not awaited in order, so 100 due at once go out together. */
  fire(s: Schedule, due: number, reason: FireReason): Promise<void>;
  /** A missed due time skipped (catchUp skip): the topic is told. */
  skipped(s: Schedule, due: number): Promise<void>;
  now?: () => number;
}

export interface NewSchedule extends Omit<Schedule, 'id' | 'createdAt' | 'nextRunAt' | 'paused' | 'spec'> {
  spec: ScheduleSpec;
}

/** What commands use of a bot's schedules. */
export interface ScheduleBook {
  /** The bot's time zone (config `timezone`, else the host's): /at and /every read times in it. */
  readonly timezone: string;
  add(input: NewSchedule): Schedule;
  inTopic(sessionKey: string): Schedule[];
  /** Schedules still to run (a fired one-shot waiting for removal is not), in this topic and in the whole bot. */
  pending(sessionKey: string): { topic: number; bot: number };
  get(id: string): Schedule | undefined;
  setPaused(id: string, paused: boolean): Schedule | undefined;
  remove(id: string): boolean;
}

export class Scheduler implements ScheduleBook {
  private timer: NodeJS.Timeout | null = null;
  private armedFor: number | null = null;
  private started = false;
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly opts: SchedulerOptions) {
    this.now = opts.now ?? Date.now;
  }

  get timezone(): string {
    return this.opts.timezone();
  }

  /** Reads the stored schedules (before start). */
  load(): ReturnType<ScheduleStore['load']> {
    return this.opts.store.load();
  }

  /** Starts firing (once the bot is connected): what came due while the daemon was down is decided first. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    void this.tick(true);
  }

  add(input: NewSchedule): Schedule {
    const now = this.now();
    const s = this.opts.store.put({ ...input, id: newScheduleId(), createdAt: now, nextRunAt: firstDue(input.spec, now, input.timezone), paused: false });
    this.arm();
    return s;
  }

  inTopic(sessionKey: string): Schedule[] {
    return this.opts.store.all().filter((s) => s.sessionKey === sessionKey).sort((a, b) => a.createdAt - b.createdAt);
  }

  pending(sessionKey: string): { topic: number; bot: number } {
    const open = this.opts.store.all().filter((s) => s.nextRunAt !== null);
    return { topic: open.filter((s) => s.sessionKey === sessionKey).length, bot: open.length };
  }

  get(id: string): Schedule | undefined {
    return this.opts.store.get(id);
  }

  /**
   * Pause or resume. A resumed repeating schedule counts its next due time from now (what it missed while paused is
   * gone); a resumed one-shot whose time passed runs now (else it could never run).
   */
  setPaused(id: string, paused: boolean): Schedule | undefined {
    const s = this.opts.store.get(id);
    if (!s) return undefined;
    const now = this.now();
    const overdue = !paused && s.nextRunAt !== null && s.nextRunAt <= now;
    const next = !overdue ? s.nextRunAt : s.spec.kind === 'once' ? now : nextDue(s.spec, now, s.timezone);
    const updated = this.opts.store.put({ ...s, paused, nextRunAt: next });
    this.arm();
    return updated;
  }

  remove(id: string): boolean {
    const had = this.opts.store.remove(id);
    this.arm();
    return had;
  }

  /** One timer, for the earliest due time of a schedule not paused. */
  private arm(): void {
    if (!this.started || this.disposed) return;
    let earliest: number | null = null;
    for (const s of this.opts.store.all()) if (!s.paused && s.nextRunAt !== null && (earliest === null || s.nextRunAt < earliest)) earliest = s.nextRunAt;
    if (earliest === this.armedFor && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = earliest;
    if (earliest === null) return;
    const delay = Math.min(Math.max(0, earliest - this.now()), SCHEDULER_TIMING.maxDelayMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = null;
      void this.tick(false);
    }, delay);
  }

  /** Every due schedule at once: record each due time (one flush for the batch), then hand the prompts out. */
  private async tick(atStart: boolean): Promise<void> {
    const now = this.now();
    const out: { s: Schedule; due: number; reason: FireReason | 'skip' }[] = [];
    for (const s of this.opts.store.all()) {
      const d = decideDue(s, now, atStart, this.opts.catchUp());
      if (!d) continue;
      const due = s.nextRunAt!;
      if (d.next === null) this.opts.store.remove(s.id);
      else this.opts.store.put({ ...s, nextRunAt: d.next, lastDueAt: due });
      out.push({ s, due, reason: d.fire ? (d.notice === 'caughtUp' ? 'caughtUp' : 'due') : 'skip' });
    }
    if (out.length) {
      const res = await this.opts.store.flush();
      // Not on disk: firing now could fire again after a restart; the record in memory has moved on, the log says why.
      if (!res.ok) this.opts.log.error({ code: res.code }, 'schedules could not be saved before firing; firing anyway (a restart may repeat them)');
    }
    if (this.disposed) return;
    for (const { s, due, reason } of out) {
      // How late the scheduler hands each prompt over (bench/schedules.ts reads this line).
      this.opts.log.info({ schedule: s.id, due, lateMs: this.now() - due, reason }, 'schedule fired');
      const done = reason === 'skip' ? this.opts.skipped(s, due) : this.opts.fire(s, due, reason);
      void done.catch((err) => this.opts.log.error({ err, schedule: s.id }, 'scheduled prompt failed'));
    }
    this.arm();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.opts.store.dispose();
  }
}
