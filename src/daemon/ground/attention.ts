// When a session needs its person: whom to @-mention, whether to pin the chat and when to buzz (pure; issue 16).
import type { BotConfig } from '../../shared/config.js';

export type AttentionConfig = BotConfig['attention'];

/** Why a session waits for a person: the CLI asks (a menu, a permission, a question) or something went wrong. */
export type WaitReason = 'selection' | 'permission' | 'question' | 'input_failed' | 'crash';

export type AttentionEvent =
  /** The session now waits for a person until they answer (or post again, after a failure). */
  | { kind: 'waiting'; reason: WaitReason }
  /** A turn ended normally after `turnMs`. */
  | { kind: 'turn_end'; turnMs: number };

export interface AttentionPlan {
  /** @-mention the requester (never the group). */
  mention: boolean;
  /** Pin the chat in the requester's chat list until the wait ends. */
  pin: boolean;
  /** Buzz the requester after this long if the wait has not ended; null = never. */
  buzzAfterMs: number | null;
}

const QUIET: AttentionPlan = { mention: false, pin: false, buzzAfterMs: null };

/**
 * The plan for one event. Nobody is singled out without a requester (a prompt after a restart or a take-over is for
 * the operators, not for one person); an ordinary turn end stays quiet unless it took longer than notifyAfterSeconds.
 */
export function attentionPlan(ev: AttentionEvent, cfg: AttentionConfig, hasRequester: boolean): AttentionPlan {
  if (!hasRequester) return QUIET;
  if (ev.kind === 'turn_end') return { ...QUIET, mention: cfg.mention && ev.turnMs > cfg.notifyAfterSeconds * 1000 };
  return {
    mention: cfg.mention,
    pin: cfg.pin,
    buzzAfterMs: cfg.buzzAfterMinutes > 0 ? Math.round(cfg.buzzAfterMinutes * 60_000) : null,
  };
}

/** An open id a mention may carry: anything else (a console user, a forged id) is never put into a tag. */
export const MENTIONABLE_ID = /^ou_[A-Za-z0-9_-]{1,128}$/;
