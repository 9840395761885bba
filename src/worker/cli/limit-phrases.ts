// How each pinned CLI words a vendor's usage limit or rate limit on its screen (docs/clis.md "Usage limits" has the
// screens they come from; test/fixtures/screens/*-limit-*.txt holds them). Data for usage-limit.ts.
import { usageLimitIn, type UsageLimitPhrases, type UsageLimitSeen } from './usage-limit.js';

/**
 * Claude Code 2.1.332. Billed by API key or token it retries a 429 ten times, showing the window and when it resets:
 * "✻ 5-hour limit reached · retrying in 12s (10:03pm) · attempt 6/10". A subscription shows "You've hit your limit ·
 * resets 3pm (Asia/Shanghai)" and older builds "Claude usage limit reached. Your limit will reset at 3pm". After the
 * tenth attempt the retry line gives way to "● API Error: Request rejected (429) · <the API's message>" (no reset).
 */
export const CLAUDE_LIMIT_PHRASES: UsageLimitPhrases = {
  limit: /\b(?:usage|5-hour|7-day|weekly|session|Opus|Sonnet) limit reached\b|You['’]ve hit your (?:usage |session |weekly |5-hour )?limit\b|\brate_limit_error\b|API Error: Request rejected \(429\)/i,
  retrying: /\bretrying in\b|\battempt \d+\/\d+/i,
  followLines: 1,
};

/**
 * Codex 0.171.0: "■ You’ve hit your usage limit. Upgrade to Pro (…), visit … or try again at 10:02 PM." (a typographic
 * apostrophe, the sentence wrapped over two or three lines). A rate limit Codex retries by itself: "• Server is busy,
 * reconnecting 2/5 (4s • esc to interrupt)" over "└ Exceeded retry limit, last status: 429 Too Many Requests".
 */
export const CODEX_LIMIT_PHRASES: UsageLimitPhrases = {
  limit: /You['’]ve hit your usage limit|\bUsage limit reached\b|\bRate limit reached\b|\brate_limit_exceeded\b|exceeded retry limit, last status: 429/i,
  retrying: /\bReconnecting\b|\bretrying\b/i,
  followLines: 3,
};

/**
 * Gemini CLI 0.61.0: a dialog "Usage limit reached for gemini-3.5-flash-lite." (no reset time), or the API's quota
 * words. A per-minute quota it retries silently behind its "Thinking…" spinner: nothing on screen to read.
 */
export const GEMINI_LIMIT_PHRASES: UsageLimitPhrases = {
  limit: /\bUsage limit reached for\b|\bQuota exceeded\b|\bRESOURCE_EXHAUSTED\b|You have exhausted your|exceeded your current quota|\bRate limit exceeded\b/i,
  retrying: /\bretry(?:ing)? in\b|\battempt \d+/i,
  followLines: 2,
};

export const claudeUsageLimitOf = (text: string, now: number, zone: () => string): UsageLimitSeen | null => usageLimitIn(text, CLAUDE_LIMIT_PHRASES, now, zone);
export const codexUsageLimitOf = (text: string, now: number, zone: () => string): UsageLimitSeen | null => usageLimitIn(text, CODEX_LIMIT_PHRASES, now, zone);
export const geminiUsageLimitOf = (text: string, now: number, zone: () => string): UsageLimitSeen | null => usageLimitIn(text, GEMINI_LIMIT_PHRASES, now, zone);
