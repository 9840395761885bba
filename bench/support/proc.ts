// Process measurements read from /proc (Linux only): RSS, CPU time of a process tree, tmux server pid. Elsewhere
// every function returns null, and a benchmark says so instead of printing made-up numbers.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second for /proc/<pid>/stat times (USER_HZ: 100 on every Linux build in practice). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Resident set size in MB (VmRSS), or null when the process is gone or /proc is missing. */
export function rss(pid: number): number | null {
  const m = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) / 1024 : null;
}

/**
 * Memory a process really adds, from /proc/<pid>/smaps_rollup (Linux ≥ 4.14): `private` (USS: pages only it holds,
 * what stopping it frees) and `pss` (shared pages split among their users). RSS counts the node binary's ~40 MB of
 * code in every worker although the kernel keeps one copy for all of them. Null where the file is missing.
 */
export function memoryShares(pid: number): { rssMB: number; pssMB: number; privateMB: number } | null {
  const text = read(`/proc/${pid}/smaps_rollup`);
  if (!text) return null;
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  const out = { rssMB: kb('Rss') / 1024, pssMB: kb('Pss') / 1024, privateMB: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
  return Object.values(out).every(Number.isFinite) ? out : null;
}

/** OS threads of a process (a render thread shows up here). */
export function threadCount(pid: number): number | null {
  const m = /Threads:\s+(\d+)/.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) : null;
}

interface StatLine {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in seconds: its own CPU and that of children it has reaped (e.g. tmux execs). */
  cpuS: number;
}

function statOf(pid: number): StatLine | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  // The command name is in parentheses and may hold spaces: fields are counted after the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i - 3]);
  return { pid, ppid: n(4), cpuS: (n(14) + n(15) + n(16) + n(17)) / CLOCK_TICKS };
}

function allStats(): StatLine[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).map((n) => statOf(Number(n))).filter((s): s is StatLine => s !== null);
}

/**
 * CPU seconds used so far by `pid` and every live descendant, including what they reaped from exited children.
 * Children that exited unreaped by a live member are not counted (they are rare: node reaps its execs).
 */
export function processTreeCpu(pid: number): number | null {
  const stats = allStats();
  if (!stats.some((s) => s.pid === pid)) return null;
  const children = new Map<number, StatLine[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let total = 0;
  const stack = [stats.find((s) => s.pid === pid)!];
  while (stack.length) {
    const s = stack.pop()!;
    total += s.cpuS;
    stack.push(...(children.get(s.pid) ?? []));
  }
  return total;
}

/** CPU seconds of one process alone (with its reaped children), or null. */
export function processCpu(pid: number): number | null {
  return statOf(pid)?.cpuS ?? null;
}

/** Sum of processTreeCpu over several roots (a tree counted once even if roots nest). */
export function treesCpu(pids: readonly number[]): number {
  return pids.reduce((sum, p) => sum + (processTreeCpu(p) ?? 0), 0);
}

/** The pid of the tmux server on socket `-L name`, or null. */
export function tmuxServerPid(socket: string): number | null {
  try {
    const out = execFileSync('tmux', ['-L', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8', env: { ...process.env, TMUX: '' }, stdio: ['ignore', 'pipe', 'ignore'] });
    return /^\d+$/.test(out.trim()) ? Number(out.trim()) : null;
  } catch {
    return null;
  }
}

/** Live children of `pid` whose command line contains `match` (e.g. the worker's render process). */
export function childrenMatching(pid: number, match: string): number[] {
  return allStats()
    .filter((s) => s.ppid === pid && (read(`/proc/${s.pid}/cmdline`) ?? '').replace(/\0/g, ' ').includes(match))
    .map((s) => s.pid);
}

/** Whether these measurements work here. */
export const procAvailable = read('/proc/self/stat') !== null;

/** `pid` and its live descendants. */
export function processTree(pid: number): number[] {
  const stats = allStats();
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...stats.filter((s) => s.ppid === p).map((s) => s.pid));
  }
  return stats.some((s) => s.pid === pid) ? out : [];
}

/** Live processes whose command line (NULs as spaces) contains every one of `parts`. */
export function processesMatching(parts: readonly string[]): number[] {
  return allStats()
    .filter((s) => {
      const cmd = (read(`/proc/${s.pid}/cmdline`) ?? '').replace(/\0/g, ' ');
      return parts.every((p) => cmd.includes(p));
    })
    .map((s) => s.pid);
}
