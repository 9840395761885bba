// Sums one turn's model calls into a TurnUsage, and reads each CLI's per-call usage record (issue 30 item 2).
// The parsers feed it as they read; the turn's usage rides on its `turn_end` event.
import type { TurnUsage } from '../../shared/usage.js';
import { isRecord, str } from './types.js';

/** One model call's figures, already split into the ledger's four kinds of tokens. */
export interface CallUsage {
  model?: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The call's whole prompt: how full the context was. */
  contextTokens: number;
  contextWindow?: number;
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/**
 * The calls of the turn in progress, by call id: a CLI that writes one call's usage on several records (Claude Code
 * writes it on every content block, Gemini re-appends a reply) counts it once, its last figures winning.
 */
export class UsageTally {
  private readonly calls = new Map<string, CallUsage>();
  private unnamed = 0;

  /** `callId` undefined: a call seen once (Codex), kept under a fresh key. */
  add(callId: string | undefined, call: CallUsage): void {
    const key = callId ?? `#${this.unnamed++}`;
    this.calls.delete(key); // re-inserted last: the newest call names the model and the context
    this.calls.set(key, call);
  }

  /** The turn's usage (undefined when it made no call that reported usage); the tally starts over. */
  take(elapsedMs?: number): TurnUsage | undefined {
    const calls = [...this.calls.values()];
    this.reset();
    if (calls.length === 0) return undefined;
    const last = calls[calls.length - 1]!;
    const sum = (k: 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'): number => calls.reduce((a, c) => a + c[k], 0);
    return {
      ...(last.model ? { model: last.model } : {}),
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      cacheReadTokens: sum('cacheReadTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
      contextTokens: last.contextTokens,
      ...(last.contextWindow ? { contextWindow: last.contextWindow } : {}),
      ...(elapsedMs !== undefined && elapsedMs >= 0 ? { elapsedMs: Math.floor(elapsedMs) } : {}),
    };
  }

  reset(): void {
    this.calls.clear();
    this.unnamed = 0;
  }
}

/** Claude Code: `message.usage` of an assistant record (Anthropic's fields); the harness's `<synthetic>` rows are no call. */
export function claudeCallUsage(message: Record<string, unknown>): CallUsage | null {
  const model = str(message.model);
  const u = message.usage;
  if (!isRecord(u) || model === '<synthetic>') return null;
  const input = n(u.input_tokens);
  const cacheRead = n(u.cache_read_input_tokens);
  const cacheWrite = n(u.cache_creation_input_tokens);
  return {
    ...(model ? { model } : {}),
    inputTokens: input,
    outputTokens: n(u.output_tokens),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    contextTokens: input + cacheRead + cacheWrite,
  };
}

/**
 * Codex: an `event_msg/token_count` payload's `info.last_token_usage` (OpenAI's fields: `input_tokens` includes the
 * cached ones, `output_tokens` the reasoning). Returns the running total too: Codex repeats a token_count without a new
 * call, and a repeat is known by an unchanged total.
 */
export function codexCallUsage(payload: Record<string, unknown>, model: string | undefined): { call: CallUsage; total: number } | null {
  const info = payload.info;
  if (!isRecord(info) || !isRecord(info.last_token_usage)) return null;
  const last = info.last_token_usage;
  const input = n(last.input_tokens);
  const cached = Math.min(n(last.cached_input_tokens), input);
  const window = n(info.model_context_window);
  return {
    call: {
      ...(model ? { model } : {}),
      inputTokens: input - cached,
      outputTokens: n(last.output_tokens),
      cacheReadTokens: cached,
      cacheWriteTokens: n(last.cache_write_input_tokens),
      contextTokens: input,
      ...(window ? { contextWindow: window } : {}),
    },
    total: isRecord(info.total_token_usage) ? n(info.total_token_usage.total_tokens) : -1,
  };
}

/**
 * Gemini CLI: a `gemini` record's `tokens` ({input, output, cached, thoughts, tool, total}: `input` includes the cached
 * prompt tokens; thoughts are billed as output, tool-use prompt tokens as input).
 */
export function geminiCallUsage(record: Record<string, unknown>): CallUsage | null {
  const t = record.tokens;
  if (!isRecord(t)) return null;
  const prompt = n(t.input);
  const cached = Math.min(n(t.cached), prompt);
  const model = str(record.model);
  return {
    ...(model ? { model } : {}),
    inputTokens: prompt - cached + n(t.tool),
    outputTokens: n(t.output) + n(t.thoughts),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    contextTokens: prompt + n(t.tool),
  };
}
