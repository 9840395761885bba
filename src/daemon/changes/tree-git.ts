// The git a session's ChangeTracker asks: this machine's for a local session, the host's (over its ControlMaster,
// workers/remote-changes.ts) for a session placed on a host. Same questions, same answers, either side.
import { diffTrees, snapshotAt, workTreeRoot, type TreeDiff } from '../../platform/git-snapshot.js';

export interface TreeGit {
  /** The work tree's top folder `cwd` is in; null when it is not in one (or the answer could not be had). */
  root(cwd: string): Promise<string | null>;
  /**
   * The top folder of the work tree `cwd` is in and a tree id holding it as it is now (private index; tree null when
   * it cannot be taken); null outside a work tree (or without an answer). One question: one round trip to a host.
   */
  snapshot(cwd: string): Promise<{ top: string; tree: string | null } | null>;
  diff(top: string, from: string, to: string): Promise<TreeDiff | null>;
}

export const localTreeGit: TreeGit = { root: workTreeRoot, snapshot: snapshotAt, diff: diffTrees };

/** For a session whose host is not configured here: no change set (its turns go on without a change card). */
export const noTreeGit: TreeGit = { root: async () => null, snapshot: async () => null, diff: async () => null };
