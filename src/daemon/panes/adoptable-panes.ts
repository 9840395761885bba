// The effects behind `/adopt`: list the server's panes and processes, and link a chosen pane's window into larkmux.
import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import type { CliSpec } from '../../shared/config.js';
import { tmuxArgs, tmuxEnv } from '../../platform/tmux-sessions.js';
import { ADOPT_PANE_FORMAT, PS_ARGS, adoptCandidates, linkPaneArgs, parseAdoptPanes, parsePsTable, type AdoptCandidate, type NotAdoptable } from './adopt-candidates.js';

type Run = { ok: true; stdout: string } | { ok: false; stderr: string; missing: boolean };

function run(file: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) =>
    execFile(file, args, { env: file === 'tmux' ? tmuxEnv() : process.env, timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout });
      resolve({ ok: false, stderr: (stderr || err.message).trim(), missing: /no server running|error connecting|No such file/i.test(stderr) });
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
  const [panes, ps] = await Promise.all([run('tmux', tmuxArgs(socket, ['list-panes', '-a', '-F', ADOPT_PANE_FORMAT])), run('ps', PS_ARGS)]);
  if (!panes.ok) return panes.missing ? { ok: true, candidates: [], notAdoptable: [] } : { ok: false, message: panes.stderr };
  if (!ps.ok) return { ok: false, message: ps.stderr };
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
  const chain = linkPaneArgs(tmuxName, candidate.windowId).flatMap((cmd, i) => (i === 0 ? cmd : [';', ...cmd]));
  const res = await run('tmux', tmuxArgs(socket, chain));
  if (res.ok) return { ok: true };
  // Half done (the session exists but the link failed): take the placeholder away again.
  await unlinkPane(socket, tmuxName);
  return { ok: false, message: res.stderr };
}

/** Ends larkmux's session of an adopted pane; the window stays in the person's own session (it is linked there too). */
export async function unlinkPane(socket: string | null, tmuxName: string): Promise<void> {
  await run('tmux', tmuxArgs(socket, ['kill-session', '-t', `=${tmuxName}`]));
}
