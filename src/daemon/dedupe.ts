// Inbound event dedupe: Feishu redelivers events (and the SDK runs handlers concurrently), so ids are remembered across restarts.
import { readFile } from 'node:fs/promises';
import type { Logger } from '../shared/log.js';
import type { InboundEvent, InboundRejected } from './im/types.js';
import { STORE_FORMAT_VERSION, moveAside, removeStaleTemps, writeFileAtomic, type FlushResult, type StoreLoadFailure } from './store.js';

export const DEDUPE_LIMITS = {
  /** Feishu redelivers within minutes to hours of a missed ACK; a day covers every retry schedule it documents. */
  maxAgeMs: 24 * 60 * 60 * 1000,
  /** Bounds the file (~100 bytes an entry → ~500 KB) even in a very busy day; the oldest go first. */
  maxIds: 5000,
  /** Short: a redelivery right after a crash must still be caught, but a burst of events is one write. */
  writeDebounceMs: 100,
} as const;

export interface DedupeLimits {
  maxAgeMs: number;
  maxIds: number;
  writeDebounceMs: number;
}

const FORMAT = 'larkmux-seen-events';

/** The ids an event is known by: a message by its event id and its message id; a card tap only by its event id. */
export function dedupeKeysOf(ev: InboundEvent): string[] {
  const keys: string[] = [];
  // Keys carry the app id: every bot in a chat receives the same message (same message id) and must handle it.
  if (ev.eventId) keys.push(`ev:${ev.appId}:${ev.eventId}`);
  // Every tap on one card carries that card's message id, so only messages are deduplicated by message id.
  if (ev.kind === 'message') keys.push(`msg:${ev.appId}:${ev.messageId}`);
  return keys;
}

/** The same keys for an event the adapter could not read, so its redelivery is not answered twice. */
export function rejectedDedupeKeys(r: InboundRejected): string[] {
  return [...(r.eventId ? [`ev:${r.appId}:${r.eventId}`] : []), ...(r.messageId ? [`msg:${r.appId}:${r.messageId}`] : [])];
}

export interface InboundDedupeOptions {
  path: string;
  now?: () => number;
  log?: Logger;
  limits?: Partial<DedupeLimits>;
}

export type DedupeLoad = { ok: true; count: number } | StoreLoadFailure;

export class InboundDedupe {
  /** id → first seen (ms); Map keeps insertion order, which is time order. */
  private readonly seen = new Map<string, number>();
  private readonly now: () => number;
  private readonly limits: DedupeLimits;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private lastContent: string | null = null;
  private disposed = false;

  constructor(private readonly opts: InboundDedupeOptions) {
    this.now = opts.now ?? Date.now;
    this.limits = { ...DEDUPE_LIMITS, ...opts.limits };
  }

  /** Reads the remembered ids; a damaged file is moved aside and reported (dedupe then starts empty). */
  async load(): Promise<DedupeLoad> {
    this.seen.clear();
    await removeStaleTemps(this.opts.path);
    let text: string;
    try {
      text = await readFile(this.opts.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, count: 0 };
      return this.fail('unreadable', `cannot read ${this.opts.path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.fail('corrupt', `${this.opts.path} is not valid JSON`);
    }
    const file = raw as { format?: unknown; version?: unknown; seen?: unknown };
    if (!file || typeof file !== 'object' || file.format !== FORMAT || !Array.isArray(file.seen)) return this.fail('corrupt', `${this.opts.path} is not a seen-events file`);
    if (typeof file.version !== 'number' || file.version > STORE_FORMAT_VERSION) return this.fail('future_version', `${this.opts.path} has an unknown version`);
    for (const entry of file.seen as unknown[]) {
      if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') this.seen.set(entry[0], entry[1]);
    }
    this.prune();
    this.lastContent = text;
    return { ok: true, count: this.seen.size };
  }

  private async fail(code: StoreLoadFailure['code'], message: string): Promise<StoreLoadFailure> {
    const movedTo = await moveAside(this.opts.path, this.now());
    this.opts.log?.error({ file: this.opts.path, code, movedTo }, `dedupe store not loaded: ${message}`);
    return { ok: false, code, movedTo, message };
  }

  /**
   * True the first time any of `keys` is seen, and records them all; false for a repeat.
   * An event with no keys cannot be deduplicated and is always first.
   */
  firstSeen(keys: readonly string[]): boolean {
    if (this.disposed) throw new Error('dedupe used after dispose');
    if (keys.some((k) => this.seen.has(k))) return false;
    const at = this.now();
    for (const k of keys) this.seen.set(k, at);
    if (keys.length) {
      this.prune();
      this.scheduleWrite();
    }
    return true;
  }

  /** Convenience for the daemon: `firstSeen(dedupeKeysOf(ev))`. */
  firstSeenEvent(ev: InboundEvent): boolean {
    return this.firstSeen(dedupeKeysOf(ev));
  }

  get size(): number {
    return this.seen.size;
  }

  private prune(): void {
    const cutoff = this.now() - this.limits.maxAgeMs;
    for (const [k, at] of this.seen) {
      if (at >= cutoff && this.seen.size <= this.limits.maxIds) break;
      this.seen.delete(k);
    }
  }

  private scheduleWrite(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.limits.writeDebounceMs);
  }

  flush(): Promise<FlushResult> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = this.chain.then(async (): Promise<FlushResult> => {
      const data = `${JSON.stringify({ format: FORMAT, version: STORE_FORMAT_VERSION, seen: [...this.seen.entries()] })}\n`;
      if (data === this.lastContent) return { ok: true, written: false };
      const res = await writeFileAtomic(this.opts.path, data);
      if (!res.ok) return res;
      this.lastContent = data;
      return { ok: true, written: true };
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.flush();
    this.disposed = true;
  }
}
