// When a usage limit resets, from the words a CLI prints: a clock time ("10pm", "10:02 PM", "3pm (Asia/Shanghai)"),
// a date and time ("Dec 5, 2026 3:04 AM"), or a duration ("in 2 hours 5 minutes", "in 12s"). Pure: `now` and the
// time zone the CLI printed in are inputs. A reset keeps how precisely it was shown: "8:54 PM" is some moment in that
// minute, so the latest moment it may mean is the minute's end (resetEnd).
import { hostTimezone, isTimezone } from '../../shared/schedule-settings.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };

/** The zone a CLI prints its clock times in: `TZ` from its environment when it names a zone, else the host's. */
export function cliTimeZone(env: Record<string, string | undefined>): string {
  const tz = env.TZ?.replace(/^:/, '');
  return tz && isTimezone(tz) ? tz : hostTimezone();
}

/** Wall-clock fields of `ms` in `timeZone`. */
function fieldsIn(ms: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(ms);
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

/**
 * How precisely a reset was shown: a clock time to the `minute` ("10pm", "8:54 PM", "Dec 5th, 2026 12:32 AM") or to
 * the `second` ("8:54:30 PM"), or `relative` — a count from now ("in 12s", "in 2 hours"), taken as exact.
 */
export type ResetPrecision = 'minute' | 'second' | 'relative';

/** A reset as the CLI showed it: the start of the shown minute or second (or now + the count), and its precision. */
export interface ShownReset {
  atMs: number;
  precision: ResetPrecision;
}

const PRECISION_MS: Record<ResetPrecision, number> = { minute: 60_000, second: 1_000, relative: 0 };

/** The latest moment a shown reset may mean: the end of the minute or second it names (a hold waits for that). */
export function resetEnd(reset: ShownReset): number {
  return reset.atMs + PRECISION_MS[reset.precision];
}

/** Epoch ms of a wall-clock time in `timeZone` (the zone's offset at that moment, so DST is respected). */
export function zonedToEpoch(y: number, mo: number, d: number, h: number, mi: number, timeZone: string, sec = 0): number {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, sec);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const f = fieldsIn(guess, timeZone);
    const offset = Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s) - guess;
    guess = asUtc - offset;
  }
  return guess;
}

/** "in 2 hours 5 minutes", "in 12s", "3 days 1 hour": the total in ms, or null when no unit is found. */
export function durationMs(text: string): number | null {
  let total = 0;
  let found = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/gi)) {
    total += Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()[0]!]!;
    found = true;
  }
  return found ? Math.round(total) : null;
}

function hour24(h: number, ampm: string | undefined): number {
  if (!ampm) return h;
  const pm = ampm.toLowerCase().startsWith('p');
  return (h % 12) + (pm ? 12 : 0);
}

/**
 * A clock time the CLI printed, as the next such moment after `now` in the zone it names in parentheses or else
 * `timeZone`. A time more than a minute before `now` means tomorrow (a reset at 1am seen at 11pm). With a date
 * ("Dec 5, 2026 3:04 AM", "Dec 5th 3:04 AM") the date is taken as written.
 *
 * `timeZone` is called only once a clock time has matched: naming a zone makes V8 load ICU's time-zone data, ~6.5 MB
 * of RSS that a worker would otherwise carry from its first screen (issue 14's idle worker: 49 → 56 MB).
 */
export function clockTime(text: string, now: number, timeZone: () => string): ShownReset | null {
  const named = /\(([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC)\)/.exec(text)?.[1];
  const zoneOf = (): string => (named && isTimezone(named) ? named : timeZone());
  const t = /\b(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?(?=[\s).,·]|$)/i;
  const dated = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?(?:\s+(\d{4}))?,?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?/i.exec(text);
  if (dated) {
    const tz = zoneOf();
    const today = fieldsIn(now, tz);
    const mo = MONTHS.indexOf(dated[1]!.toLowerCase()) + 1;
    const precision = dated[6] === undefined ? 'minute' : 'second';
    const on = (y: number): number => zonedToEpoch(y, mo, Number(dated[2]), hour24(Number(dated[4]), dated[7]), Number(dated[5] ?? 0), tz, Number(dated[6] ?? 0));
    const y = dated[3] ? Number(dated[3]) : today.y;
    const at = on(y);
    return { atMs: !dated[3] && at < now - 86_400_000 ? on(y + 1) : at, precision };
  }
  for (const m of text.matchAll(new RegExp(t.source, 'gi'))) {
    // A bare number is a count, not a time: a time has minutes or am/pm.
    if (m[2] === undefined && m[4] === undefined) continue;
    const h = hour24(Number(m[1]), m[4]);
    const mi = Number(m[2] ?? 0);
    const sec = Number(m[3] ?? 0);
    if (h > 23 || mi > 59 || sec > 59) continue;
    const precision = m[3] === undefined ? 'minute' : 'second';
    const tz = zoneOf();
    const today = fieldsIn(now, tz);
    let at = zonedToEpoch(today.y, today.mo, today.d, h, mi, tz, sec);
    if (at < now - 60_000) {
      const tomorrow = fieldsIn(now + 86_400_000, tz);
      at = zonedToEpoch(tomorrow.y, tomorrow.mo, tomorrow.d, h, mi, tz, sec);
    }
    return { atMs: at, precision };
  }
  return null;
}
