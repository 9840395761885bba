// What one turn cost, as the CLI's own transcript reports it (issue 30 item 2): the worker reads it at the turn's end,
// the daemon writes it to the usage ledger. Every figure is optional where a CLI does not write it.
import { z } from 'zod';

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One turn's usage read from the transcript. Token counts are summed over the turn's model calls. */
export const TurnUsageSchema = z.strictObject({
  /** The model the CLI named for the turn's last call (`claude-opus-5-5`, `gemini-3.1-pro-preview`). */
  model: z.string().max(200).optional(),
  /** Prompt tokens not read from a cache. */
  inputTokens: count,
  outputTokens: count,
  /** Prompt tokens read from the provider's cache. */
  cacheReadTokens: count,
  /** Prompt tokens written to the provider's cache (Claude Code, Codex report it; Gemini does not). */
  cacheWriteTokens: count,
  /** How much of the context window the turn's last call filled (its whole prompt). */
  contextTokens: count.optional(),
  /** The model's context window, where the CLI writes it (Codex). */
  contextWindow: count.optional(),
  /** Cost in US dollars, only where the CLI writes one per turn (none of the pinned CLIs does today). */
  costUsd: z.number().nonnegative().finite().optional(),
  /** How long the turn took by the CLI's own clock (Claude Code's turn_duration, Codex's task_complete). */
  elapsedMs: count.optional(),
});
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

/** Input, output and both cache counts together: what "tokens" means on the card and in the ledger's totals. */
export function totalTokens(u: Pick<TurnUsage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** A number of tokens as people read it: 950, 12.3k, 4.1M. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
