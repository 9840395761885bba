// Reads what the daemon itself can verify about a process: its controlling tty, its ancestors, its command line.
// Linux reads /proc; elsewhere `ps` answers the same questions (slower, same result).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { parseProcStat, rdevDevice, type CallerFacts, type ProcStat, type TtyDevice } from '../shared/pane-identity.js';

const PROC = existsSync('/proc/self/stat');

/** Ancestors are walked at most this far: real chains are < 20 deep; a cycle or a huge chain is not a caller. */
const MAX_LINEAGE = 64;

function ps(pid: number, field: string): Promise<string | null> {
  return new Promise((resolve) =>
    execFile('ps', ['-o', `${field}=`, '-p', String(pid)], { timeout: 5000 }, (err, stdout) => resolve(err ? null : stdout.trim())),
  );
}

/** A tty path (/dev/pts/5, or `pts/5` as ps prints it) as a device, or null when it is not a terminal we can stat. */
export async function ttyDeviceOf(path: string): Promise<TtyDevice | null> {
  if (!path || path === '?' || path === '??') return null;
  const full = path.startsWith('/') ? path : `/dev/${path}`;
  try {
    const st = await stat(full, { bigint: true });
    return st.isCharacterDevice() ? rdevDevice(st.rdev) : null;
  } catch {
    return null;
  }
}

export async function procStat(pid: number): Promise<ProcStat | null> {
  if (PROC) {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    return text === null ? null : parseProcStat(text);
  }
  const [ppid, tty] = await Promise.all([ps(pid, 'ppid'), ps(pid, 'tty')]);
  if (ppid === null || !ppid) return null;
  return { pid, ppid: Number(ppid), tty: tty ? await ttyDeviceOf(tty) : null };
}

/** The process's command line as text (arguments separated by spaces), or null when it is gone. */
export async function commandLine(pid: number): Promise<string | null> {
  if (PROC) {
    const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
    return raw === null ? null : raw.replace(/\0+$/, '').replace(/\0/g, ' ');
  }
  return ps(pid, 'command');
}

/**
 * Tty and lineage of a live process, read by the daemon (nothing the caller says about itself is used). A caller
 * without a controlling terminal takes its nearest ancestor's (pane-identity.ts says why); one with a terminal keeps it.
 */
export async function callerFacts(pid: number): Promise<CallerFacts | null> {
  const first = await procStat(pid);
  if (!first) return null;
  const lineage = [pid];
  let tty = first.tty;
  let ppid = first.ppid;
  while (ppid > 1 && lineage.length < MAX_LINEAGE && !lineage.includes(ppid)) {
    lineage.push(ppid);
    const next = await procStat(ppid);
    if (!next) break;
    tty ??= next.tty;
    ppid = next.ppid;
  }
  return { pid, tty, lineage };
}
