// Follows an append-only JSONL file from a byte offset: whole lines only, partial last line kept for the next read.
import { watch, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export const JSONL_TAIL_TIMING = {
  /** Poll period. The CLIs append a few records per turn; a quarter second keeps turn-end latency low
   *  while costing one stat() per tick (fs.watch alone misses appends on some filesystems and in containers). */
  pollMs: 250,
  /**
   * Poll period while the session is idle (no turn open): an idle session must cost nothing (issue 14). fs.watch on
   * the file wakes the reader meanwhile where inotify works; this catches the filesystems where it does not.
   */
  idlePollMs: 60_000,
  /** Largest chunk read per tick, so a huge transcript is consumed in steps instead of one giant buffer. */
  maxReadBytes: 4 * 1024 * 1024,
} as const;

export type TailLine = { ok: true; record: unknown; endOffset: number } | { ok: false; line: string; endOffset: number };

export interface JsonlTailOptions {
  /** The file, or a locator polled until it names one (Codex creates its rollout only at the first prompt). */
  path: string | (() => Promise<string | null>);
  /** Byte offset to start from (0 = the whole file; a saved offset resumes where a previous worker stopped). */
  offset?: number;
  pollMs?: number;
  onLine(line: TailLine): void;
  /** The file shrank (replaced or truncated): reading restarts at 0. */
  onReset?(path: string): void;
}

const NEWLINE = 0x0a;

/** `active`: a turn is open, poll every pollMs. `idle`: fs.watch plus a slow safety poll. */
export type TailPace = 'active' | 'idle';

export class JsonlTail {
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private resolvedPath: string | null;
  private pos: number;
  private disposed = false;
  private pace: TailPace = 'active';
  private watcher: FSWatcher | null = null;

  constructor(private readonly opts: JsonlTailOptions) {
    this.resolvedPath = typeof opts.path === 'string' ? opts.path : null;
    this.pos = opts.offset ?? 0;
  }

  /** Byte offset just after the last whole line delivered. */
  get offset(): number {
    return this.pos;
  }

  get path(): string | null {
    return this.resolvedPath;
  }

  start(): void {
    if (this.timer || this.disposed) return;
    this.arm();
    void this.poll();
  }

  /** Switches between fast polling (a turn open) and watch-plus-slow-poll (idle). */
  setPace(pace: TailPace): void {
    if (pace === this.pace || this.disposed) return;
    this.pace = pace;
    if (this.timer) this.arm();
    if (pace === 'active') void this.poll();
  }

  private arm(): void {
    if (this.timer) clearInterval(this.timer);
    const ms = this.pace === 'active' ? this.opts.pollMs ?? JSONL_TAIL_TIMING.pollMs : JSONL_TAIL_TIMING.idlePollMs;
    this.timer = setInterval(() => void this.poll(), ms);
    this.timer.unref();
    this.unwatch();
    if (this.pace === 'idle' && this.resolvedPath) {
      try {
        this.watcher = watch(this.resolvedPath, { persistent: false }, () => void this.poll());
        this.watcher.on('error', () => this.unwatch());
      } catch {
        this.watcher = null; // gone or unwatchable: the slow poll remains
      }
    }
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  /** Reads whatever is there now (also used by tests and by the worker right after a submit). */
  poll(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.reading) this.reading = this.readOnce().finally(() => (this.reading = null));
    return this.reading;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unwatch();
  }

  private async readOnce(): Promise<void> {
    if (!this.resolvedPath && typeof this.opts.path === 'function') {
      this.resolvedPath = await this.opts.path();
      if (!this.resolvedPath) return;
    }
    const path = this.resolvedPath;
    if (!path) return;
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return; // not created yet, or being replaced: try again next tick
    }
    if (size < this.pos) {
      this.pos = 0;
      this.opts.onReset?.(path);
    }
    while (!this.disposed && size > this.pos) {
      const want = Math.min(size - this.pos, JSONL_TAIL_TIMING.maxReadBytes);
      const buf = Buffer.alloc(want);
      const fh = await open(path, 'r').catch(() => null);
      if (!fh) return;
      let got = 0;
      try {
        got = (await fh.read(buf, 0, want, this.pos)).bytesRead;
      } finally {
        await fh.close();
      }
      const lastNl = buf.subarray(0, got).lastIndexOf(NEWLINE);
      if (lastNl < 0) {
        // A partial line. If it already fills a whole chunk, the line is longer than we read at once: give up on it.
        if (got === JSONL_TAIL_TIMING.maxReadBytes) this.pos += got;
        return;
      }
      this.deliver(buf.subarray(0, lastNl + 1), this.pos);
      this.pos += lastNl + 1;
    }
  }

  private deliver(chunk: Buffer, base: number): void {
    let start = 0;
    while (start < chunk.length && !this.disposed) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? chunk.length : nl;
      const line = chunk.subarray(start, end).toString('utf8').trim();
      const endOffset = base + end + 1;
      start = end + 1;
      if (!line) continue;
      try {
        this.opts.onLine({ ok: true, record: JSON.parse(line) as unknown, endOffset });
      } catch {
        this.opts.onLine({ ok: false, line: line.slice(0, 200), endOffset });
      }
    }
  }
}
