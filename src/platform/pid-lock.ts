// One daemon per LARKMUX_HOME: the pid file is created exclusively; a stale one (dead pid) is replaced.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export type PidLockResult = { ok: true; release: () => void } | { ok: false; code: 'running'; pid: number } | { ok: false; code: 'error'; message: string };

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readPid(path: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export function acquirePidLock(path: string, pid: number = process.pid): PidLockResult {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return {
        ok: true,
        release: () => {
          if (readPid(path) === pid) {
            try {
              unlinkSync(path);
            } catch {
              /* already gone */
            }
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: false, code: 'error', message: (err as Error).message };
      const other = readPid(path);
      if (other !== null && other !== pid && isAlive(other)) return { ok: false, code: 'running', pid: other };
      // Stale (dead pid or garbage): remove and try once more; a racing daemon that wins the retry keeps the lock.
      try {
        unlinkSync(path);
      } catch {
        /* someone else removed it */
      }
    }
  }
  const other = readPid(path);
  return other ? { ok: false, code: 'running', pid: other } : { ok: false, code: 'error', message: 'could not take the pid file' };
}
