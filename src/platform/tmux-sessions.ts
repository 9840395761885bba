// Orphaned tmux sessions: `lmx-*` sessions no session record owns, and `lmx-diag-*` panes kept from failed launches.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTmux } from './tmux-runner.js';

const LIVE_NAME = /^lmx-[0-9a-f]{8}$/;
const DIAG_NAME = /^lmx-diag-[0-9a-f]{8}$/;

export interface OrphanReport {
  /** Live-named sessions with no open session record: a CLI nobody can reach from a chat any more. */
  orphans: string[];
  /** Failed launches kept for inspection until pruned. */
  diag: string[];
}

/** Pure: sorts tmux session names into orphans and diagnostics, given the names open records own. */
export function classifyTmuxSessions(names: readonly string[], owned: ReadonlySet<string>): OrphanReport {
  return {
    orphans: names.filter((n) => LIVE_NAME.test(n) && !owned.has(n)).sort(),
    diag: names.filter((n) => DIAG_NAME.test(n)).sort(),
  };
}

export type TmuxList = { ok: true; names: string[] } | { ok: false; message: string };

/** Every session name on the server; a server that is not running simply has none. */
export async function listTmuxSessions(socket: string | null): Promise<TmuxList> {
  const res = await runTmux(['list-sessions', '-F', '#{session_name}'], { socket });
  if (res.ok) return { ok: true, names: res.stdout.split('\n').filter(Boolean) };
  if (res.code === 'tmux_missing') return { ok: false, message: 'tmux is not installed' };
  // A server that is not running has no sessions.
  if (res.code === 'no_server') return { ok: true, names: [] };
  return { ok: false, message: res.message };
}

export async function killTmuxSessions(socket: string | null, names: readonly string[]): Promise<string[]> {
  const killed: string[] = [];
  for (const name of names) if ((await runTmux(['kill-session', '-t', `=${name}`], { socket })).ok) killed.push(name);
  return killed;
}

/**
 * tmux names owned by open sessions, read from the stores without changing them (for the CLI while the daemon is
 * stopped). A store that cannot be read owns nothing here, so callers must not prune when `complete` is false.
 */
export function ownedTmuxNamesOnDisk(home: string): { names: Set<string>; complete: boolean } {
  const names = new Set<string>();
  let complete = true;
  let files: string[] = [];
  try {
    files = readdirSync(home).filter((f) => /^sessions-.+\.json$/.test(f) && !f.endsWith('.render.json'));
  } catch {
    return { names, complete: true };
  }
  for (const f of files) {
    try {
      const raw = JSON.parse(readFileSync(join(home, f), 'utf8')) as { records?: { tmuxName?: unknown; lifecycle?: unknown }[] };
      for (const r of raw.records ?? []) if (typeof r.tmuxName === 'string' && r.lifecycle !== 'closed') names.add(r.tmuxName);
    } catch {
      complete = false;
    }
  }
  return { names, complete };
}

/** Store files a load moved aside because they were damaged (`*.corrupt-<time>`). */
export function damagedStoreFiles(home: string): string[] {
  try {
    return readdirSync(home).filter((f) => /\.corrupt-/.test(f)).map((f) => join(home, f));
  } catch {
    return [];
  }
}
