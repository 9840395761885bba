// A process's state as Linux's /proc/<pid>/stat tells it: a file read, no exec. Linux only: elsewhere (no /proc)
// every answer is null and callers fall back to what they can ask portably (kill(pid, 0), tmux's own formats).
// Needed because tmux 3.3a, on a loaded machine, marks a pane dead (its pty closed) without reaping the child: the
// process stays a zombie, kill(pid, 0) still succeeds on it, and #{pane_dead_status} stays empty.
import { readFileSync } from 'node:fs';

/** The fields after "pid (comm) ": index 0 is field 3 of proc(5) (the state letter). */
function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm may hold spaces and parentheses: the fields start after the last ')'.
  const end = stat.lastIndexOf(')');
  if (end < 0) return null;
  return stat.slice(end + 1).trim().split(/\s+/);
}

/** The state letter (R, S, D, Z, T…); null where there is no /proc or the process is gone. */
export function procState(pid: number): string | null {
  return statFields(pid)?.[0] ?? null;
}

/**
 * The exit status of a process that exited and was not reaped yet (a zombie): proc(5) field 52 `exit_code`
 * (Linux ≥ 3.5) holds the wait status. Null unless the process is a zombie that exited normally (killed by a signal:
 * there is no exit status, as with tmux's #{pane_dead_status}).
 */
export function zombieExitStatus(pid: number): number | null {
  const f = statFields(pid);
  if (!f || f[0] !== 'Z') return null;
  const raw = f[52 - 3];
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const wait = Number(raw);
  return (wait & 0x7f) === 0 ? (wait >> 8) & 0xff : null;
}
