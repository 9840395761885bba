// Reads a local file someone else named (a pane's `larkmux send`, a link in a CLI's answer) without ever waiting on it.
// Whoever names the path controls what is there: a FIFO with no writer, a terminal, /dev/zero, a file system that does
// not answer. So: symlinks resolved first, nothing but a regular file is opened, the open cannot block (O_NONBLOCK)
// nor follow a link swapped in meanwhile (O_NOFOLLOW), the OPENED descriptor is checked again, the read is capped, and
// every step runs in one lane with a deadline, so such a path can hold at most one of libuv's threads, never the pool.
// Only files inside the allowed roots are read (file-access.ts decides), judged after symlinks are resolved.
import { constants } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { withDeadline } from './deadline.js';
import { scrubSecrets } from './log.js';
import { PROC_FD_DIR } from './proc-fd.js';
import { judgeFilePath, type FileAccess } from './file-access.js';

export const LOCAL_FILE_READ = {
  /**
   * A regular file of 30 MB on a local disk reads in well under a second even on a loaded machine; a read that takes
   * this long is waiting on something (a network or FUSE file system) and is given up.
   */
  deadlineMs: 10_000,
} as const;

/** Never blocks on open (a FIFO without a writer, a modem line) and never follows a symlink in the last component. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export type FileKind = 'file' | 'directory' | 'fifo' | 'socket' | 'device' | 'other';

export function kindOf(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): FileKind {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'other';
}

export type LocalReadRefusal =
  | { reason: 'missing' | 'denied' | 'too_slow' | 'changed' | 'private' }
  | { reason: 'outside'; roots: readonly string[] }
  | { reason: 'not_regular'; kind: Exclude<FileKind, 'file'> }
  | { reason: 'failed'; detail: string };

/**
 * `size`, when given, is the file's size (at least limit + 1) and `data` holds none of it: a host does not send the bytes
 * of a file larger than asked for, only that it is (daemon/workers/remote-fetch.ts).
 */
export type LocalRead = ({ ok: true; data: Buffer; size?: number }) | ({ ok: false } & LocalReadRefusal);

/** Reads a file for a post: on this machine (readLocalFile) or on a session's host (daemon/workers/remote-fetch.ts). */
export type FileReader = (path: string, limit: number, access: FileAccess, signal?: AbortSignal) => Promise<LocalRead>;

const KIND_NAMES: Record<Exclude<FileKind, 'file'>, string> = {
  directory: 'a folder',
  fifo: 'a FIFO',
  socket: 'a socket',
  device: 'a device',
  other: 'not a file',
};

/** Why a file was not read, in words for the `larkmux send` terminal and the log (never the file's content). */
export function describeLocalRefusal(r: LocalReadRefusal): string {
  switch (r.reason) {
    case 'missing':
      return 'no such file';
    case 'denied':
      return 'permission denied';
    case 'too_slow':
      return `could not be read within ${LOCAL_FILE_READ.deadlineMs / 1000} s (is it on a file system that does not answer?)`;
    case 'changed':
      return 'the file changed while it was being opened (a link was put in its place or a folder on its path)';
    case 'outside':
      // Paths an operator configured, never a secret; scrubbed anyway in case one was spelled with a `${…}`.
      return scrubSecrets(`outside the folders larkmux sends from (${r.roots.join(', ') || 'none exists'}): the session's folder and answerFileRoots in config.json`);
    case 'private':
      return "one of larkmux's own files (config, stores, logs in LARKMUX_HOME), which are never sent";
    case 'not_regular':
      return `not a regular file (${KIND_NAMES[r.kind]}); only regular files are sent`;
    case 'failed':
      return r.detail;
  }
}

/** One pane-named file operation at a time: whatever hangs holds one libuv thread, and the others stay free. */
class Lane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.tail.then(op, op);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** The one lane every named file is read in (exported for tests, which hold it to show that a hang is contained). */
export const localFileLane = new Lane();

function refusalOf(e: unknown): LocalRead {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'missing' };
  if (code === 'EACCES' || code === 'EPERM') return { ok: false, reason: 'denied' };
  // O_NOFOLLOW met a symlink where realpath saw none; ENXIO is a socket opened as a file.
  if (code === 'ELOOP') return { ok: false, reason: 'changed' };
  if (code === 'ENXIO') return { ok: false, reason: 'not_regular', kind: 'socket' };
  return { ok: false, reason: 'failed', detail: (e as Error).message };
}

/** The access with its roots and home resolved (symlinks followed); a root that does not exist drops out. */
async function realAccess(access: FileAccess): Promise<FileAccess> {
  const real = (p: string) => realpath(p).catch(() => null);
  const roots = (await Promise.all(access.roots.map(real))).filter((r): r is string => r !== null);
  return { roots, home: access.home === null ? null : ((await real(access.home)) ?? access.home) };
}

/** Each access's roots and home, resolved by its first read (in the lane): callers build one per request or answer. */
const realAccesses = new WeakMap<FileAccess, Promise<FileAccess>>();

function resolved(access: FileAccess): Promise<FileAccess> {
  let r = realAccesses.get(access);
  if (!r) {
    r = realAccess(access);
    realAccesses.set(access, r);
  }
  return r;
}

/** The steps; `givenUp` says the deadline passed (stop, close what is open: the lane is free once this returns). */
async function readNow(path: string, limit: number, given: FileAccess, givenUp: () => boolean): Promise<LocalRead> {
  let fh;
  try {
    const access = await resolved(given);
    const real = await realpath(path);
    const verdict = judgeFilePath(real, access);
    if (!verdict.ok) return verdict.reason === 'outside' ? { ok: false, reason: 'outside', roots: access.roots } : { ok: false, reason: 'private' };
    // Looked at before it is opened: opening a device or a FIFO can have effects of its own.
    const before = kindOf(await stat(real));
    if (before !== 'file') return { ok: false, reason: 'not_regular', kind: before };
    if (givenUp()) return { ok: false, reason: 'too_slow' };
    fh = await open(real, OPEN_FLAGS);
    // What was opened is what counts: the path may have been swapped for a FIFO since it was looked at.
    const st = await fh.stat();
    const kind = kindOf(st);
    if (kind !== 'file') return { ok: false, reason: 'not_regular', kind };
    // The descriptor names what it opened: checked again, a folder swapped for a link meanwhile cannot lead outside.
    if (PROC_FD_DIR && !judgeFilePath(await readlink(`${PROC_FD_DIR}/${fh.fd}`), access).ok) return { ok: false, reason: 'changed' };
    const buf = Buffer.alloc(Math.min(st.size, limit) + 1);
    let total = 0;
    while (total < buf.length) {
      if (givenUp()) return { ok: false, reason: 'too_slow' };
      const { bytesRead } = await fh.read(buf, total, buf.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return { ok: true, data: buf.subarray(0, total) };
  } catch (e) {
    return refusalOf(e);
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/**
 * Reads at most `limit + 1` bytes of the regular file at `path` (so an oversized file costs no more than that) when it
 * lies inside `access`, or says why not. Answers within LOCAL_FILE_READ.deadlineMs whatever is at `path`.
 */
export async function readLocalFile(path: string, limit: number, access: FileAccess, deadlineMs: number = LOCAL_FILE_READ.deadlineMs): Promise<LocalRead> {
  let expired = false;
  const work = localFileLane.run(() => (expired ? Promise.resolve<LocalRead>({ ok: false, reason: 'too_slow' }) : readNow(path, limit, access, () => expired)));
  return withDeadline(work, deadlineMs, (): LocalRead => {
    expired = true;
    return { ok: false, reason: 'too_slow' };
  });
}
