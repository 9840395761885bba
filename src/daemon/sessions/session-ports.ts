// What the session's owner (session-service.ts) needs of the worker pool and of the capacity keeper: the two ports it
// is built with, so unit tests give it small real classes and the owner's file stays about sessions.
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { SessionCore } from '../ground/session-core.js';
import type { WorkerChannel } from '../workers/session-worker.js';
import type { WebUpstream } from '../workers/worker-link.js';
import type { WorkerPlacement, WorkerPoolEvents } from '../workers/worker-pool.js';
import type { CapacityGroup, LowMemoryRefusal } from './capacity-keeper.js';
import type { TreeGit } from '../changes/tree-git.js';

export type { LowMemoryRefusal } from './capacity-keeper.js';

/** The worker pool as the session owner uses it (WorkerPool satisfies it; unit tests use a small real class). */
export interface WorkerControl extends WorkerChannel {
  /** Forks the worker; what it says and its exit go to `events` (this owner), not through a lookup. */
  start(sessionId: string, init: Extract<DaemonToWorker, { type: 'init' }>, events: WorkerPoolEvents, placement?: WorkerPlacement): boolean;
  stop(sessionId: string, mode: 'kill' | 'detach'): Promise<void>;
  /** Why a worker cannot start at `placement` (the topic is told); absent: anywhere it is asked to. */
  placementProblem?(placement?: WorkerPlacement): 'remote_unavailable' | undefined;
  /** Where this machine reaches the web terminal a worker said it serves; absent: where it said. */
  webUpstream?(sessionId: string, said: WebUpstream): Promise<WebUpstream | null>;
  /** The git of a session's folder on `host` (what its change cards diff); absent: this machine's everywhere. */
  treeGit?(host: string): TreeGit | undefined;
}

/** The capacity keeper as the owner uses it: launches within the caps, told of starts and turns (CapacityKeeper satisfies it). */
export interface CapacityEvents {
  /**
   * Resolves once the session's worker runs within the caps (false: it could not start, the daemon stops, or its
   * machine is short of memory for a new CLI: `onShort` says so once, and the launch keeps waiting for memory).
   */
  launch(group: CapacityGroup, session: SessionCore, onQueued?: () => void, onShort?: (why: LowMemoryRefusal) => void): Promise<boolean>;
  schedule(): void;
  turnDone(sessionId: string): void;
  workerGone(sessionId: string): void;
}
