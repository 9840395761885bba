// Schedules (DESIGN §12): parsing of /in, /at and /every (the record is schedule-record.ts), the next due time (in the bot's time
// zone, cron by croner) and what to do with a due time the daemon was not running for. Pure: the clock comes in.
import { Cron } from 'croner';
import type { MessageKey } from './i18n.js';
import type { CatchUp } from './schedule-settings.js';

export { SCHEDULE_LIMITS, SCHEDULE_STORE_FORMAT, ScheduleSchema, ScheduleSpecSchema, formatWhen, roomForSchedule, type Schedule, type ScheduleSpec } from './schedule-record.js';
import { SCHEDULE_LIMITS, type Schedule, type ScheduleSpec } from './schedule-record.js';

export function newScheduleId(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: MessageKey };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30m`, `1h30m`, `3s`, `2d` → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (!/^(\d{1,6}[smhdw])+$/.test(s)) return null;
  let ms = 0;
  for (const m of s.matchAll(/(\d+)([smhdw])/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms > 0 ? ms : null;
}

/** First word and the rest. */
function head(text: string): [string, string] {
  const m = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return m ? [m[1]!, m[2]!.trim()] : ['', ''];
}

function prompt(text: string): Parsed<string> {
  const p = text.trim();
  if (!p) return { ok: false, error: 'schedule.err.noPrompt' };
  if (p.length > SCHEDULE_LIMITS.maxPromptChars) return { ok: false, error: 'schedule.err.promptTooLong' };
  return { ok: true, value: p };
}

export interface ParsedSchedule {
  spec: ScheduleSpec;
  prompt: string;
}

/** `/in <duration> <prompt>`. */
export function parseIn(text: string, now: number): Parsed<ParsedSchedule> {
  const [first, rest] = head(text);
  const ms = parseDuration(first);
  if (ms === null) return { ok: false, error: 'schedule.err.duration' };
  if (ms > SCHEDULE_LIMITS.maxAheadMs) return { ok: false, error: 'schedule.err.tooFar' };
  const p = prompt(rest);
  return p.ok ? { ok: true, value: { spec: { kind: 'once', at: now + ms }, prompt: p.value } } : p;
}

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The next time the wall clock in `tz` shows hh:mm, after `now`. */
function nextClock(hh: number, mm: number, now: number, tz: string): number {
  return cronNext(`${mm} ${hh} * * *`, now, tz)!;
}

/** `/at <hh:mm | yyyy-mm-dd hh:mm | yyyy-mm-ddThh:mm> <prompt>`, read in `tz`. */
export function parseAt(text: string, now: number, tz: string): Parsed<ParsedSchedule> {
  let [first, rest] = head(text);
  let date: RegExpExecArray | null = null;
  const joined = /^(\d{4}-\d{2}-\d{2})T(\d{1,2}:\d{2})$/.exec(first);
  if (joined) {
    date = DATE.exec(joined[1]!);
    first = joined[2]!;
  } else if (DATE.test(first)) {
    date = DATE.exec(first);
    [first, rest] = head(rest);
  }
  const clock = CLOCK.exec(first);
  if (!clock) return { ok: false, error: 'schedule.err.time' };
  const hh = Number(clock[1]);
  const mm = Number(clock[2]);
  let at: number;
  if (date) {
    // A day the month does not have (2027-02-30) is a mistake, not the 2nd of March.
    const [y, mo, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d || mo < 1 || mo > 12) return { ok: false, error: 'schedule.err.time' };
    const iso = `${date[1]}-${date[2]}-${date[3]}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00`;
    let next: number | null = null;
    try {
      next = new Cron(iso, { timezone: tz, paused: true }).nextRun(new Date(now - 1))?.getTime() ?? null;
    } catch {
      return { ok: false, error: 'schedule.err.time' };
    }
    if (next === null || next <= now) return { ok: false, error: 'schedule.err.past' };
    at = next;
  } else at = nextClock(hh, mm, now, tz);
  if (at - now > SCHEDULE_LIMITS.maxAheadMs) return { ok: false, error: 'schedule.err.tooFar' };
  const p = prompt(rest);
  return p.ok ? { ok: true, value: { spec: { kind: 'once', at }, prompt: p.value } } : p;
}

/** A 5- or 6-field cron expression croner accepts; null otherwise. */
export function checkCron(expr: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return null;
  try {
    new Cron(expr.trim(), { paused: true });
    return fields.join(' ');
  } catch {
    return null;
  }
}

/** `/every "<cron>" <prompt>` or `/every <interval> [hh:mm] <prompt>` (`1d 09:00` is every day at 09:00 in `tz`). */
export function parseEvery(text: string, now: number, tz: string): Parsed<ParsedSchedule> {
  const t = text.trim();
  const quoted = /^(["'“”])([^"'“”]+)["'“”]\s*([\s\S]*)$/.exec(t);
  if (quoted) {
    const expr = checkCron(quoted[2]!);
    if (!expr) return { ok: false, error: 'schedule.err.cron' };
    const p = prompt(quoted[3]!);
    return p.ok ? { ok: true, value: { spec: { kind: 'cron', expr }, prompt: p.value } } : p;
  }
  const [first, rest] = head(t);
  const everyMs = parseDuration(first);
  if (everyMs === null) return { ok: false, error: 'schedule.err.every' };
  if (everyMs < SCHEDULE_LIMITS.minEveryMs) return { ok: false, error: 'schedule.err.tooOften' };
  if (everyMs > SCHEDULE_LIMITS.maxAheadMs) return { ok: false, error: 'schedule.err.tooFar' };
  const [maybeClock, afterClock] = head(rest);
  const clock = CLOCK.exec(maybeClock);
  let spec: ScheduleSpec;
  let body = rest;
  if (clock) {
    body = afterClock;
    const [hh, mm] = [Number(clock[1]), Number(clock[2])];
    // Every day at a wall-clock time stays at that time across daylight-saving changes: a cron, not a 24 h step.
    spec = everyMs === UNIT_MS.d ? { kind: 'cron', expr: `${mm} ${hh} * * *` } : { kind: 'interval', everyMs, startAt: nextClock(hh, mm, now, tz) };
  } else spec = { kind: 'interval', everyMs, startAt: now + everyMs };
  const p = prompt(body);
  return p.ok ? { ok: true, value: { spec, prompt: p.value } } : p;
}

function cronNext(expr: string, after: number, tz: string): number | null {
  return new Cron(expr, { timezone: tz, paused: true }).nextRun(new Date(after))?.getTime() ?? null;
}

/** The first due time strictly after `after` (null: a one-shot with nothing left). */
export function nextDue(spec: ScheduleSpec, after: number, tz: string): number | null {
  switch (spec.kind) {
    case 'once':
      return spec.at > after ? spec.at : null;
    case 'interval': {
      if (spec.startAt > after) return spec.startAt;
      const steps = Math.floor((after - spec.startAt) / spec.everyMs) + 1;
      return spec.startAt + steps * spec.everyMs;
    }
    case 'cron':
      return cronNext(spec.expr, after, tz);
  }
}

/** The first due time of a new schedule. */
export function firstDue(spec: ScheduleSpec, now: number, tz: string): number | null {
  if (spec.kind === 'once') return spec.at;
  if (spec.kind === 'interval') return spec.startAt;
  return cronNext(spec.expr, now, tz);
}

/**
 * A due schedule at `now`: fire it or not, with or without a notice, and its next due time. However many due times
 * passed, it fires at most once (the next one is counted from now). A due time the daemon was down for (older than
 * missedAfterMs when it starts) follows catchUp: `once` fires with a notice, `skip` does not fire and says so.
 */
export interface DueDecision {
  fire: boolean;
  notice: 'caughtUp' | 'skipped' | null;
  next: number | null;
}

export function decideDue(s: Pick<Schedule, 'spec' | 'nextRunAt' | 'timezone' | 'paused'>, now: number, atStart: boolean, catchUp: CatchUp): DueDecision | null {
  if (s.paused || s.nextRunAt === null || s.nextRunAt > now) return null;
  const next = nextDue(s.spec, now, s.timezone);
  const missed = atStart && now - s.nextRunAt > SCHEDULE_LIMITS.missedAfterMs;
  if (!missed) return { fire: true, notice: null, next };
  return catchUp === 'once' ? { fire: true, notice: 'caughtUp', next } : { fire: false, notice: 'skipped', next };
}

