// When the worker tells the daemon about a usage limit (issue 30.3): once per change of state, not per frame; with the
// turn that hit it; `clear` once a later turn went through. Pure: events in, the state and at most one message out.
import type { UsageLimitSeen } from '../cli/usage-limit.js';

export type LimitReportState = {
  /** What the daemon was last told; null before any limit was seen. */
  told: 'limited' | 'throttled' | 'clear' | null;
  untilMs?: number;
  /** The words last reported, as they were (digits kept): read again, they are the same message still on screen. */
  excerpt?: string;
  /** The turn the limit was reported for. */
  turnId?: string;
  /** Every wording the limit was seen in since it was reported, digits dropped (they tick: "retrying in 12s"). */
  words?: string[];
  /** After a clear: those wordings, which may stay on screen a while, so they are not reported again. */
  stale?: string[];
};

export type LimitEvent =
  /** A look at the screen: the limit it shows (null: none), and the latest turn sent to the CLI. */
  | { type: 'screen'; seen: UsageLimitSeen | null; turnId?: string; now: number }
  /** A turn ended: its final text (empty when the CLI wrote no answer), and whether that text is itself a limit. */
  | { type: 'turn_end'; turnId?: string; finalText: string; limitInText: boolean };

export type LimitReport = { state: 'limited' | 'throttled' | 'clear'; untilMs?: number; excerpt: string; turnId?: string };

/**
 * A reset moving by less than this is the same limit: Claude re-reads the reset on each retry, and a window that
 * rolls by a minute is not news for the daemon.
 */
export const SAME_RESET_MS = 5 * 60_000;

const wordsOf = (excerpt: string): string => excerpt.replace(/\d+/g, '#');
/** Wordings of one limit remembered (Claude shows two: the retry line, then the final API error). */
const WORDINGS_KEPT = 8;

export function limitReportStep(state: LimitReportState, ev: LimitEvent): { state: LimitReportState; report: LimitReport | null } {
  if (ev.type === 'screen') {
    const seen = ev.seen;
    if (!seen) {
      if (state.stale === undefined) return { state, report: null };
      const { stale: _gone, ...rest } = state;
      return { state: rest, report: null };
    }
    const words = wordsOf(seen.excerpt);
    if (state.stale?.includes(words)) return { state, report: null };
    const known = state.words ?? [];
    const noted = known.includes(words) || known.length >= WORDINGS_KEPT ? state : { ...state, words: [...known, words] };
    // A later frame that no longer names the reset (Claude's final "API Error … (429)") keeps the one already told.
    // The very words already reported are that message still on screen, however its reset reads now: "try again at
    // 8:54 PM" read after 20:55 is tomorrow's 8:54 PM to the clock parser, not a new limit.
    const sameReset = seen.untilMs === undefined || seen.excerpt === state.excerpt || (state.untilMs !== undefined && Math.abs(seen.untilMs - state.untilMs) < SAME_RESET_MS);
    if (state.told === seen.state && sameReset) return { state: noted, report: null };
    // A retry line that lost its reset for a frame (Claude redraws it every second) does not undo a hold whose reset
    // is still ahead: only a reset named near, or a clear, does.
    if (state.told === 'limited' && seen.state === 'throttled' && seen.untilMs === undefined && (state.untilMs ?? Infinity) > ev.now) return { state: noted, report: null };
    const report: LimitReport = { state: seen.state, excerpt: seen.excerpt, ...(seen.untilMs !== undefined ? { untilMs: seen.untilMs } : {}), ...(ev.turnId ? { turnId: ev.turnId } : {}) };
    return { state: { told: seen.state, ...(seen.untilMs !== undefined ? { untilMs: seen.untilMs } : {}), excerpt: seen.excerpt, ...(ev.turnId ? { turnId: ev.turnId } : {}), words: [words] }, report };
  }
  if (state.told !== 'limited' && state.told !== 'throttled') return { state, report: null };
  // The turn that hit the limit ending with no answer, or with the limit as its answer, is not the CLI working again.
  const sameTurn = ev.turnId !== undefined && ev.turnId === state.turnId;
  if (sameTurn && (ev.limitInText || ev.finalText.trim() === '')) return { state, report: null };
  const report: LimitReport = { state: 'clear', excerpt: '', ...(ev.turnId ? { turnId: ev.turnId } : {}) };
  return { state: { told: 'clear', ...(state.words !== undefined ? { stale: state.words } : {}) }, report };
}
