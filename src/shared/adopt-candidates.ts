// Pure decisions for `/adopt`: which hand-started tmux panes run a CLI the bot can take over.
//
// A pane's CLI is found from its process tree on the pane's own tty (`#{pane_pid}`, `#{pane_tty}`, argv from `ps`),
// never from environment variables: $TMUX/$TMUX_PANE are inherited and name the wrong pane (DESIGN §11).
import type { CliSpec } from './config.js';
import type { KnownCliId } from './cli-spec.js';
import { programName, SHELL_NAMES } from './shell-names.js';

/** One process as `ps -A -o pid=,ppid=,tty=,args=` lists it. */
export interface ProcRow {
  pid: number;
  ppid: number;
  /** `pts/3` as ps prints it; `?` when the process has no terminal. */
  tty: string;
  args: string;
}

export const PS_ARGS = ['-A', '-o', 'pid=,ppid=,tty=,args='] as const;

export function parsePsTable(stdout: string): ProcRow[] {
  const rows: ProcRow[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    rows.push({ pid: Number(m[1]), ppid: Number(m[2]), tty: m[3]!, args: m[4]! });
  }
  return rows;
}

/** A pane as `list-panes -a -F ADOPT_PANE_FORMAT` lists it: a linked window shows once per session it is in. */
export interface AdoptPaneRow {
  tmuxSession: string;
  windowId: string;
  windowIndex: number;
  /** How many panes the window has: only a pane alone in its window can be taken (see linkPaneArgs). */
  windowPanes: number;
  paneId: string;
  paneTty: string;
  panePid: number;
  paneDead: boolean;
  currentPath: string;
}

export const ADOPT_PANE_FORMAT = '#{session_name}\t#{window_id}\t#{window_index}\t#{window_panes}\t#{pane_id}\t#{pane_tty}\t#{pane_pid}\t#{pane_dead}\t#{pane_current_path}';

export function parseAdoptPanes(stdout: string): AdoptPaneRow[] {
  const out: AdoptPaneRow[] = [];
  for (const line of stdout.split('\n')) {
    const f = line.split('\t');
    if (f.length < 9) continue;
    const [tmuxSession, windowId, windowIndex, windowPanes, paneId, paneTty, panePid, dead] = f as [string, string, string, string, string, string, string, string];
    const pid = Number(panePid);
    if (!tmuxSession || !/^@\d+$/.test(windowId) || !/^%\d+$/.test(paneId) || !Number.isInteger(pid) || pid <= 0) continue;
    out.push({
      tmuxSession, windowId, windowIndex: Number(windowIndex), windowPanes: Number(windowPanes), paneId, paneTty,
      panePid: pid, paneDead: dead === '1', currentPath: f.slice(8).join('\t'),
    });
  }
  return out;
}

/**
 * How each CLI shows in argv: the program's name, or (run by an interpreter: `node …/cli.js`) its package path.
 * Shells count only for a bot whose CLI is the shell (a shell prompt in every pane is not "a CLI waiting").
 */
export const CLI_PROGRAMS: Readonly<Record<KnownCliId, { names: readonly string[]; script?: RegExp }>> = {
  'claude-code': { names: ['claude', 'claude.exe'], script: /@anthropic-ai\/claude-code\// },
  codex: { names: ['codex'], script: /@openai\/codex\// },
  gemini: { names: ['gemini'], script: /@google\/gemini-cli\// },
  shell: { names: SHELL_NAMES },
};

/** Coding CLIs are looked for before a shell: a shell that runs `claude` is a Claude pane. */
const SEARCH_ORDER = ['claude-code', 'codex', 'gemini'] as const;

function argvWords(args: string): string[] {
  return args.trim().split(/\s+/).filter(Boolean);
}

function runsProgram(args: string, names: readonly string[], script?: RegExp): boolean {
  const [first, second] = argvWords(args);
  if (names.includes(programName(first))) return true;
  if (script && second !== undefined && script.test(second)) return true;
  // `node /…/bin/codex.js`: the script's own name.
  return second !== undefined && names.includes(programName(second).replace(/\.(c|m)?js$/, ''));
}

/** Which CLI a process runs, for this bot (its own CLI included: a shell or a custom command). */
export function cliOfProcess(args: string, botCli: CliSpec): CliSpec | null {
  for (const id of SEARCH_ORDER) if (runsProgram(args, CLI_PROGRAMS[id].names, CLI_PROGRAMS[id].script)) return id;
  if (typeof botCli === 'object') return runsProgram(args, [programName(botCli.command)]) ? botCli : null;
  if (botCli === 'shell' && runsProgram(args, CLI_PROGRAMS.shell.names)) return 'shell';
  return null;
}

export interface AdoptCandidate {
  /** The configured host the pane is on; absent: this machine. */
  host?: string;
  paneId: string;
  windowId: string;
  tmuxSession: string;
  windowIndex: number;
  cli: CliSpec;
  /** The CLI's own process: the one that must keep running (same PID) after the take-over. */
  cliPid: number;
  panePid: number;
  cwd: string;
}

export type NotAdoptable = { paneId: string; tmuxSession: string; reason: 'shared_window' };

/** `ps` prints `pts/3`, tmux `/dev/pts/3`. */
function sameTty(psTty: string, paneTty: string): boolean {
  return psTty !== '?' && `/dev/${psTty}` === paneTty;
}

/** The first process in the pane (breadth-first from the pane's first process, on the pane's tty) that runs a CLI. */
function findCli(pane: AdoptPaneRow, byParent: ReadonlyMap<number, ProcRow[]>, self: ProcRow | undefined, botCli: CliSpec): { cli: CliSpec; pid: number } | null {
  if (!self) return null;
  const inPane: ProcRow[] = [];
  const queue = [self];
  while (queue.length > 0 && inPane.length < 256) {
    const p = queue.shift()!;
    inPane.push(p);
    for (const c of byParent.get(p.pid) ?? []) if (sameTty(c.tty, pane.paneTty)) queue.push(c);
  }
  // A coding CLI anywhere in the pane wins over the bot's own program (usually the shell that started it).
  const found = inPane.map((p) => ({ pid: p.pid, cli: cliOfProcess(p.args, botCli) }));
  const coding = found.find((f) => typeof f.cli === 'string' && f.cli !== 'shell');
  const own = found.find((f) => f.cli !== null);
  const pick = coding ?? own;
  return pick?.cli ? { cli: pick.cli, pid: pick.pid } : null;
}

/** Sessions larkmux owns (its own `lmx-<id8>` and the `lmx-diag-*` it keeps from failed launches). */
export function isLarkmuxSessionName(name: string): boolean {
  return name.startsWith('lmx-');
}

/**
 * The panes `/adopt` offers, in a stable order (session, window). A pane is out when any session that shows it is
 * larkmux's (already a session, or already adopted: its window is linked into an `lmx-` session), when it is dead,
 * or when nothing in it runs a CLI the bot knows. A CLI pane that shares its window with other panes is reported
 * apart: the take-over links whole windows.
 */
export function adoptCandidates(panes: readonly AdoptPaneRow[], procs: readonly ProcRow[], botCli: CliSpec, cwdOf: (pid: number) => string | undefined = () => undefined): { candidates: AdoptCandidate[]; notAdoptable: NotAdoptable[] } {
  const owned = new Set(panes.filter((p) => isLarkmuxSessionName(p.tmuxSession)).map((p) => p.paneId));
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const byParent = new Map<number, ProcRow[]>();
  for (const p of procs) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const seen = new Set<string>();
  const candidates: AdoptCandidate[] = [];
  const notAdoptable: NotAdoptable[] = [];
  const ordered = [...panes].sort((a, b) => a.tmuxSession.localeCompare(b.tmuxSession) || a.windowIndex - b.windowIndex);
  for (const pane of ordered) {
    if (owned.has(pane.paneId) || seen.has(pane.paneId) || pane.paneDead) continue;
    seen.add(pane.paneId);
    const found = findCli(pane, byParent, byPid.get(pane.panePid), botCli);
    if (!found) continue;
    if (pane.windowPanes !== 1) {
      notAdoptable.push({ paneId: pane.paneId, tmuxSession: pane.tmuxSession, reason: 'shared_window' });
      continue;
    }
    candidates.push({
      paneId: pane.paneId, windowId: pane.windowId, tmuxSession: pane.tmuxSession, windowIndex: pane.windowIndex,
      cli: found.cli, cliPid: found.pid, panePid: pane.panePid, cwd: cwdOf(found.pid) ?? pane.currentPath,
    });
  }
  return { candidates, notAdoptable };
}

/**
 * The take-over as one tmux chain: a new `lmx-<id8>` session whose placeholder window is replaced (`-k`) by the
 * pane's window, linked — not moved. The CLI keeps its PID, the person's own session keeps showing the window, and
 * everything larkmux does by the `lmx-` name (observer, keys, screenshots, web terminal) reaches the pane.
 */
export function linkPaneArgs(tmuxName: string, windowId: string): string[][] {
  return [
    ['new-session', '-d', '-s', tmuxName, '-x', '80', '-y', '24', '--', 'sleep', '30'],
    ['link-window', '-k', '-s', windowId, '-t', `=${tmuxName}:^`],
  ];
}
