// The memory a new process may still take on this machine: MemAvailable from /proc/meminfo (Linux's own estimate of
// what can be allocated without swapping, page cache counted as free). Elsewhere there is no such file: the answer is
// null, "unknown", and admission never blocks on an unknown (capacity.ts).
import { readFileSync } from 'node:fs';

/** `LARKMUX_MEMINFO` names another file in the same format (tests: a host made to look short of memory). */
export const MEMINFO_PATH_ENV = 'LARKMUX_MEMINFO';

/** Pure: MemAvailable in bytes from the text of /proc/meminfo, or null when the line is not there. */
export function parseMemAvailable(text: string): number | null {
  const m = /^MemAvailable:\s+(\d+)\s+kB\s*$/m.exec(text);
  return m ? Number(m[1]) * 1024 : null;
}

/** MemAvailable of this machine in bytes, or null (not Linux, no such line, unreadable). */
export function readMemAvailable(env: NodeJS.ProcessEnv = process.env): number | null {
  try {
    return parseMemAvailable(readFileSync(env[MEMINFO_PATH_ENV] || '/proc/meminfo', 'utf8'));
  } catch {
    return null;
  }
}
