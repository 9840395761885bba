// Orphaned tmux sessions: `lmx-*` sessions no session record owns, and `lmx-diag-*` panes kept from failed launches.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordEnvelope } from './durable-file.js';
import { isSessionStoreName } from './paths.js';
import { runTmux } from './tmux-runner.js';
import { SESSION_STORE_FORMAT, SessionCoreSchema } from '../shared/session-record.js';

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
 * stopped), by the store's own schema (shared/session-record.ts). A store or record that cannot be read owns nothing
 * here, so `complete` is false then and callers must not prune.
 */
export function ownedTmuxNamesOnDisk(home: string): { names: Set<string>; complete: boolean } {
  const names = new Set<string>();
  let complete = true;
  let files: string[] = [];
  try {
    files = readdirSync(home).filter(isSessionStoreName);
  } catch {
    return { names, complete: true };
  }
  for (const f of files) {
    const records = storeRecords(join(home, f));
    if (records === null) complete = false;
    for (const r of records ?? []) {
      const parsed = SessionCoreSchema.safeParse(r);
      // A record the store would drop: its tmux session may still be someone's, so nothing is pruned this time.
      if (!parsed.success) complete = false;
      else if (parsed.data.lifecycle !== 'closed') names.add(parsed.data.tmuxName);
    }
  }
  return { names, complete };
}

/**
 * The records of one sessions-<appId>.json, or null when the file is not a sessions store this larkmux can read (a
 * newer larkmux's included: its records may mean something else), judged as the store's own load judges it.
 */
function storeRecords(path: string): unknown[] | null {
  const verdict = readRecordEnvelope(path, SESSION_STORE_FORMAT);
  return verdict.ok ? verdict.value : null;
}

/** Store files a load moved aside because they were damaged (`*.corrupt-<time>`). */
export function damagedStoreFiles(home: string): string[] {
  try {
    return readdirSync(home).filter((f) => /\.corrupt-/.test(f)).map((f) => join(home, f));
  } catch {
    return [];
  }
}
