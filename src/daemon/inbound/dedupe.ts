// Inbound event dedupe: Feishu redelivers events (and the SDK runs handlers concurrently), so ids are remembered across restarts.
import type { Logger } from '../../platform/log.js';
import type { InboundEvent, InboundRejected } from '../im/types.js';
import { DurableFile, STORE_FORMAT_VERSION, type FlushResult, type ParseVerdict, type StoreLoadFailure } from '../../platform/durable-file.js';

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

/** `{ format, version, seen: [[key, firstSeenMs], …] }`; a malformed entry is skipped (it only costs one possible repeat). */
function parseSeenEvents(raw: unknown, path: string): ParseVerdict<[string, number][]> {
  const file = raw as { format?: unknown; version?: unknown; seen?: unknown } | null;
  if (!file || typeof file !== 'object' || file.format !== FORMAT || !Array.isArray(file.seen)) return { ok: false, code: 'corrupt', message: `${path} is not a seen-events file` };
  if (typeof file.version !== 'number' || file.version > STORE_FORMAT_VERSION) return { ok: false, code: 'future_version', message: `${path} has an unknown version` };
  const entries = (file.seen as unknown[]).filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number');
  return { ok: true, value: entries };
}

export class InboundDedupe {
  /** id → first seen (ms); Map keeps insertion order, which is time order. */
  private readonly seen = new Map<string, number>();
  private readonly now: () => number;
  private readonly limits: DedupeLimits;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly file: DurableFile;
  private disposed = false;

  constructor(private readonly opts: InboundDedupeOptions) {
    this.now = opts.now ?? Date.now;
    this.limits = { ...DEDUPE_LIMITS, ...opts.limits };
    this.file = new DurableFile(opts.path, { what: 'dedupe store', now: this.now, ...(opts.log ? { log: opts.log } : {}) });
  }

  /** Reads the remembered ids; a damaged file is kept aside and reported (dedupe then starts empty), as every store's. */
  async load(): Promise<DedupeLoad> {
    this.seen.clear();
    const res = await this.file.load((raw) => parseSeenEvents(raw, this.opts.path));
    if (!res.ok) return res;
    for (const [key, at] of res.value ?? []) this.seen.set(key, at);
    this.prune();
    return { ok: true, count: this.seen.size };
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
    const run = this.chain.then(() => this.file.write(`${JSON.stringify({ format: FORMAT, version: STORE_FORMAT_VERSION, seen: [...this.seen.entries()] })}\n`));
    this.chain = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.flush();
    this.disposed = true;
  }
}
