// A transcript follower: a JsonlTail feeding one CLI's parser, plus the settle step Gemini needs (caller-driven).
import { JsonlTail, type JsonlTailOptions, type TailPace } from './jsonl-tail.js';
import type { TranscriptEvent, TranscriptParser } from './types.js';

export const TRANSCRIPT_TIMING = {
  /** settle() is refused until the file has been quiet this long: records of one step arrive within
   *  milliseconds of each other, so 1 s of silence means the CLI stopped writing for now. */
  settleMs: 1000,
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
  private lastRecordAt = 0;

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
        this.lastRecordAt = Date.now();
        for (const ev of opts.parser.push(line.record)) opts.onEvent(ev, line.endOffset);
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

  /** See JsonlTail.setPace. */
  setPace(pace: TailPace): void {
    this.tail.setPace(pace);
  }

  /**
   * For CLIs without an end-of-turn record (Gemini: `TranscriptLocator.settleWhen === 'screen-ready'`): the caller
   * calls this once the screen is ready again. It reads what is there, and if the file has been quiet for
   * `settleMs` lets the parser close the turn. Returns whether it settled (false: try again on the next tick).
   */
  async settle(now = Date.now()): Promise<boolean> {
    await this.tail.poll();
    if (now - this.lastRecordAt < (this.opts.settleMs ?? TRANSCRIPT_TIMING.settleMs)) return false;
    for (const ev of this.opts.parser.settle()) this.opts.onEvent(ev, this.tail.offset);
    return true;
  }

  dispose(): void {
    this.tail.dispose();
  }
}
