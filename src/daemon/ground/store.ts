// The session store: sessions-<appId>.json and its render-state sibling, written atomically, coalesced, never silently emptied.
import { copyFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { Logger } from '../../platform/log.js';
import { larkmuxPaths, sessionStoreSibling, type SessionStoreSibling } from '../../platform/paths.js';
import { DurableFile, STORE_FORMAT_VERSION, asideName, parseRecordEnvelope, type FlushResult, type ParseVerdict, type StoreLoadFailure } from '../../platform/durable-file.js';
import { RenderStateSchema, type RenderState } from './render-state.js';
import { SESSION_STORE_FORMAT, SessionCoreSchema } from '../../shared/session-record.js';
import type { SessionCore } from './session-core.js';

export const STORE_TIMING = {
  /** A turn produces a burst of status changes within milliseconds; 200 ms folds them into one write yet loses little on a crash. */
  writeDebounceMs: 200,
  /** Closed sessions stay listed for a week (`larkmux sessions`), then are dropped at load. */
  closedRetentionMs: 7 * 24 * 60 * 60 * 1000,
} as const;


export interface DroppedRecord {
  index: number;
  id?: string;
  reason: string;
}

export type RecordFileLoad<T> =
  | { ok: true; records: T[]; dropped: DroppedRecord[]; droppedCopy?: string }
  | StoreLoadFailure;

export interface RecordFileSpec<T> {
  /** Written into the file so a wrong file is recognised: e.g. `larkmux-sessions`. */
  format: string;
  schema: z.ZodType<T>;
  idOf(record: T): string;
}

export interface RecordFileOptions {
  debounceMs?: number;
  now?: () => number;
  log?: Logger;
}

function describeIssues(err: z.ZodError): string {
  return err.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : 'record'}: ${i.message}`).join('; ');
}

/** A versioned JSON file of records keyed by id, kept in memory and written behind a debounce. */
export class RecordFile<T> {
  private readonly records = new Map<string, T>();
  private readonly file: DurableFile;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private readonly debounceMs: number;
  private readonly now: () => number;

  constructor(readonly path: string, private readonly spec: RecordFileSpec<T>, private readonly opts: RecordFileOptions = {}) {
    this.debounceMs = opts.debounceMs ?? STORE_TIMING.writeDebounceMs;
    this.now = opts.now ?? Date.now;
    this.file = new DurableFile(path, { what: spec.format, now: this.now, ...(opts.log ? { log: opts.log } : {}) });
  }

  async load(): Promise<RecordFileLoad<T>> {
    this.records.clear();
    const res = await this.file.load((raw) => this.parseFile(raw));
    if (!res.ok) return res;
    if (res.value === null) {
      // No file yet: an empty store is not worth writing until something is put in it.
      this.file.assumeWritten(this.serialize());
      return { ok: true, records: [], dropped: [] };
    }
    const dropped: DroppedRecord[] = [];
    res.value.forEach((rec: unknown, index) => {
      const rawId = rec && typeof rec === 'object' ? (rec as Record<string, unknown>).id ?? (rec as Record<string, unknown>).sessionId : undefined;
      const idHint = typeof rawId === 'string' ? rawId.slice(0, 64) : undefined;
      const parsed = this.spec.schema.safeParse(rec);
      if (!parsed.success) return void dropped.push({ index, ...(idHint ? { id: idHint } : {}), reason: describeIssues(parsed.error) });
      const rid = this.spec.idOf(parsed.data);
      if (this.records.has(rid)) return void dropped.push({ index, id: rid, reason: 'duplicate id' });
      this.records.set(rid, parsed.data);
    });
    let droppedCopy: string | undefined;
    if (dropped.length) {
      // The next write leaves the dropped records out; keep the original bytes so nothing is lost for good.
      const target = await asideName(this.path, 'dropped', this.now());
      droppedCopy = await copyFile(this.path, target).then(() => target, () => undefined);
      this.opts.log?.warn({ file: this.path, dropped, droppedCopy }, 'dropped invalid records from store');
    }
    return { ok: true, records: [...this.records.values()], dropped, ...(droppedCopy ? { droppedCopy } : {}) };
  }

  /** The envelope `{ format, version, records: [...] }`; records are checked one by one by load(). */
  private parseFile(raw: unknown): ParseVerdict<unknown[]> {
    return parseRecordEnvelope(raw, this.spec.format, this.path);
  }

  list(): T[] {
    return [...this.records.values()];
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  put(record: T): void {
    this.assertLive();
    this.records.set(this.spec.idOf(record), record);
    this.scheduleWrite();
  }

  delete(id: string): boolean {
    this.assertLive();
    const had = this.records.delete(id);
    if (had) this.scheduleWrite();
    return had;
  }

  /** Records sorted by id and pretty-printed: the same records always give the same bytes. */
  serialize(): string {
    const records = [...this.records.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
    return `${JSON.stringify({ format: this.spec.format, version: STORE_FORMAT_VERSION, records }, null, 2)}\n`;
  }

  private scheduleWrite(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.debounceMs);
  }

  /** Writes now if the content changed; concurrent flushes are serialised and the latest records win. */
  flush(): Promise<FlushResult> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = this.chain.then(() => this.writeIfChanged());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private writeIfChanged(): Promise<FlushResult> {
    return this.file.write(this.serialize());
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.flush();
    this.disposed = true;
  }

  private assertLive(): void {
    if (this.disposed) throw new Error(`store ${this.path} used after dispose`);
  }
}

export interface StoreOptions extends RecordFileOptions {
  home: string;
  appId: string;
}

/** What both stores do with their file alike: one record by id, a validated put, remove, flush and dispose. */
export abstract class RecordStore<T> {
  protected constructor(protected readonly file: RecordFile<T>, private readonly schema: z.ZodType<T>) {}

  get path(): string {
    return this.file.path;
  }

  get(id: string): T | undefined {
    return this.file.get(id);
  }

  /** Stores a record; an invalid record is a bug in the caller and throws. */
  put(record: T): T {
    const parsed = this.schema.parse(record);
    this.file.put(parsed);
    return parsed;
  }

  remove(id: string): boolean {
    return this.file.delete(id);
  }

  flush(): Promise<FlushResult> {
    return this.file.flush();
  }

  dispose(): Promise<void> {
    return this.file.dispose();
  }
}

export type SessionStoreLoad = { ok: true; sessions: SessionCore[]; dropped: DroppedRecord[]; droppedCopy?: string } | StoreLoadFailure;

/** One bot's sessions (sessions-<appId>.json). Restore is metadata only: nothing here starts a worker. */
export class SessionStore extends RecordStore<SessionCore> {
  private readonly now: () => number;

  constructor(opts: StoreOptions) {
    super(new RecordFile(larkmuxPaths(opts.home).sessionStore(opts.appId), { format: SESSION_STORE_FORMAT, schema: SessionCoreSchema, idOf: (s) => s.id }, opts), SessionCoreSchema);
    this.now = opts.now ?? Date.now;
  }

  async load(): Promise<SessionStoreLoad> {
    const res = await this.file.load();
    if (!res.ok) return res;
    const cutoff = this.now() - STORE_TIMING.closedRetentionMs;
    for (const s of res.records) if (s.lifecycle === 'closed' && s.lastActivityAt < cutoff) this.file.delete(s.id);
    return { ok: true, sessions: this.all(), dropped: res.dropped, ...(res.droppedCopy ? { droppedCopy: res.droppedCopy } : {}) };
  }

  all(): SessionCore[] {
    return this.file.list();
  }

  /** The session a key routes to: the open one if any, else the most recent closed one. */
  getByKey(key: string): SessionCore | undefined {
    let best: SessionCore | undefined;
    for (const s of this.file.list()) {
      if (s.key !== key) continue;
      const rank = (x: SessionCore) => [x.lifecycle === 'closed' ? 0 : 1, x.createdAt] as const;
      if (!best) best = s;
      else {
        const [ao, at] = rank(s);
        const [bo, bt] = rank(best);
        if (ao > bo || (ao === bo && at > bt)) best = s;
      }
    }
    return best;
  }

  update(id: string, patch: Partial<Omit<SessionCore, 'id' | 'key' | 'appId' | 'anchorId' | 'tmuxName'>>): SessionCore | undefined {
    const cur = this.file.get(id);
    if (!cur) return undefined;
    return this.put({ ...cur, ...patch });
  }
}

/** The render-state sibling of a session store: `sessions-<appId>.json` → `sessions-<appId>.render.json`. */
export function renderStatePath(home: string, appId: string): string {
  return sessionStoreSibling(larkmuxPaths(home).sessionStore(appId), 'render');
}

export type RenderStateLoad = { ok: true; states: RenderState[]; dropped: DroppedRecord[] } | StoreLoadFailure;

/** The IM adapter's per-session card state; written and read only by the adapter side. */
export class RenderStateStore extends RecordStore<RenderState> {
  constructor(opts: StoreOptions) {
    super(new RecordFile(renderStatePath(opts.home, opts.appId), { format: 'larkmux-render-state', schema: RenderStateSchema, idOf: (r) => r.sessionId }, opts), RenderStateSchema);
  }

  async load(): Promise<RenderStateLoad> {
    const res = await this.file.load();
    return res.ok ? { ok: true, states: res.records, dropped: res.dropped } : res;
  }
}

/** `sessions-<appId>.json` → `sessions-<appId>.<kind>.json`: where a bot keeps other records beside its sessions. */
export function siblingStorePath(home: string, appId: string, kind: SessionStoreSibling): string {
  return sessionStoreSibling(larkmuxPaths(home).sessionStore(appId), kind);
}

/**
 * A bot's records of one kind beside its sessions (schedules, usage holds), by the same durable machinery. `flush()`
 * writes at once, not behind the debounce: its users put a change on disk before they act on it.
 */
export class SiblingStore<T> extends RecordStore<T> {
  constructor(opts: StoreOptions, kind: SessionStoreSibling, spec: RecordFileSpec<T>) {
    super(new RecordFile(siblingStorePath(opts.home, opts.appId, kind), spec, opts), spec.schema);
  }

  load(): Promise<RecordFileLoad<T>> {
    return this.file.load();
  }

  all(): T[] {
    return this.file.list();
  }
}
