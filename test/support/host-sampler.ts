// Watches a running daemon from outside, as an operator would: worker processes are the daemon's forked children
// running worker/main, CLIs are the `lmx-<hex>` sessions on its tmux server. Used to check that caps hold (issue 14).
import { execFile } from 'node:child_process';
import type { TestTmuxServer } from './tmux.js';

export interface HostSample {
  at: number;
  workers: number;
  clis: number;
  /** The tmux session names seen (so a test can tell whether one particular CLI was touched). */
  cliNames: string[];
  /** What tmux said when it listed nothing because it found no server (a failure then names this sample's cause). */
  tmuxSaid?: string;
}

/**
 * A process's children whose command line matches `pattern` (ps: its short-lived children come and go); null when
 * ps failed (a timeout on a loaded machine: no observation, not "none").
 */
function childrenSeen(pid: number, pattern: RegExp): Promise<number[] | null> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { timeout: 10_000 }, (err, stdout) => {
      // ps exits 1 when no process matches --ppid: an answer (none), unlike a timeout or a missing ps.
      if (err && (err as { code?: unknown }).code !== 1) return resolve(null);
      resolve(
        String(stdout ?? '')
          .split('\n')
          .filter((l) => pattern.test(l))
          .map((l) => Number(l.trim().split(/\s+/)[0])),
      );
    });
  });
}
const childrenRunning = async (pid: number, pattern: RegExp): Promise<number[]> => (await childrenSeen(pid, pattern)) ?? [];
const WORKER_ENTRY = /worker[/\\](bundle[/\\])?main\.(js|ts)/;

/** The daemon's children that are workers (its short-lived tmux and ps children are not). */
export const workerChildren = (daemonPid: number): Promise<number[]> => childrenRunning(daemonPid, WORKER_ENTRY);

/** A process's children running the render process (the daemon's one for all sessions, or a worker's own). */
export const renderChildren = (pid: number): Promise<number[]> => childrenRunning(pid, /render-thread\.(js|ts)/);

/** The CLIs' tmux sessions; null when tmux did not answer (a sample that saw nothing is not a sample of none). */
export async function tmuxCliNames(tmux: TestTmuxServer): Promise<string[] | null> {
  return (await tmuxCliList(tmux))?.names ?? null;
}

async function tmuxCliList(tmux: TestTmuxServer): Promise<{ names: string[]; said?: string } | null> {
  const res = await tmux.run(['list-sessions', '-F', '#{session_name}']);
  if (res.code !== 0) return /no server running/.test(res.stderr) ? { names: [], said: res.stderr.trim() } : null;
  return { names: res.stdout.split('\n').filter((n) => /^lmx-[0-9a-f]{8}$/.test(n)) };
}

export interface OverCap {
  /** The longest run of consecutive samples over the cap, first to last sample of the run (ms). */
  longestMs: number;
  /** The highest value seen. */
  max: number;
}

/** "Over the cap for more than 2 s" means consecutive samples over the cap that span more than 2 s. */
export function overCap(samples: readonly HostSample[], pick: (s: HostSample) => number, cap: number): OverCap {
  let longestMs = 0;
  let runStart: number | null = null;
  let max = 0;
  for (const s of samples) {
    const v = pick(s);
    max = Math.max(max, v);
    if (v > cap) {
      runStart ??= s.at;
      longestMs = Math.max(longestMs, s.at - runStart);
    } else runStart = null;
  }
  return { longestMs, max };
}

/**
 * Samples until stopped, as often as the machine allows (one `ps` and one `tmux` call per sample). A sample where ps
 * or tmux did not answer (a timeout on a loaded machine) is counted in `failed`, not recorded as zero of everything.
 */
export function sampleHost(daemonPid: number, tmux: TestTmuxServer, everyMs = 150): { samples: HostSample[]; readonly failed: number; stop(): Promise<void> } {
  const samples: HostSample[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const [workers, clis] = await Promise.all([childrenSeen(daemonPid, WORKER_ENTRY), tmuxCliList(tmux)]);
      if (workers === null || clis === null) failed += 1;
      else samples.push({ at: Date.now(), workers: workers.length, clis: clis.names.length, cliNames: clis.names, ...(clis.said ? { tmuxSaid: clis.said } : {}) });
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    samples,
    get failed() {
      return failed;
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}
