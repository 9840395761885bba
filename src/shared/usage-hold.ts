// The hold rules (issue 30 item 3): what a session does when its CLI's vendor refuses work. Pure — the state, the time
// and an event in, the next state and what to do out; the daemon's hold keeper (src/daemon/sessions/hold-keeper.ts)
// carries the effects out and stores the state, so a hold and its queue survive a restart.
//
// The rules:
// - A `throttled` report whose reset is at most `throttleMaxMs` away (or unknown) is not a hold: the CLI retries by
//   itself, the daemon only notes it. A longer one is a limit.
// - A `limited` report holds the session until its reset plus a small random jitter; with no reset time known, it is
//   tried again after a backoff (15 min, doubling to 2 h) and the card says so.
// - While held nothing is typed into the CLI: prompts and due schedules queue, in order. A schedule already waiting
//   in the queue is not queued again (it fires once however many times it came due during the hold), and its
//   "⏰ Scheduled by" line is posted once (scheduleWaiting, asked before the line is posted).
// - At the retry time, on `/resume`, or when the CLI reports `clear`, the queue is released one item at a time: the
//   next goes when the previous turn ended, so a limit that comes back stops the rest from being typed.
// - The continuation: the turn the limit cut gets exactly one — if its prompt was delivered (the CLI has it in its
//   conversation), the prompt is NOT retyped; the word `continue` is sent once, ahead of the queue. If its delivery was
//   never proven, nothing is added (the worker still holds that message and types it when the CLI takes input).
//   Approvals (selections) are never answered by a hold: only text prompts are sent.
// - A budget hold (src/shared/usage-budget.ts decides it) is the same hold with reason `budget`, released at the next
//   day in the bot's time zone, on `/resume` once the budget allows it again, or by a raised budget.
import { z } from 'zod';
import { formatWhen } from './schedule.js';
import { dayIn } from './usage-budget.js';

export const HOLD_RULES = {
  /** A throttle with a reset at most this far away is retried quietly by the CLI, not held. */
  throttleMaxMs: 10_000,
  /** A random 0..jitterMaxMs is added to a known reset time, so held sessions do not all knock in the same second. */
  jitterMaxMs: 30_000,
  /** No reset time known: the first retry after this, then double each time it is still limited, up to the cap. */
  backoffFirstMs: 15 * 60_000,
  backoffMaxMs: 2 * 60 * 60_000,
} as const;

/** The one continuation sent for a turn a limit cut after its prompt arrived: the CLIs read it as "go on". */
export const CONTINUATION_PROMPT = 'continue';
/** A continuation's turn id is its cut turn's id with this suffix (its own turn, answered on the same message). */
export const CONTINUATION_SUFFIX = ':continue';

/** The chat message a turn id belongs to: a continuation's is the message of the turn it continues. */
export function messageOfTurn(turnId: string): string {
  return turnId.endsWith(CONTINUATION_SUFFIX) ? turnId.slice(0, -CONTINUATION_SUFFIX.length) : turnId;
}

export const HeldItemSchema = z.strictObject({
  /** The message id (the turn's id and card anchor); a continuation's is `<cut turn>:continue`. */
  id: z.string().min(1),
  kind: z.enum(['prompt', 'passthrough']),
  text: z.string(),
  requester: z.strictObject({ userId: z.string(), name: z.string().optional() }),
  notices: z.array(z.string()).default([]),
  /** A scheduled prompt: queued once per schedule however often it came due. */
  scheduleId: z.string().optional(),
  /** The turn this item continues (the one continuation of a cut turn). */
  continues: z.string().optional(),
});
export type HeldItem = z.infer<typeof HeldItemSchema>;

export const HoldSchema = z.strictObject({
  reason: z.enum(['limit', 'budget']),
  since: z.number(),
  /** The reset time the CLI (or the budget's day) gave; absent when unknown. */
  untilMs: z.number().optional(),
  /** When the queue is tried again. */
  retryAt: z.number(),
  /** The backoff in use when no reset time is known (doubles each time the limit stays). */
  backoffMs: z.number().optional(),
  excerpt: z.string().default(''),
  /** The person whose turn ran into the limit (mentioned on the card). */
  askedBy: z.string().optional(),
});
export type Hold = z.infer<typeof HoldSchema>;

export const HoldStateSchema = z.strictObject({
  hold: HoldSchema.nullable(),
  queue: z.array(HeldItemSchema),
  /** A released item whose turn has not ended: the next waits for it. */
  inFlight: z.string().optional(),
});
export type HoldState = z.infer<typeof HoldStateSchema>;

export const FREE: HoldState = { hold: null, queue: [] };

export type HoldEvent =
  | { kind: 'limit'; untilMs?: number; excerpt: string; askedBy?: string; cut?: { turnId: string; delivered: boolean; requester: HeldItem['requester'] } }
  | { kind: 'throttle'; untilMs?: number; excerpt: string; askedBy?: string }
  | { kind: 'clear' }
  | { kind: 'prompt'; item: HeldItem }
  | { kind: 'retry_due' }
  | { kind: 'resume_now' }
  | { kind: 'turn_ended'; turnId: string }
  /** The proof that the cut turn's prompt arrived came after the limit (Codex shows its limit before the transcript proof). */
  | { kind: 'cut_delivered'; cut: { turnId: string; requester: HeldItem['requester'] } }
  | { kind: 'budget_over'; nextDayAt: number; askedBy?: string }
  | { kind: 'budget_ok' };

export type HoldEffect =
  /** Hand the item to the session now (the normal delivery path). */
  | { kind: 'deliver'; item: HeldItem }
  /** The item waits for the hold: its card says so. */
  | { kind: 'queued'; item: HeldItem; hold: Hold }
  /** A hold began (or was extended): the card says until when, mentioning who asked. */
  | { kind: 'held'; hold: Hold; again: boolean }
  /** The hold ended: the topic is told how many waiting items now go. */
  | { kind: 'resumed'; count: number; how: 'reset' | 'resume' | 'clear' | 'budget' }
  /** A due schedule already waiting: dropped (fires once). */
  | { kind: 'merged'; item: HeldItem }
  /** A short throttle: noted, nothing held. */
  | { kind: 'throttled'; excerpt: string }
  /** Arm the one timer of the session for `at` (null: none). */
  | { kind: 'timer'; at: number | null };

export interface HoldStep {
  state: HoldState;
  effects: HoldEffect[];
}

/** `rand` is 0..1 (Math.random in the daemon, fixed in tests): the jitter's share of jitterMaxMs. */
export function decideHold(state: HoldState, now: number, event: HoldEvent, rand: number): HoldStep {
  switch (event.kind) {
    case 'throttle':
      if (event.untilMs === undefined || event.untilMs - now <= HOLD_RULES.throttleMaxMs) return { state, effects: [{ kind: 'throttled', excerpt: event.excerpt }] };
      return limit(state, now, { kind: 'limit', untilMs: event.untilMs, excerpt: event.excerpt, ...(event.askedBy ? { askedBy: event.askedBy } : {}) }, rand);
    case 'limit':
      return limit(state, now, event, rand);
    case 'budget_over': {
      if (state.hold?.reason === 'limit') return { state, effects: [] };
      const hold: Hold = { reason: 'budget', since: state.hold?.since ?? now, untilMs: event.nextDayAt, retryAt: event.nextDayAt, excerpt: '', ...(event.askedBy ? { askedBy: event.askedBy } : {}) };
      const again = state.hold !== null;
      return { state: { ...state, hold }, effects: [...(again ? [] : [{ kind: 'held', hold, again } as const]), { kind: 'timer', at: hold.retryAt }] };
    }
    case 'prompt': {
      if (!state.hold && !state.inFlight && state.queue.length === 0) return { state, effects: [{ kind: 'deliver', item: event.item }] };
      const sid = event.item.scheduleId;
      if (sid !== undefined && scheduleWaiting(state, sid)) return { state, effects: [{ kind: 'merged', item: event.item }] };
      const queue = [...state.queue, event.item];
      // Released and draining: it waits behind the earlier ones, without a "limited" card (the hold is over).
      if (!state.hold) return { state: { ...state, queue }, effects: [] };
      return { state: { ...state, queue }, effects: [{ kind: 'queued', item: event.item, hold: state.hold }] };
    }
    case 'retry_due':
      if (!state.hold || state.hold.retryAt > now) return { state, effects: state.hold ? [{ kind: 'timer', at: state.hold.retryAt }] : [] };
      return release(state, state.hold.reason === 'budget' ? 'budget' : 'reset');
    case 'resume_now':
      return state.hold ? release(state, 'resume') : { state, effects: [] };
    case 'clear':
      return state.hold?.reason === 'limit' ? release(state, 'clear') : { state, effects: [] };
    case 'budget_ok':
      return state.hold?.reason === 'budget' ? release(state, 'budget') : { state, effects: [] };
    case 'cut_delivered':
      // Only while the limit still holds: after it, the person's next prompt goes on from where the CLI stopped.
      if (state.hold?.reason !== 'limit') return { state, effects: [] };
      return { state: { ...state, queue: withContinuation(state.queue, { ...event.cut, delivered: true }) }, effects: [] };
    case 'turn_ended': {
      if (state.inFlight !== event.turnId) return { state, effects: [] };
      const rest: HoldState = { hold: state.hold, queue: state.queue };
      return state.hold ? { state: rest, effects: [] } : next(rest, []);
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}

function limit(state: HoldState, now: number, event: Extract<HoldEvent, { kind: 'limit' }>, rand: number): HoldStep {
  const prev = state.hold?.reason === 'limit' ? state.hold : null;
  let retryAt: number;
  let backoffMs: number | undefined;
  if (event.untilMs !== undefined) retryAt = Math.max(now, event.untilMs) + Math.floor(clamp01(rand) * HOLD_RULES.jitterMaxMs);
  else {
    backoffMs = prev?.backoffMs !== undefined ? Math.min(prev.backoffMs * 2, HOLD_RULES.backoffMaxMs) : HOLD_RULES.backoffFirstMs;
    retryAt = now + backoffMs;
  }
  const askedBy = event.askedBy ?? prev?.askedBy;
  const hold: Hold = {
    reason: 'limit', since: prev?.since ?? now, retryAt, excerpt: event.excerpt,
    ...(event.untilMs !== undefined ? { untilMs: event.untilMs } : {}), ...(backoffMs !== undefined ? { backoffMs } : {}), ...(askedBy ? { askedBy } : {}),
  };
  const queue = event.cut ? withContinuation(state.queue, event.cut) : state.queue;
  // The turn that ran into the limit is over as far as the queue goes: nothing is in flight.
  return { state: { hold, queue }, effects: [{ kind: 'held', hold, again: prev !== null }, { kind: 'timer', at: retryAt }] };
}

/** The turn the limit cut, if its prompt arrived: one continuation, at the head (never a second one for that turn). */
function withContinuation(queue: readonly HeldItem[], cut: { turnId: string; delivered: boolean; requester: HeldItem['requester'] }): HeldItem[] {
  if (!cut.delivered) return [...queue];
  if (!cut.turnId.endsWith(CONTINUATION_SUFFIX)) {
    if (queue.some((q) => q.continues === cut.turnId)) return [...queue];
    return [{ id: `${cut.turnId}${CONTINUATION_SUFFIX}`, kind: 'prompt', text: CONTINUATION_PROMPT, requester: cut.requester, notices: [], continues: cut.turnId }, ...queue];
  }
  // The continuation itself ran into the limit: it is the one continuation, sent again (it never got an answer).
  if (queue.some((q) => q.id === cut.turnId)) return [...queue];
  return [{ id: cut.turnId, kind: 'prompt', text: CONTINUATION_PROMPT, requester: cut.requester, notices: [], continues: messageOfTurn(cut.turnId) }, ...queue];
}

function release(state: HoldState, how: Extract<HoldEffect, { kind: 'resumed' }>['how']): HoldStep {
  const effects: HoldEffect[] = [{ kind: 'timer', at: null }, { kind: 'resumed', count: state.queue.length, how }];
  return next({ hold: null, queue: state.queue }, effects);
}

/** Not held: the head of the queue goes (one at a time), the rest waits for its turn to end. */
function next(state: HoldState, effects: HoldEffect[]): HoldStep {
  if (state.inFlight || state.queue.length === 0) return { state, effects };
  const [head, ...rest] = state.queue as [HeldItem, ...HeldItem[]];
  return { state: { hold: null, queue: rest, inFlight: head.id }, effects: [...effects, { kind: 'deliver', item: head }] };
}

function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}

/**
 * Whether a schedule's earlier firing still waits in the queue: one that comes due again is merged with it, so the
 * topic is not told again either (its "⏰ Scheduled by" line was posted once; the waiting firing's card says it).
 */
export function scheduleWaiting(state: HoldState, scheduleId: string): boolean {
  return state.queue.some((q) => q.scheduleId === scheduleId);
}

/** Whether the session keeps its prompts back (held, or still draining what a hold kept). */
export function holdsPrompts(state: HoldState): boolean {
  return state.hold !== null || state.inFlight !== undefined || state.queue.length > 0;
}

/** The holds file of a bot (sessions-<appId>.holds.json): one record per session with a hold or a queue. */
export const HOLD_STORE_FORMAT = 'larkmux-holds';
export const HoldRecordSchema = HoldStateSchema.extend({ sessionId: z.string().min(1) });
export type HoldRecord = z.infer<typeof HoldRecordSchema>;

/** "until" as the card says it: `14:05` today in `tz`, else `2026-12-05 14:05`. */
export function untilText(at: number, now: number, tz: string): string {
  const when = formatWhen(at, tz);
  return dayIn(at, tz) === dayIn(now, tz) ? when.slice(11) : when;
}
