// The effects behind `/adopt`: list the server's panes and processes, and link a chosen pane's window into larkmux.
// tmux runs through the platform runner like everywhere else (one result type, one "no server" test, one env policy).
import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import type { CliSpec } from '../shared/config.js';
import { runTmux, runTmuxChain } from './tmux-runner.js';
import { ADOPT_PANE_FORMAT, PS_ARGS, adoptCandidates, linkPaneArgs, parseAdoptPanes, parsePsTable, type AdoptCandidate, type NotAdoptable } from '../shared/adopt-candidates.js';

const PS_LIMITS = {
  /** `ps -A` answers in tens of milliseconds; 10 s means the machine is stuck. */
  timeoutMs: 10_000,
  /** One line per process: 16 MB is far beyond any real process table. */
  maxOutputBytes: 16 * 1024 * 1024,
} as const;

type PsTable = { ok: true; stdout: string } | { ok: false; message: string };

function runPs(): Promise<PsTable> {
  return new Promise((resolve) =>
    execFile('ps', PS_ARGS, { timeout: PS_LIMITS.timeoutMs, maxBuffer: PS_LIMITS.maxOutputBytes }, (err, stdout, stderr) => {
      resolve(err ? { ok: false, message: (stderr || err.message).trim() } : { ok: true, stdout });
    }),
  );
}

/** The CLI process's working folder (Linux: /proc/<pid>/cwd); elsewhere the pane's current path stands in. */
async function cwdOfPid(pid: number): Promise<string | undefined> {
  return readlink(`/proc/${pid}/cwd`).catch(() => undefined);
}

export type AdoptScan = { ok: true; candidates: AdoptCandidate[]; notAdoptable: NotAdoptable[] } | { ok: false; message: string };

/** Candidates on larkmux's own tmux server (`socket`): the only server whose panes its workers can reach. */
export async function scanAdoptable(socket: string | null, botCli: CliSpec): Promise<AdoptScan> {
  const [panes, ps] = await Promise.all([runTmux(['list-panes', '-a', '-F', ADOPT_PANE_FORMAT], { socket }), runPs()]);
  // A server that is not running has no panes to adopt.
  if (!panes.ok) return panes.code === 'no_server' ? { ok: true, candidates: [], notAdoptable: [] } : { ok: false, message: panes.message };
  if (!ps.ok) return { ok: false, message: ps.message };
  const rows = parseAdoptPanes(panes.stdout);
  const procs = parsePsTable(ps.stdout);
  // cwd is read for the found CLI only; a first pass without it tells which pids those are.
  const first = adoptCandidates(rows, procs, botCli);
  const cwds = new Map<number, string>();
  await Promise.all(first.candidates.map(async (c) => { const d = await cwdOfPid(c.cliPid); if (d) cwds.set(c.cliPid, d); }));
  return { ok: true, ...adoptCandidates(rows, procs, botCli, (pid) => cwds.get(pid)) };
}

/** Links the candidate's window into the new `lmx-<id8>` session (one tmux invocation; see linkPaneArgs). */
export async function linkPane(socket: string | null, tmuxName: string, candidate: AdoptCandidate): Promise<{ ok: true } | { ok: false; message: string }> {
  const res = await runTmuxChain(linkPaneArgs(tmuxName, candidate.windowId), { socket });
  if (res.ok) return { ok: true };
  // Half done (the session exists but the link failed): take the placeholder away again.
  await unlinkPane(socket, tmuxName);
  return { ok: false, message: res.message };
}

/** Ends larkmux's session of an adopted pane; the window stays in the person's own session (it is linked there too). */
export async function unlinkPane(socket: string | null, tmuxName: string): Promise<void> {
  await runTmux(['kill-session', '-t', `=${tmuxName}`], { socket });
}
