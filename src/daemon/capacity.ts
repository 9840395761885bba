// Capacity decisions (pure): which idle workers to detach and which idle CLIs to stop when a bot is over its caps.
import type { SessionStatus } from '../shared/ipc.js';

export interface CapacityEntry {
  id: string;
  status: SessionStatus;
  lastActivityAt: number;
  /** A worker process is attached. */
  worker: boolean;
  /** The CLI runs (in tmux) — live or detached, not stopped or closed. */
  cliRunning: boolean;
}

export interface CapacityPlan {
  /** Workers to detach: the CLI keeps running in tmux, re-attaching later is cheap. */
  detach: string[];
  /** CLIs to stop: resumed later through their native session id. */
  stop: string[];
}

/** Only a session that waits for nothing may be touched: busy or asking ones never are. */
function isQuiet(status: SessionStatus): boolean {
  return status === 'idle' || status === 'exited' || status === 'failed';
}

/**
 * Least recently used quiet sessions go first. `keep` (the session being served right now) is never chosen.
 * A stopped CLI has no worker either, so a stop also counts against the worker cap.
 */
export function planCapacity(entries: readonly CapacityEntry[], caps: { maxLiveWorkers: number; maxLiveClis: number }, keep?: string): CapacityPlan {
  const lru = [...entries].filter((e) => e.id !== keep && isQuiet(e.status)).sort((a, b) => a.lastActivityAt - b.lastActivityAt);
  const stop: string[] = [];
  let clis = entries.filter((e) => e.cliRunning).length;
  for (const e of lru) {
    if (clis <= caps.maxLiveClis) break;
    if (!e.cliRunning) continue;
    stop.push(e.id);
    clis--;
  }
  const detach: string[] = [];
  let workers = entries.filter((e) => e.worker && !stop.includes(e.id)).length;
  for (const e of lru) {
    if (workers <= caps.maxLiveWorkers) break;
    if (!e.worker || stop.includes(e.id)) continue;
    detach.push(e.id);
    workers--;
  }
  return { detach, stop };
}
