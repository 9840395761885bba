// What a transcript parser turns a CLI's own JSONL records into: user turns, turn ends, and the native session id.
import type { TurnUsage } from '../../shared/usage.js';

/** One thing the worker learns from the CLI's transcript. */
export type TranscriptEvent =
  /** A prompt a person (or the bridge) submitted; tool results and harness notes are not user turns. */
  | { kind: 'user_turn'; text: string }
  /**
   * A prompt typed while the CLI worked that it took into the running turn instead of as a turn of its own (Claude
   * Code hands it to the model beside the next tool result): proof the CLI received it; the running turn's end is its end.
   */
  | { kind: 'absorbed_prompt'; text: string }
  /**
   * The CLI finished answering; `finalText` is the assistant's visible text for that turn ('' when it wrote none);
   * `usage` is what the turn's model calls reported (absent when none did).
   */
  | { kind: 'turn_end'; finalText: string; usage?: TurnUsage }
  /** The CLI's own session id, for `--resume` and for locating the transcript again. */
  | { kind: 'identity'; nativeSessionId: string };

/**
 * Turns parsed JSONL records into events, one record at a time. Stateful (it remembers the assistant text
 * of the turn in progress), pure otherwise: no clocks, no files.
 */
export interface TranscriptParser {
  /** Feeds one parsed JSON line; returns the events it completes (usually none). */
  push(record: unknown): TranscriptEvent[];
  /**
   * Called once the screen is ready again and the file has gone quiet. Gemini has no end-of-turn record, and a
   * reply is re-appended with its tool calls only after a permission prompt is answered, so its parser waits
   * for this before declaring a turn over; the others return [].
   */
  settle(): TranscriptEvent[];
}

/** Runs a parser over a whole array of records, then settles it: for tests and for one-shot reads. */
export function parseAll(parser: TranscriptParser, records: readonly unknown[]): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  for (const r of records) out.push(...parser.push(r));
  out.push(...parser.settle());
  return out;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * A parser that keeps only the session's identity from records written before `sinceMs` (by their ISO `timestamp`;
 * records without one count as new): their turns are history. For a
 * transcript found by time rather than by id — a CLI taken over by `/adopt` — whose earlier turns, read from the
 * file's start, must not be taken for the turn just sent.
 */
export function parserSince(inner: TranscriptParser, sinceMs: number): TranscriptParser {
  return {
    push(record) {
      const at = isRecord(record) && typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
      const events = inner.push(record);
      return Number.isFinite(at) && at < sinceMs ? events.filter((e) => e.kind === 'identity') : events;
    },
    settle: () => inner.settle(),
  };
}
