// Where larkmux keeps its files: everything hangs off LARKMUX_HOME (default ~/.larkmux).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface LarkmuxPaths {
  home: string;
  config: string;
  logs: string;
  logFile: string;
  auditLog: string;
  run: string;
  pidFile: string;
  controlSocket: string;
  fonts: string;
  /** Where a bot's sessions are stored: one file per app id. */
  sessionStore(appId: string): string;
  /** Inbound event ids already handled (dedupe across restarts). */
  dedupeStore: string;
  /** A FIFO per observed pane. */
  fifo(sessionId: string): string;
  /** The folder put first on every CLI's PATH: it holds only `larkmux` (see shared/pane-command.ts). */
  paneBin: string;
  /** `larkmux` for the panes: this installation, bound to this home; the daemon writes it at start. */
  paneCommand: string;
}

/**
 * Files kept beside a bot's session store (`sessions-<appId>.render.json`, `….schedules.json`, `….holds.json`,
 * `….budget.json`, `….waits.json` — prompts waiting for an unreachable host): not stores themselves.
 */
export type SessionStoreSibling = 'render' | 'schedules' | 'holds' | 'budget' | 'waits';
const SIBLING_SUFFIXES: readonly SessionStoreSibling[] = ['render', 'schedules', 'holds', 'budget', 'waits'];

/** `sessions-<appId>.json` → `sessions-<appId>.<sibling>.json`. */
export function sessionStoreSibling(storePath: string, sibling: SessionStoreSibling): string {
  return storePath.replace(/\.json$/, `.${sibling}.json`);
}

/** Whether a file name in LARKMUX_HOME is a bot's session store, not one of its siblings nor a damaged copy. */
export function isSessionStoreName(name: string): boolean {
  return /^sessions-.+\.json$/.test(name) && !SIBLING_SUFFIXES.some((s) => name.endsWith(`.${s}.json`));
}

/** Expands a leading `~` against the user's home directory. */
export function expandHome(p: string, home: string = homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.LARKMUX_HOME?.trim();
  return resolve(expandHome(fromEnv && fromEnv.length > 0 ? fromEnv : '~/.larkmux'));
}

export function larkmuxPaths(home: string = resolveHome()): LarkmuxPaths {
  const run = join(home, 'run');
  const logs = join(home, 'logs');
  return {
    home,
    config: join(home, 'config.json'),
    logs,
    logFile: join(logs, 'larkmux.log'),
    auditLog: join(logs, 'audit.log'),
    run,
    pidFile: join(run, 'larkmux.pid'),
    controlSocket: join(run, 'control.sock'),
    fonts: join(home, 'fonts'),
    sessionStore: (appId) => join(home, `sessions-${appId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`),
    dedupeStore: join(home, 'seen-events.json'),
    fifo: (sessionId) => join(run, `pane-${sessionId.slice(0, 8)}.fifo`),
    paneBin: join(run, 'bin'),
    paneCommand: join(run, 'bin', 'larkmux'),
  };
}
