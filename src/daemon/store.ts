// The session store: sessions-<appId>.json and its render-state sibling, written atomically, coalesced, never silently emptied.
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { access, copyFile, mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import type { Logger } from '../shared/log.js';
import { larkmuxPaths } from '../shared/paths.js';
import { RenderStateSchema, type RenderState } from './render-state.js';
import { SessionCoreSchema, type SessionCore } from './session-core.js';

export const STORE_TIMING = {
  /** A turn produces a burst of status changes within milliseconds; 200 ms folds them into one write yet loses little on a crash. */
  writeDebounceMs: 200,
  /** Closed sessions stay listed for a week (`larkmux sessions`), then are dropped at load. */
  closedRetentionMs: 7 * 24 * 60 * 60 * 1000,
} as const;

/** Bumped when the file layout changes; a file from a newer larkmux is kept aside, never rewritten. */
export const STORE_FORMAT_VERSION = 1;

export type AtomicWriteResult = { ok: true } | { ok: false; code: 'write_failed'; message: string };

/** Writes a file so that readers see the old bytes or the new bytes, never a mix: temp file in the same dir, fsync, rename. */
export async function writeFileAtomic(path: string, data: string): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const tmp = join(dir, `${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(data, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    return { ok: false, code: 'write_failed', message: `could not write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  // The rename is durable only once the directory entry is; some filesystems refuse to fsync a directory, which is fine.
  const dh = await open(dir, 'r').catch(() => null);
  if (dh) await dh.sync().catch(() => undefined).finally(() => dh.close());
  return { ok: true };
}

/** A free name `<file>.<tag>-<timestamp>[-n]` beside the file. */
async function asideName(path: string, tag: string, now: number): Promise<string> {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const candidate = `${path}.${tag}-${stamp}${n ? `-${n}` : ''}`;
    const exists = await access(candidate, fsc.F_OK).then(() => true, () => false);
    if (!exists) return candidate;
  }
}

/** Moves a damaged file out of the way (keeps its bytes for a person to inspect); null when even that failed. */
export async function moveAside(path: string, now: number): Promise<string | null> {
  const target = await asideName(path, 'corrupt', now);
  return rename(path, target).then(() => target, () => null);
}

/** Removes temp files a crash left behind beside `path` (only our own `<name>.tmp-*` pattern). */
export async function removeStaleTemps(path: string): Promise<number> {
  const prefix = `${basename(path)}.tmp-`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  let removed = 0;
  for (const n of names) if (n.startsWith(prefix) && (await unlink(join(dirname(path), n)).then(() => true, () => false))) removed++;
  return removed;
}

export interface DroppedRecord {
  index: number;
  id?: string;
  reason: string;
}

export type StoreLoadFailure = {
  ok: false;
  /** corrupt: not JSON / wrong shape / truncated; future_version: written by a newer larkmux; unreadable: an I/O error. */
  code: 'corrupt' | 'future_version' | 'unreadable';
  /** Where the damaged file now is; null when it could not be moved (then the store refuses to write over it). */
  movedTo: string | null;
  message: string;
};

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

export type FlushResult = { ok: true; written: boolean } | { ok: false; code: 'write_failed' | 'blocked'; message: string };

function describeIssues(err: z.ZodError): string {
  return err.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : 'record'}: ${i.message}`).join('; ');
}

/** A versioned JSON file of records keyed by id, kept in memory and written behind a debounce. */
export class RecordFile<T> {
  private readonly records = new Map<string, T>();
  private lastContent: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private blocked: string | null = null;
  private disposed = false;
  private readonly debounceMs: number;
  private readonly now: () => number;

  constructor(readonly path: string, private readonly spec: RecordFileSpec<T>, private readonly opts: RecordFileOptions = {}) {
    this.debounceMs = opts.debounceMs ?? STORE_TIMING.writeDebounceMs;
    this.now = opts.now ?? Date.now;
  }

  async load(): Promise<RecordFileLoad<T>> {
    this.records.clear();
    const stale = await removeStaleTemps(this.path);
    if (stale) this.opts.log?.warn({ file: this.path, stale }, 'removed temp files left by an interrupted write');
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        this.lastContent = this.serialize();
        return { ok: true, records: [], dropped: [] };
      }
      return this.fail('unreadable', `cannot read ${this.path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.fail('corrupt', `${this.path} is not valid JSON (truncated or damaged)`);
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return this.fail('corrupt', `${this.path} is not a larkmux store object`);
    const { format, version, records } = raw as { format?: unknown; version?: unknown; records?: unknown };
    if (format !== this.spec.format) return this.fail('corrupt', `${this.path} is not a ${this.spec.format} file`);
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return this.fail('corrupt', `${this.path} has no valid version`);
    if (version > STORE_FORMAT_VERSION) return this.fail('future_version', `${this.path} was written by a newer larkmux (format ${version})`);
    if (!Array.isArray(records)) return this.fail('corrupt', `${this.path} has no records list`);

    const dropped: DroppedRecord[] = [];
    records.forEach((rec: unknown, index) => {
      const rawId = rec && typeof rec === 'object' ? (rec as Record<string, unknown>).id ?? (rec as Record<string, unknown>).sessionId : undefined;
      const idHint = typeof rawId === 'string' ? rawId.slice(0, 64) : undefined;
      const res = this.spec.schema.safeParse(rec);
      if (!res.success) return void dropped.push({ index, ...(idHint ? { id: idHint } : {}), reason: describeIssues(res.error) });
      const rid = this.spec.idOf(res.data);
      if (this.records.has(rid)) return void dropped.push({ index, id: rid, reason: 'duplicate id' });
      this.records.set(rid, res.data);
    });
    this.lastContent = text;
    let droppedCopy: string | undefined;
    if (dropped.length) {
      // The next write leaves the dropped records out; keep the original bytes so nothing is lost for good.
      const target = await asideName(this.path, 'dropped', this.now());
      droppedCopy = await copyFile(this.path, target).then(() => target, () => undefined);
      this.opts.log?.warn({ file: this.path, dropped, droppedCopy }, 'dropped invalid records from store');
    }
    return { ok: true, records: [...this.records.values()], dropped, ...(droppedCopy ? { droppedCopy } : {}) };
  }

  private async fail(code: StoreLoadFailure['code'], message: string): Promise<StoreLoadFailure> {
    const movedTo = await moveAside(this.path, this.now());
    // Not moved means the damaged bytes are still at `path`: refuse to write over them.
    this.blocked = movedTo ? null : message;
    this.lastContent = movedTo ? null : this.lastContent;
    this.opts.log?.error({ file: this.path, code, movedTo }, `store not loaded: ${message}`);
    return { ok: false, code, movedTo, message: movedTo ? `${message}; kept aside as ${movedTo}` : `${message}; could not move it aside, so it will not be written` };
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

  private async writeIfChanged(): Promise<FlushResult> {
    if (this.blocked) return { ok: false, code: 'blocked', message: this.blocked };
    const data = this.serialize();
    if (data === this.lastContent) return { ok: true, written: false };
    const res = await writeFileAtomic(this.path, data);
    if (!res.ok) {
      this.opts.log?.error({ file: this.path }, res.message);
      return res;
    }
    this.lastContent = data;
    return { ok: true, written: true };
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

export type SessionStoreLoad = { ok: true; sessions: SessionCore[]; dropped: DroppedRecord[]; droppedCopy?: string } | StoreLoadFailure;

/** One bot's sessions (sessions-<appId>.json). Restore is metadata only: nothing here starts a worker. */
export class SessionStore {
  private readonly file: RecordFile<SessionCore>;
  private readonly now: () => number;

  constructor(opts: StoreOptions) {
    this.now = opts.now ?? Date.now;
    this.file = new RecordFile(larkmuxPaths(opts.home).sessionStore(opts.appId), { format: 'larkmux-sessions', schema: SessionCoreSchema, idOf: (s) => s.id }, opts);
  }

  get path(): string {
    return this.file.path;
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

  get(id: string): SessionCore | undefined {
    return this.file.get(id);
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

  /** Stores a record; an invalid record is a bug in the caller and throws. */
  put(session: SessionCore): SessionCore {
    const parsed = SessionCoreSchema.parse(session);
    this.file.put(parsed);
    return parsed;
  }

  update(id: string, patch: Partial<Omit<SessionCore, 'id' | 'key' | 'appId' | 'anchorId' | 'tmuxName'>>): SessionCore | undefined {
    const cur = this.file.get(id);
    if (!cur) return undefined;
    return this.put({ ...cur, ...patch });
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

/** The render-state sibling of a session store: `sessions-<appId>.json` → `sessions-<appId>.render.json`. */
export function renderStatePath(home: string, appId: string): string {
  return larkmuxPaths(home).sessionStore(appId).replace(/\.json$/, '.render.json');
}

export type RenderStateLoad = { ok: true; states: RenderState[]; dropped: DroppedRecord[] } | StoreLoadFailure;

/** The IM adapter's per-session card state; written and read only by the adapter side. */
export class RenderStateStore {
  private readonly file: RecordFile<RenderState>;

  constructor(opts: StoreOptions) {
    this.file = new RecordFile(renderStatePath(opts.home, opts.appId), { format: 'larkmux-render-state', schema: RenderStateSchema, idOf: (r) => r.sessionId }, opts);
  }

  get path(): string {
    return this.file.path;
  }

  async load(): Promise<RenderStateLoad> {
    const res = await this.file.load();
    return res.ok ? { ok: true, states: res.records, dropped: res.dropped } : res;
  }

  get(sessionId: string): RenderState | undefined {
    return this.file.get(sessionId);
  }

  put(state: RenderState): RenderState {
    const parsed = RenderStateSchema.parse(state);
    this.file.put(parsed);
    return parsed;
  }

  remove(sessionId: string): boolean {
    return this.file.delete(sessionId);
  }

  flush(): Promise<FlushResult> {
    return this.file.flush();
  }

  dispose(): Promise<void> {
    return this.file.dispose();
  }
}
