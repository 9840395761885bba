// Outbound pacing for Feishu: per-API app budgets, retries with backoff, and per-card single-flight latest-wins patching.
import type { Logger } from '../../../platform/log.js';
import type { LarkFailure } from './errors.js';

export const DELIVERY_LIMITS = {
  /** Feishu: 50/s per app for each of send/reply, patch, upload; 40 leaves headroom for clock skew. */
  appPerSecond: 40,
  /** Feishu: 1000/min per app per API. */
  appPerMinute: 900,
  /** Feishu: 5 updates/s per message; one every 250 ms (4/s) keeps clear of the edge. */
  perMessageIntervalMs: 250,
  /** 1 try + 6 retries: with 200 ms doubling to 5 s that is ~11 s of patience before giving up. */
  maxAttempts: 7,
  backoffBaseMs: 200,
  backoffMaxMs: 5000,
} as const;

export type DeliveryLimits = { -readonly [K in keyof typeof DELIVERY_LIMITS]: number };

export type ApiKind = 'send' | 'patch' | 'upload' | 'reaction' | 'other';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** Sliding-window budget (per second and per minute) for one API kind. Pure bookkeeping; the caller waits. */
export class RateWindow {
  private readonly stamps: number[] = [];

  constructor(private readonly perSecond: number, private readonly perMinute: number) {}

  /** How long to wait before the next call may go; 0 means now (and the call is then counted by `record`). */
  waitMs(now: number): number {
    while (this.stamps.length && now - this.stamps[0]! >= 60_000) this.stamps.shift();
    let wait = 0;
    if (this.stamps.length >= this.perMinute) wait = Math.max(wait, this.stamps[this.stamps.length - this.perMinute]! + 60_000 - now);
    const lastSecond = this.stamps.filter((t) => now - t < 1000);
    if (lastSecond.length >= this.perSecond) wait = Math.max(wait, lastSecond[lastSecond.length - this.perSecond]! + 1000 - now);
    return wait;
  }

  record(now: number): void {
    this.stamps.push(now);
  }
}

export class AppBudget {
  private readonly windows = new Map<ApiKind, RateWindow>();

  constructor(private readonly limits: DeliveryLimits, private readonly clock: Clock) {}

  async acquire(kind: ApiKind): Promise<void> {
    let w = this.windows.get(kind);
    if (!w) {
      w = new RateWindow(this.limits.appPerSecond, this.limits.appPerMinute);
      this.windows.set(kind, w);
    }
    for (let wait = w.waitMs(this.clock.now()); wait > 0; wait = w.waitMs(this.clock.now())) await this.clock.sleep(wait);
    w.record(this.clock.now());
  }
}

/** Delay before retry number `attempt` (0-based): doubling, capped, honouring the platform's reset hint. */
export function backoffMs(attempt: number, limits: Pick<DeliveryLimits, 'backoffBaseMs' | 'backoffMaxMs'>, retryAfterSec?: number): number {
  const exp = Math.min(limits.backoffMaxMs, limits.backoffBaseMs * 2 ** attempt);
  const hinted = retryAfterSec ? Math.min(limits.backoffMaxMs, retryAfterSec * 1000) : 0;
  return Math.max(exp, hinted);
}

export type Outcome<T> = { ok: true; value: T } | LarkFailure;

/** Runs `op` under the budget for `kind`, retrying retryable failures with backoff. */
export async function withRetries<T>(kind: ApiKind, op: () => Promise<Outcome<T>>, deps: { budget: AppBudget; limits: DeliveryLimits; clock: Clock; isDisposed?: () => boolean }): Promise<Outcome<T>> {
  for (let attempt = 0; ; attempt++) {
    await deps.budget.acquire(kind);
    const r = await op();
    if (r.ok || !r.retryable || attempt + 1 >= deps.limits.maxAttempts || deps.isDisposed?.()) return r;
    await deps.clock.sleep(backoffMs(attempt, deps.limits, r.retryAfterSec));
  }
}

interface Waiter {
  resolve: (r: Outcome<{ messageId: string }>) => void;
}

interface CardSlot {
  currentId: string;
  pending: { content: string; waiters: Waiter[] } | null;
  running: boolean;
  lastPatchAt: number;
}

export interface PatcherDeps {
  patch(messageId: string, content: string): Promise<Outcome<unknown>>;
  /** Sends the content as a new card in place of `messageId`; resolves with the new message id. */
  replace(messageId: string, content: string): Promise<Outcome<string>>;
  budget: AppBudget;
  limits: DeliveryLimits;
  clock: Clock;
  log: Logger;
}

/**
 * Per-card single-flight patch queue. While a patch is in flight (or backing off), newer versions replace the
 * queued one; every caller's promise resolves when its version or a later one has landed.
 */
export class CardPatcher {
  private readonly slots = new Map<string, CardSlot>();
  /** Old message id → the card that replaced it, so callers holding an old ref still reach the live card. */
  private readonly redirects = new Map<string, string>();
  private disposed = false;

  constructor(private readonly deps: PatcherDeps) {}

  resolveId(id: string): string {
    let cur = id;
    for (let i = 0; i < 20 && this.redirects.has(cur); i++) cur = this.redirects.get(cur)!;
    return cur;
  }

  update(messageId: string, content: string): Promise<Outcome<{ messageId: string }>> {
    if (this.disposed) return Promise.resolve({ ok: false, code: 'refused', message: 'adapter disposed', retryable: false });
    const id = this.resolveId(messageId);
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { currentId: id, pending: null, running: false, lastPatchAt: 0 };
      this.slots.set(id, slot);
    }
    return new Promise((resolve) => {
      const s = slot!;
      const waiters = s.pending ? s.pending.waiters : [];
      waiters.push({ resolve });
      s.pending = { content, waiters };
      if (!s.running) void this.run(s);
    });
  }

  private async run(slot: CardSlot): Promise<void> {
    slot.running = true;
    try {
      while (slot.pending && !this.disposed) {
        let { content, waiters } = slot.pending;
        slot.pending = null;
        let result: Outcome<{ messageId: string }> | null = null;
        for (let attempt = 0; result === null; attempt++) {
          const gap = slot.lastPatchAt + this.deps.limits.perMessageIntervalMs - this.deps.clock.now();
          if (gap > 0) await this.deps.clock.sleep(gap);
          // Latest wins: a newer version that arrived while we waited is sent instead (the cast undoes TS's narrowing).
          const newer = slot.pending as CardSlot['pending'];
          if (newer) {
            waiters = waiters.concat(newer.waiters);
            content = newer.content;
            slot.pending = null;
          }
          if (this.disposed) break;
          await this.deps.budget.acquire('patch');
          slot.lastPatchAt = this.deps.clock.now();
          const r = await this.deps.patch(slot.currentId, content);
          if (r.ok) result = { ok: true, value: { messageId: slot.currentId } };
          else if (r.code === 'message_gone') result = await this.replace(slot, content, r.message);
          else if (r.retryable && attempt + 1 < this.deps.limits.maxAttempts) {
            this.deps.log.debug({ messageId: slot.currentId, attempt, code: r.code }, 'card patch will be retried');
            await this.deps.clock.sleep(backoffMs(attempt, this.deps.limits, r.retryAfterSec));
          } else result = r;
        }
        const final = result ?? { ok: false, code: 'refused', message: 'adapter disposed', retryable: false };
        if (!final.ok) this.deps.log.warn({ messageId: slot.currentId, code: final.code, detail: final.message }, 'card patch failed');
        for (const w of waiters) w.resolve(final);
      }
    } finally {
      slot.running = false;
    }
  }

  private async replace(slot: CardSlot, content: string, why: string): Promise<Outcome<{ messageId: string }>> {
    const oldId = slot.currentId;
    const r = await this.deps.replace(oldId, content);
    if (!r.ok) return r;
    this.deps.log.info({ oldMessageId: oldId, newMessageId: r.value, why }, 'card could not be patched; sent a replacement');
    this.redirects.set(oldId, r.value);
    this.slots.delete(oldId);
    slot.currentId = r.value;
    this.slots.set(r.value, slot);
    return { ok: true, value: { messageId: r.value } };
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.values()) {
      for (const w of slot.pending?.waiters ?? []) w.resolve({ ok: false, code: 'refused', message: 'adapter disposed', retryable: false });
      slot.pending = null;
    }
  }
}
