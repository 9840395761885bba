// The live processes below a pid, read from /proc (Linux): for test fixtures that must end what a server of theirs forked
// into sessions of its own (a process-group kill misses those).
import { readdirSync, readFileSync } from 'node:fs';

interface ProcEntry {
  pid: number;
  ppid: number;
  state: string;
}

function readEntry(pid: number): ProcEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(ppid), state: state! };
  } catch {
    return undefined; // gone meanwhile
  }
}

function liveEntries(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const e = readEntry(Number(name));
    if (e && e.state !== 'Z') entries.push(e);
  }
  return entries;
}

/** Every live (non-zombie) descendant of `root`, parents before their children. */
export function descendantPids(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const e of liveEntries()) byParent.set(e.ppid, [...(byParent.get(e.ppid) ?? []), e.pid]);
  const out: number[] = [];
  const queue = [...(byParent.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(byParent.get(pid) ?? []));
  }
  return out;
}

/** Whether `pid` still runs (a zombie does not). */
export function isLive(pid: number): boolean {
  const e = readEntry(pid);
  return e !== undefined && e.state !== 'Z';
}
