// A transcript follower: a JsonlTail feeding one CLI's parser, plus the quiet-period settle that Gemini needs.
import { JsonlTail, type JsonlTailOptions } from './jsonl-tail.js';
import type { TranscriptEvent, TranscriptParser } from './types.js';

export const TRANSCRIPT_TIMING = {
  /** After this long without new records the parser may settle. Gemini re-appends a reply with its tool
   *  calls within milliseconds of the first copy, so 1.5 s is far past that and still feels prompt. */
  settleMs: 1500,
} as const;

export interface TranscriptFollowerOptions {
  path: JsonlTailOptions['path'];
  offset?: number;
  parser: TranscriptParser;
  onEvent(event: TranscriptEvent, offset: number): void;
  /** A line that is not JSON (logged by the caller; the follower carries on). */
  onBadLine?(line: string): void;
  pollMs?: number;
  settleMs?: number;
}

export class TranscriptFollower {
  private readonly tail: JsonlTail;
  private settleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: TranscriptFollowerOptions) {
    this.tail = new JsonlTail({
      path: opts.path,
      offset: opts.offset,
      pollMs: opts.pollMs,
      onLine: (line) => {
        if (!line.ok) {
          opts.onBadLine?.(line.line);
          return;
        }
        for (const ev of opts.parser.push(line.record)) opts.onEvent(ev, line.endOffset);
        this.armSettle();
      },
    });
  }

  get offset(): number {
    return this.tail.offset;
  }

  get path(): string | null {
    return this.tail.path;
  }

  start(): void {
    this.tail.start();
  }

  poll(): Promise<void> {
    return this.tail.poll();
  }

  dispose(): void {
    this.tail.dispose();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  private armSettle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      for (const ev of this.opts.parser.settle()) this.opts.onEvent(ev, this.tail.offset);
    }, this.opts.settleMs ?? TRANSCRIPT_TIMING.settleMs);
  }
}
