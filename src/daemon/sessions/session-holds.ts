// One bot's usage holds at run time (issue 30 item 3): the rules are src/shared/usage-hold.ts; this shell keeps each
// held session's state on disk (hold-store.ts), one timer per held session, and does what the rules say — tells the
// topic, mentions the person who asked, hands released prompts to the session owner one at a time. The daily budget
// (usage-budget.ts) is checked here before a new turn: over it, the turn is held like a limit until the next day.
import type { Translate } from '../../shared/i18n.js';
import type { UsageLimitMsg } from '../../shared/ipc.js';
import { budgetLevel, decideBudget, dayIn, nextDayStart, type Budget, type DayTotals } from '../../shared/usage-budget.js';
import { CONTINUATION_SUFFIX, decideHold, FREE, holdsPrompts, scheduleWaiting, untilText, type HeldItem, type Hold, type HoldEffect, type HoldEvent, type HoldState } from '../../shared/usage-hold.js';
import type { Logger } from '../../platform/log.js';
import type { z } from 'zod';
import type { ImAdapter } from '../im/types.js';
import { sessionTopic } from '../outbound/post-items.js';
import type { SessionCore } from '../ground/session-core.js';
import type { HoldStore } from './hold-store.js';
import type { BudgetStateStore } from './budget-state-store.js';

export interface SessionHoldsOptions {
  store: HoldStore;
  /** The day the owner was last warned about the budget, kept over a restart. */
  budgetState: Pick<BudgetStateStore, 'warnedDay' | 'setWarnedDay' | 'dispose'>;
  log: Logger;
  t: Translate;
  im: ImAdapter;
  /** The bot's name, for the owner's budget notices. */
  botName: string;
  timezone(): string;
  session(id: string): SessionCore | undefined;
  /** Hands a released item to the session, in its order, through the same path as a person's prompt. */
  deliver(session: SessionCore, item: HeldItem): Promise<void>;
  /** The bot's `budget` as config.json says it now (budget-source.ts): a raised budget counts at the next check. */
  budget(): Promise<Budget | undefined>;
  /** How often a budget hold looks whether the budget was raised (BUDGET_WATCH.intervalMs unless a test says). */
  budgetWatchMs?: number;
  /** Today's totals of this bot from the usage ledger, days in `timezone()`. */
  todayTotals(now: number): Promise<DayTotals>;
  /** Who is warned about the budget (the paired owner, else the first allowed user). */
  owner(): string | undefined;
  now?: () => number;
  /** 0..1 for the jitter (Math.random unless a test fixes it). */
  rand?: () => number;
}

/** What a limit report is, as the live session saw it: the turn it cut, and whether that turn's prompt arrived. */
export interface CutTurn {
  turnId: string;
  delivered: boolean;
  requester: HeldItem['requester'];
}

export type ResumeOutcome = { kind: 'not_held' } | { kind: 'resumed' } | { kind: 'over_budget'; text: string };

export const BUDGET_WATCH = {
  /**
   * While a session waits for the budget, config.json is looked at this often (a stat; read only when it changed),
   * so a raised budget lets the waiting prompts go without anyone writing again. No budget hold, no timer.
   */
  intervalMs: 30_000,
} as const;

/** The watch interval: LARKMUX_BUDGET_WATCH_MS when it is a whole number of milliseconds (tests), else the default. */
export function budgetWatchMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.LARKMUX_BUDGET_WATCH_MS;
  return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : BUDGET_WATCH.intervalMs;
}

export class SessionHolds {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private budgetWatch: NodeJS.Timeout | null = null;
  private disposed = false;
  private readonly now: () => number;
  private readonly rand: () => number;

  constructor(private readonly opts: SessionHoldsOptions) {
    this.now = opts.now ?? Date.now;
    this.rand = opts.rand ?? Math.random;
  }

  load(): ReturnType<HoldStore['load']> {
    return this.opts.store.load();
  }

  /**
   * After a restart (once the bot is connected): each hold's timer again (one past its time fires at once). A prompt
   * that was handed over before the restart is not handed over again; the next in its queue goes instead.
   */
  start(): void {
    for (const r of this.opts.store.all()) {
      const session = this.opts.session(r.sessionId);
      if (!session || session.lifecycle === 'closed') {
        this.forget(r.sessionId);
        continue;
      }
      if (r.inFlight) void this.step(session, { kind: 'turn_ended', turnId: r.inFlight });
      if (r.hold) this.arm(session.id, r.hold.retryAt);
    }
    this.watchBudget();
  }

  /** Whether the session keeps prompts back now (a hold, or a queue it is still draining). */
  holding(sessionId: string): boolean {
    return holdsPrompts(this.stateOf(sessionId));
  }

  /** Whether the schedule's earlier firing still waits here: one due again merges with it and says nothing new. */
  scheduleWaiting(sessionId: string, scheduleId: string): boolean {
    return scheduleWaiting(this.stateOf(sessionId), scheduleId);
  }

  /**
   * A new turn for the session: true when it waits (queued, its person told so, or merged with the same schedule's
   * earlier firing), false when it goes now through the normal path.
   */
  async take(session: SessionCore, item: HeldItem): Promise<boolean> {
    await this.checkBudget(session, item.requester.userId);
    const effects = await this.step(session, { kind: 'prompt', item });
    return !effects.some((e) => e.kind === 'deliver' && e.item.id === item.id);
  }

  /** The worker's `usage_limit` report: the card's notice when the session is now held (undefined: nothing to show). */
  async usageLimit(session: SessionCore, msg: z.infer<typeof UsageLimitMsg>, cut: CutTurn | undefined): Promise<string | undefined> {
    const askedBy = cut?.requester.userId;
    const ev: HoldEvent =
      msg.state === 'clear' ? { kind: 'clear' }
      : msg.state === 'throttled' ? { kind: 'throttle', excerpt: msg.excerpt, ...(msg.untilMs !== undefined ? { untilMs: msg.untilMs } : {}), ...(askedBy ? { askedBy } : {}) }
      : { kind: 'limit', excerpt: msg.excerpt, ...(msg.untilMs !== undefined ? { untilMs: msg.untilMs } : {}), ...(askedBy ? { askedBy } : {}), ...(cut ? { cut } : {}) };
    const effects = await this.step(session, ev);
    // Said once per hold: a CLI that keeps showing its limit moves the retry time, not the card.
    const held = effects.find((e): e is Extract<HoldEffect, { kind: 'held' }> => e.kind === 'held' && !e.again);
    return held ? this.heldText(held.hold) : undefined;
  }

  /** The prompt of the turn a limit cut proved to have arrived after the limit showed: it gets its one continuation. */
  async cutDelivered(session: SessionCore, cut: Omit<CutTurn, 'delivered'>): Promise<void> {
    await this.step(session, { kind: 'cut_delivered', cut });
  }

  /** A turn ended (its answer, a failed delivery, the CLI's exit): the next released prompt may go. */
  turnEnded(sessionId: string, turnId: string): void {
    const session = this.opts.session(sessionId);
    if (session && this.stateOf(sessionId).inFlight === turnId) void this.step(session, { kind: 'turn_ended', turnId });
  }

  /** /resume: the waiting prompts are tried now (a budget hold only once the budget allows it again). */
  async resumeNow(session: SessionCore): Promise<ResumeOutcome> {
    const hold = this.stateOf(session.id).hold;
    if (!hold) return { kind: 'not_held' };
    if (hold.reason === 'budget') {
      const { level, share } = budgetLevel(await this.opts.budget(), await this.opts.todayTotals(this.now()));
      if (level === 'over') return { kind: 'over_budget', text: this.opts.t('hold.stillOverBudget', { share: Math.round(share * 100), until: this.until(hold.retryAt), tz: this.opts.timezone() }) };
    }
    await this.step(session, { kind: 'resume_now' });
    return { kind: 'resumed' };
  }

  /** The session was closed: its hold and queue go with it. */
  forget(sessionId: string): void {
    this.disarm(sessionId);
    this.opts.store.remove(sessionId);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const id of [...this.timers.keys()]) this.disarm(id);
    this.watchBudget();
    await Promise.all([this.opts.store.dispose(), this.opts.budgetState.dispose()]);
  }

  // ── the shell around the rules ─────────────────────────────────────────────

  private stateOf(sessionId: string): HoldState {
    const r = this.opts.store.get(sessionId);
    return r ? { hold: r.hold, queue: r.queue, ...(r.inFlight ? { inFlight: r.inFlight } : {}) } : FREE;
  }

  /** One event: the new state on disk first (flushed), then its effects, so a crash between them loses nothing. */
  private async step(session: SessionCore, ev: HoldEvent): Promise<HoldEffect[]> {
    const { state, effects } = decideHold(this.stateOf(session.id), this.now(), ev, this.rand());
    if (holdsPrompts(state)) this.opts.store.put({ sessionId: session.id, ...state });
    else this.opts.store.remove(session.id);
    const saved = await this.opts.store.flush();
    if (!saved.ok) this.opts.log.error({ code: saved.code }, 'holds could not be saved; a restart may lose or repeat a waiting prompt');
    const incoming = ev.kind === 'prompt' ? ev.item.id : undefined;
    for (const e of effects) await this.carryOut(session, e, incoming).catch((err: unknown) => this.opts.log.error({ err, effect: e.kind }, 'hold effect failed'));
    this.watchBudget();
    return effects;
  }

  private async carryOut(session: SessionCore, e: HoldEffect, incoming: string | undefined): Promise<void> {
    const { t, im, log } = this.opts;
    const topic = sessionTopic(im, session);
    switch (e.kind) {
      case 'timer':
        if (e.at === null) this.disarm(session.id);
        else this.arm(session.id, e.at);
        return;
      case 'deliver':
        // The prompt that came in goes on its own path (take() returns false); released ones are handed over here.
        if (e.item.id !== incoming) void this.opts.deliver(session, e.item).catch((err: unknown) => log.error({ err }, 'a released prompt could not be delivered'));
        return;
      case 'queued': {
        const position = this.stateOf(session.id).queue.length;
        const key = e.hold.reason === 'budget' ? 'hold.queuedBudget' : 'hold.queued';
        await im.sendText(topic.place, t(key, { until: this.until(e.hold.retryAt), tz: this.opts.timezone(), position }), e.item.id);
        return;
      }
      case 'held':
        log.warn({ reason: e.hold.reason, untilMs: e.hold.untilMs, retryAt: e.hold.retryAt, excerpt: e.hold.excerpt, again: e.again }, 'session held');
        if (e.again) return;
        if (e.hold.reason === 'budget') await this.tellBudgetOver(session, e.hold);
        else if (e.hold.askedBy && im.sendMention) await im.sendMention(topic.place, e.hold.askedBy, t('hold.mention', { until: this.until(e.hold.untilMs ?? e.hold.retryAt), tz: this.opts.timezone() }), topic.replyTo);
        return;
      case 'resumed': {
        log.info({ how: e.how, count: e.count }, 'hold over');
        const lines = [e.count ? t('hold.resumed', { count: e.count }) : t('hold.resumedNone')];
        if (this.stateOf(session.id).inFlight?.endsWith(CONTINUATION_SUFFIX)) lines.push(t('hold.continuation'));
        await im.sendText(topic.place, lines.join('\n'), topic.replyTo);
        return;
      }
      case 'merged':
        log.info({ schedule: e.item.scheduleId }, 'a schedule due again during a hold: it is already waiting, it fires once');
        return;
      case 'throttled':
        log.info({ excerpt: e.excerpt }, 'the CLI is throttled briefly; it retries by itself');
        return;
      default: {
        const never: never = e;
        return never;
      }
    }
  }

  /** The card's words for a hold: until hh:mm in the bot's time zone. */
  private heldText(hold: Hold): string {
    const tz = this.opts.timezone();
    if (hold.reason === 'budget') return this.opts.t('hold.budget', { until: this.until(hold.retryAt), tz });
    if (hold.untilMs === undefined) return this.opts.t('hold.limitedUnknown', { until: this.until(hold.retryAt), tz });
    return this.opts.t('hold.limited', { until: this.until(hold.untilMs), tz });
  }

  private until(at: number): string {
    return untilText(at, this.now(), this.opts.timezone());
  }

  /** Before a new turn: warn the owner once a day at 80%, hold at 100%, release a budget hold the budget allows again. */
  private async checkBudget(session: SessionCore, askedBy: string): Promise<void> {
    const budget = await this.opts.budget();
    const hold = this.stateOf(session.id).hold;
    if (!budget && hold?.reason !== 'budget') return;
    const now = this.now();
    const tz = this.opts.timezone();
    const totals = await this.opts.todayTotals(now);
    const warnedDay = await this.opts.budgetState.warnedDay();
    const d = decideBudget(budget, totals, dayIn(now, tz), warnedDay);
    if (d.warnedDay && d.warnedDay !== warnedDay) await this.opts.budgetState.setWarnedDay(d.warnedDay);
    if (d.warn && !d.hold) await this.tellOwner(session, this.opts.t('budget.warn', { bot: this.opts.botName, share: Math.round(budgetLevel(budget, totals).share * 100), tz }));
    if (d.hold) await this.step(session, { kind: 'budget_over', nextDayAt: nextDayStart(now, tz), askedBy });
    else if (hold?.reason === 'budget') await this.step(session, { kind: 'budget_ok' });
  }

  private async tellBudgetOver(session: SessionCore, hold: Hold): Promise<void> {
    const topic = sessionTopic(this.opts.im, session);
    await this.opts.im.sendText(topic.place, this.heldText(hold), topic.replyTo);
    await this.tellOwner(session, this.opts.t('budget.over', { bot: this.opts.botName, until: this.until(hold.retryAt), tz: this.opts.timezone() }));
  }

  /** The owner is mentioned in the topic where it happened (as attention notices are); with no owner known, the topic is told. */
  private async tellOwner(session: SessionCore, text: string): Promise<void> {
    const topic = sessionTopic(this.opts.im, session);
    const owner = this.opts.owner();
    const res = owner && this.opts.im.sendMention ? await this.opts.im.sendMention(topic.place, owner, text, topic.replyTo) : await this.opts.im.sendText(topic.place, text, topic.replyTo);
    if (!res.ok) this.opts.log.warn({ code: res.code }, 'budget notice not sent');
  }

  /** A slow timer while any session waits for the budget (none otherwise): a raised budget releases them, in order. */
  private watchBudget(): void {
    const waiting = !this.disposed && this.opts.store.all().some((r) => r.hold?.reason === 'budget');
    if (!waiting && this.budgetWatch) {
      clearInterval(this.budgetWatch);
      this.budgetWatch = null;
    } else if (waiting && !this.budgetWatch) {
      this.budgetWatch = setInterval(() => void this.budgetRaised().catch((err: unknown) => this.opts.log.error({ err }, 'budget watch failed')), this.opts.budgetWatchMs ?? BUDGET_WATCH.intervalMs);
      this.budgetWatch.unref();
    }
  }

  /** The budget allows turns again (raised, or another day's totals): each session waiting for it goes on. */
  private async budgetRaised(): Promise<void> {
    const { level } = budgetLevel(await this.opts.budget(), await this.opts.todayTotals(this.now()));
    if (level === 'over') return;
    for (const r of this.opts.store.all()) {
      const session = this.opts.session(r.sessionId);
      if (session && r.hold?.reason === 'budget') await this.step(session, { kind: 'budget_ok' });
    }
  }

  private arm(sessionId: string, at: number): void {
    this.disarm(sessionId);
    if (this.disposed) return;
    // setTimeout's longest delay is about 24.8 days; a later time re-arms on the way (retry_due re-arms when early).
    const timer = setTimeout(() => {
      this.timers.delete(sessionId);
      const session = this.opts.session(sessionId);
      if (session) void this.step(session, { kind: 'retry_due' });
    }, Math.min(Math.max(0, at - this.now()), 2 ** 31 - 1));
    this.timers.set(sessionId, timer);
  }

  private disarm(sessionId: string): void {
    const timer = this.timers.get(sessionId);
    if (timer) clearTimeout(timer);
    this.timers.delete(sessionId);
  }
}
