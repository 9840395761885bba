// A CLI's usage-limit or rate-limit state read from its own words (screen text or a transcript line): which state,
// until when, and the line that says so. Pure; each adapter gives its phrases as data (UsageLimitPhrases).
import { clockTime, durationMs, resetEnd, type ResetPrecision, type ShownReset } from './limit-time.js';

export type UsageLimitState = 'limited' | 'throttled';

export interface UsageLimitSeen {
  state: UsageLimitState;
  /**
   * When the vendor says the limit resets (epoch ms): the END of the minute or second the CLI showed ("8:54 PM" is
   * 20:55:00), so a hold is never over before the vendor's reset. Absent when the CLI does not say.
   */
  untilMs?: number;
  /** How precisely the CLI showed that reset (with `untilMs`). */
  precision?: ResetPrecision;
  /** The CLI's own line, trimmed (for logs and the card). */
  excerpt: string;
}

/** How one CLI words a limit. Every regex is tested line by line (a wrapped message's first line carries the phrase). */
export interface UsageLimitPhrases {
  /** A line that says the vendor refuses work (a usage limit, a quota, a rate limit). */
  limit: RegExp;
  /** The CLI retries by itself ("retrying in 12s"): short waits are a throttle, not a hold. */
  retrying?: RegExp;
  /** Lines after the phrase that may carry the reset time when the message wraps. */
  followLines?: number;
}

/** A reset counted from now ("in 12s") further away than this is a hold (limited); nearer, the CLI's own retry covers it. */
export const THROTTLE_MAX_MS = 60_000;
const EXCERPT_MAX = 300;

/** Where the reset time sits in a line: after "resets", "reset at", "try again at/in", "retry in", or in parentheses. */
function resetOf(text: string, now: number, zone: () => string): ShownReset | undefined {
  const at = /(?:resets?(?:\s+at)?|try again at|available again at|until)\s+(.+)$/i.exec(text)?.[1]
    ?? /\((\d{1,2}(?::\d{2}){0,2}\s*[ap]\.?m\.?[^)]*)\)/i.exec(text)?.[1];
  if (at) {
    const clock = clockTime(at, now, zone);
    if (clock !== null) return clock;
    const inIt = /^in\s+(.+)$/i.exec(at.trim())?.[1];
    const d = inIt ? durationMs(inIt) : null;
    if (d !== null) return { atMs: now + d, precision: 'relative' };
  }
  const after = /(?:try again|retry|resets?|available again)\s+in\s+(.+?)(?:[.)·]|$)/i.exec(text)?.[1];
  const d = after ? durationMs(after) : null;
  return d !== null ? { atMs: now + d, precision: 'relative' } : undefined;
}

const clean = (line: string): string => line.replace(/^[\s│■✻✕⚠●·*└⎿]+|[\s│]+$/g, '');

/** The line at `i` and, while the sentence goes on (no full stop yet), up to `follow` wrapped lines. */
function messageFrom(lines: string[], i: number, follow: number): string {
  const parts = [clean(lines[i]!)];
  for (let k = i + 1; k <= i + follow && k < lines.length && !/[.!]$/.test(parts[parts.length - 1]!); k++) {
    const next = clean(lines[k]!);
    // A blank line ends it, and so does a line pushed far right (a status on the right edge, not a wrapped sentence).
    if (next === '' || /^\s{9}/.test(lines[k]!.replace(/^│/, ''))) break;
    parts.push(next);
  }
  return parts.join(' ');
}

/**
 * The last limit message in `text` (the newest on screen), or null. `now` and `zone()` (the zone the CLI printed its
 * clock times in) turn "10pm" or "in 2 hours" into epoch ms. `zone` is called only when a limit line gives a clock
 * time (why: clockTime).
 */
export function usageLimitIn(text: string, phrases: UsageLimitPhrases, now: number, zone: () => string): UsageLimitSeen | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!phrases.limit.test(lines[i]!)) continue;
    const joined = messageFrom(lines, i, phrases.followLines ?? 0);
    const excerpt = joined.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_MAX);
    const reset = resetOf(joined, now, zone);
    const untilMs = reset ? resetEnd(reset) : undefined;
    // Codex says it retries on the line above its 429 ("Server is busy, reconnecting 2/5" over "└ Exceeded retry limit").
    const retrying = phrases.retrying?.test(`${lines[i - 1] ?? ''} ${joined}`) ?? false;
    const ahead = reset && untilMs !== undefined && untilMs > now ? { untilMs, precision: reset.precision } : {};
    return { state: stateOf(reset, now, retrying), ...ahead, excerpt };
  }
  return null;
}

/**
 * A clock time is the vendor's reset (a CLI announces its own retry as a count, "retrying in 12s"): a hold however
 * near. A count far off holds; a near one, or a CLI retrying with no reset named, is a throttle it rides out itself.
 */
function stateOf(reset: ShownReset | undefined, now: number, retrying: boolean): UsageLimitState {
  if (reset === undefined) return retrying ? 'throttled' : 'limited';
  if (reset.precision !== 'relative') return 'limited';
  return resetEnd(reset) - now > THROTTLE_MAX_MS ? 'limited' : 'throttled';
}
