// One session's "what changed": the working tree snapshotted when a turn starts, diffed when it ends; the last result
// is kept for the change card, `/diff` and the web diff page.
import type { Logger } from '../../platform/log.js';
import { parseNumstatZ, summarizeChanges, type ChangeSummary, type FileChange } from './diff-parse.js';
import { localTreeGit, type TreeGit } from './tree-git.js';

export const CHANGE_TIMING = {
  /**
   * The turn's input waits at most this long for the start snapshot: a huge tree must not hold up the prompt. A
   * snapshot that finishes later may already hold the CLI's first edits (they then do not show as changes).
   */
  beginWaitMs: 3000,
} as const;

export interface ChangeSet {
  /** When the diff was taken. */
  at: number;
  files: FileChange[];
  summary: ChangeSummary;
  /** The whole patch (for the web page); empty with `patchCut` when it was too large. */
  patch: string;
  patchCut: boolean;
}

export class ChangeTracker {
  private start: Promise<{ top: string; tree: string } | null> | null = null;
  latest: ChangeSet | undefined;

  /** `git`: this machine's for a local session, the host's for one placed on a host (tree-git.ts). */
  constructor(private readonly cwd: () => string, private readonly log: Logger, private readonly git: TreeGit = localTreeGit, private readonly now: () => number = Date.now) {}

  /** Snapshots the tree at turn start; resolves when it is taken or CHANGE_TIMING.beginWaitMs passed. */
  async begin(): Promise<void> {
    const taking = this.snapshot();
    this.start = taking;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([taking, new Promise<void>((r) => { timer = setTimeout(r, CHANGE_TIMING.beginWaitMs); })]);
    clearTimeout(timer);
  }

  private async snapshot(): Promise<{ top: string; tree: string } | null> {
    const snap = await this.git.snapshot(this.cwd());
    if (!snap) return null;
    if (!snap.tree) this.log.warn({ cwd: this.cwd() }, 'could not snapshot the working tree; no change card for this turn');
    return snap.tree ? { top: snap.top, tree: snap.tree } : null;
  }

  /** At turn end: what changed since the turn started (null outside a git tree or without a start snapshot). */
  async finish(): Promise<ChangeSet | null> {
    const set = await this.sinceStart();
    if (set) this.latest = set;
    return set;
  }

  /** What changed since the last turn started, now (for `/diff`); keeps it as the latest. */
  current(): Promise<ChangeSet | null> {
    return this.finish();
  }

  /** True when the session's folder is in a git working tree. */
  async inGit(): Promise<boolean> {
    return (await this.git.root(this.cwd())) !== null;
  }

  private async sinceStart(): Promise<ChangeSet | null> {
    const start = await this.start;
    if (!start) return null;
    const end = (await this.git.snapshot(start.top))?.tree;
    if (!end) return null;
    const diff = await this.git.diff(start.top, start.tree, end);
    if (!diff) return null;
    const files = parseNumstatZ(diff.numstat);
    return { at: this.now(), files, summary: summarizeChanges(files, diff.patch), patch: diff.patch, patchCut: diff.patchCut };
  }
}
