// One policy for every file the daemon persists (sessions, card state, bot state, seen events, console chat):
// written atomically (temp + fsync + rename), and a file that cannot be read as what it should be is moved aside
// byte-for-byte as `<name>.corrupt-<time>` (listed by `larkmux doctor`), logged, reported to the caller, and never
// written over — when even the move failed, writes are refused until a person looks.
import { randomBytes } from 'node:crypto';
import { constants as fsc, readFileSync } from 'node:fs';
import { access, mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from './log.js';

/** Bumped when a file layout changes; a file from a newer larkmux is kept aside, never rewritten. */
export const STORE_FORMAT_VERSION = 1;

/** The tag in the name of a damaged file kept aside (`larkmux doctor` looks for it: see orphans.ts). */
export const DAMAGED_TAG = 'corrupt';

export type AtomicWriteResult = { ok: true } | { ok: false; code: 'write_failed'; message: string };

export type FlushResult = { ok: true; written: boolean } | { ok: false; code: 'write_failed' | 'blocked'; message: string };

export type StoreLoadFailure = {
  ok: false;
  /** corrupt: empty / not JSON / wrong shape / truncated; future_version: written by a newer larkmux; unreadable: an I/O error. */
  code: 'corrupt' | 'future_version' | 'unreadable';
  /** Where the damaged file now is; null when it could not be moved (then it is never written over). */
  movedTo: string | null;
  message: string;
};

/** What a file kind's parser says of the parsed JSON. */
export type ParseVerdict<T> = { ok: true; value: T } | { ok: false; code: 'corrupt' | 'future_version'; message: string };

/**
 * The envelope every record store writes, `{ format, version, records: [...] }`: its records (checked one by one by
 * their owner), or why the file is not one this larkmux may read — another format, no valid version, a newer one.
 * The store's load and the CLI's read-only look at the session stores (tmux-sessions.ts) judge files alike.
 */
export function parseRecordEnvelope(raw: unknown, format: string, path: string): ParseVerdict<unknown[]> {
  const corrupt = (message: string): ParseVerdict<unknown[]> => ({ ok: false, code: 'corrupt', message });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return corrupt(`${path} is not a larkmux store object`);
  const { format: given, version, records } = raw as { format?: unknown; version?: unknown; records?: unknown };
  if (given !== format) return corrupt(`${path} is not a ${format} file`);
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return corrupt(`${path} has no valid version`);
  if (version > STORE_FORMAT_VERSION) return { ok: false, code: 'future_version', message: `${path} was written by a newer larkmux (format ${version})` };
  if (!Array.isArray(records)) return corrupt(`${path} has no records list`);
  return { ok: true, value: records };
}

/**
 * A store file's records as its own load would see them, read without changing anything (the `larkmux` command's
 * looks at the stores while the daemon may be stopped): unreadable or unparsable files are `corrupt`.
 */
export function readRecordEnvelope(path: string, format: string): ParseVerdict<unknown[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { ok: false, code: 'corrupt', message: `${path}: ${(e as NodeJS.ErrnoException).code ?? 'not JSON'}` };
  }
  return parseRecordEnvelope(raw, format, path);
}

/** `value` is null when there was no file yet. */
export type DurableLoad<T> = { ok: true; value: T | null } | StoreLoadFailure;

/**
 * Writes a file so that readers see the old bytes or the new bytes, never a mix: temp file in the same dir, fsync, rename.
 * Owner-only (0600) unless `mode` says otherwise; a `mode` given is set whole, whatever the umask takes away at creation.
 */
export async function writeFileAtomic(path: string, data: string, opts: { mode?: number } = {}): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const tmp = join(dir, `${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const fh = await open(tmp, 'wx', opts.mode ?? 0o600);
    try {
      if (opts.mode !== undefined) await fh.chmod(opts.mode);
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
export async function asideName(path: string, tag: string, now: number): Promise<string> {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const candidate = `${path}.${tag}-${stamp}${n ? `-${n}` : ''}`;
    const exists = await access(candidate, fsc.F_OK).then(() => true, () => false);
    if (!exists) return candidate;
  }
}

/** Moves a damaged file out of the way (keeps its bytes for a person to inspect); null when even that failed. */
export async function moveAside(path: string, now: number): Promise<string | null> {
  const target = await asideName(path, DAMAGED_TAG, now);
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

export interface DurableFileOptions {
  /** What the file holds, for logs: e.g. "session store". */
  what: string;
  now?: () => number;
  log?: Logger;
}

/** One persisted JSON file: load with the policy above, write atomically and only when the bytes changed. */
export class DurableFile {
  private lastContent: string | null = null;
  private blocked: string | null = null;
  private readonly now: () => number;

  constructor(readonly path: string, private readonly opts: DurableFileOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Reads and parses the file; anything but a missing file or a value `parse` accepts is a failure, kept aside. */
  async load<T>(parse: (raw: unknown) => ParseVerdict<T>): Promise<DurableLoad<T>> {
    this.lastContent = null;
    this.blocked = null;
    const stale = await removeStaleTemps(this.path);
    if (stale) this.opts.log?.warn({ file: this.path, stale }, 'removed temp files left by an interrupted write');
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: null };
      return this.fail('unreadable', `cannot read ${this.path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (text.trim() === '') return this.fail('corrupt', `${this.path} is empty (a write was cut short)`);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.fail('corrupt', `${this.path} is not valid JSON (truncated or damaged)`);
    }
    const verdict = parse(raw);
    if (!verdict.ok) return this.fail(verdict.code, verdict.message);
    this.lastContent = text;
    return { ok: true, value: verdict.value };
  }

  /** Treats `data` as what the file already holds (e.g. an empty store that need not be written). */
  assumeWritten(data: string): void {
    this.lastContent = data;
  }

  /** Writes `data` unless the file already holds it; refused while a damaged file could not be moved aside. */
  async write(data: string): Promise<FlushResult> {
    if (this.blocked) return { ok: false, code: 'blocked', message: this.blocked };
    if (data === this.lastContent) return { ok: true, written: false };
    const res = await writeFileAtomic(this.path, data);
    if (!res.ok) {
      this.opts.log?.error({ file: this.path }, res.message);
      return res;
    }
    this.lastContent = data;
    return { ok: true, written: true };
  }

  private async fail(code: StoreLoadFailure['code'], message: string): Promise<StoreLoadFailure> {
    const movedTo = await moveAside(this.path, this.now());
    // Not moved means the damaged bytes are still at `path`: refuse to write over them.
    this.blocked = movedTo ? null : `${message}; it could not be moved aside, so it is not written over`;
    this.opts.log?.error({ file: this.path, code, movedTo }, `${this.opts.what} not loaded: ${message}`);
    return { ok: false, code, movedTo, message: movedTo ? `${message}; kept aside as ${movedTo}` : this.blocked! };
  }
}
