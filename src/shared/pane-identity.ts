// Pure decisions for "which larkmux pane is this process in?": /proc parsing, tty device numbers, the match rule.
//
// The rule (DESIGN §11): a caller is in a pane only when its controlling terminal *is* the pane's tty and the
// pane's first process is among its ancestors. $TMUX/$TMUX_PANE are never consulted: they are inherited by any
// terminal opened from a tmux shell, which would name the wrong pane.
// One refinement, measured: Claude Code's Bash tool runs each command in a new session with no controlling
// terminal (setsid: `ps` shows tty `?`). A caller with *no* terminal is judged by its nearest ancestor that has one
// (there, Claude itself on the pane's tty). A caller with a *different* terminal is never looked past.

/** A terminal device as `major:minor`, the one form every source (proc, stat, ps) can be brought to. */
export type TtyDevice = string;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** Controlling terminal, or null when the process has none (tty_nr 0). */
  tty: TtyDevice | null;
}

/** Parses /proc/<pid>/stat. The command name (field 2) may hold spaces and parentheses, so fields count from the last `)`. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state(3) ppid(4) pgrp(5) session(6) tty_nr(7) …
  const rest = text.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  const ttyNr = Number(rest[4]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(ttyNr)) return null;
  return { pid, ppid, tty: ttyNr === 0 ? null : ttyNrDevice(ttyNr) };
}

/** The kernel's tty_nr packs the minor number's low 8 bits, then the major, then the minor's high bits. */
export function ttyNrDevice(ttyNr: number): TtyDevice {
  const major = (ttyNr >>> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >>> 12) & 0xfff00);
  return `${major}:${minor}`;
}

/** glibc's dev_t (what stat's rdev holds on Linux): the same layout, widened to 64 bits. */
export function rdevDevice(rdev: number | bigint): TtyDevice {
  const d = BigInt(rdev);
  const major = ((d >> 8n) & 0xfffn) | ((d >> 32n) & ~0xfffn);
  const minor = (d & 0xffn) | ((d >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

/** One tmux pane as the server lists it. */
export interface PaneInfo {
  tmuxSession: string;
  paneId: string;
  /** `#{pane_tty}`, e.g. /dev/pts/5. */
  ttyPath: string;
  /** The pane's tty as a device, when it could be read (the pane is alive). */
  tty: TtyDevice | null;
  /** `#{pane_pid}`: the first process in the pane. */
  pid: number;
}

export interface CallerFacts {
  pid: number;
  /** The caller's controlling terminal; when it has none, its nearest ancestor's (see the note at the top). */
  tty: TtyDevice | null;
  /** The caller's pid and every ancestor up to init, nearest first. */
  lineage: readonly number[];
}

export type PaneMatch = { ok: true; pane: PaneInfo } | { ok: false; reason: 'no_tty' | 'no_pane_tty' | 'not_descendant' };

/** The caller's pane: the one whose tty is the caller's controlling terminal and whose first process is its ancestor. */
export function matchCallerPane(caller: CallerFacts, panes: readonly PaneInfo[]): PaneMatch {
  if (!caller.tty) return { ok: false, reason: 'no_tty' };
  const byTty = panes.filter((p) => p.tty !== null && p.tty === caller.tty);
  if (byTty.length === 0) return { ok: false, reason: 'no_pane_tty' };
  const pane = byTty.find((p) => caller.lineage.includes(p.pid));
  return pane ? { ok: true, pane } : { ok: false, reason: 'not_descendant' };
}

/** `list-panes -F` format and its parser (tab-separated: tmux escapes nothing in these fields). */
export const PANE_LIST_FORMAT = '#{session_name}\t#{pane_id}\t#{pane_tty}\t#{pane_pid}';

export function parsePaneList(stdout: string): Omit<PaneInfo, 'tty'>[] {
  const out: Omit<PaneInfo, 'tty'>[] = [];
  for (const line of stdout.split('\n')) {
    const [tmuxSession, paneId, ttyPath, pid] = line.split('\t');
    const n = Number(pid);
    if (!tmuxSession || !paneId || !ttyPath || !Number.isInteger(n) || n <= 0) continue;
    out.push({ tmuxSession, paneId, ttyPath, pid: n });
  }
  return out;
}

/**
 * Proof that the pid a caller names is the caller: it puts this nonce into its own process title before asking, and
 * the daemon reads it back from that pid's command line. A process cannot change another's command line, so a
 * program in one pane cannot borrow the pid of a process in another pane to post into that pane's topic.
 */
export const CALLER_PROOF = {
  prefix: 'lmx:',
  /** 16 hex digits: unguessable, and short enough to fit in the argv area Node can overwrite (`node <script> where`). */
  pattern: /^[0-9a-f]{16}$/,
} as const;

export function proofTitle(nonce: string): string {
  return `${CALLER_PROOF.prefix}${nonce}`;
}

/** True when a /proc cmdline (NUL-separated) or ps command shows the proof title. */
export function cmdlineShowsProof(cmdline: string, nonce: string): boolean {
  if (!CALLER_PROOF.pattern.test(nonce)) return false;
  return cmdline.replace(/\0/g, ' ').trimStart().startsWith(proofTitle(nonce));
}
