// The git of a session placed on another host, answered there with the local git code (worker/host/host-changes.ts).
// `root` and `snapshot` (before a turn's prompt) go to the agent already serving the daemon, on its channel; without a
// link up, or one that goes before the answer, and for every `diff` (megabytes, at turn end), they go over the host's
// ControlMaster to the bundle's agent run as the one-shot `changes`: the remote command line holds only the bundle's
// path and the verb, the folder and the tree ids go on stdin. A host that cannot be reached answers null (no change
// card for that turn) with one log line; the turn itself is not held up past the deadline.
import type { Logger } from '../../platform/log.js';
import { GIT_LIMITS } from '../../platform/git-snapshot.js';
import { HOST_CHANGES_VERB, HostChangesResultSchema, type HostChangesRequest, type HostChangesResult } from '../../shared/host-changes-protocol.js';
import type { TreeGit } from '../changes/tree-git.js';
import type { RemoteHost } from './remote-host.js';
import { runAgentVerb } from './remote-agent-verb.js';

export const REMOTE_CHANGES_LIMITS = {
  /** Two git runs at most (a diff's numstat and patch), each within GIT_LIMITS.timeoutMs, plus the ssh round trip. */
  timeoutMs: 2 * GIT_LIMITS.timeoutMs + 10_000,
  /** The answer's line: the patch (≤ GIT_LIMITS.patchBytes) and the numstat as JSON, escapes included. */
  stdoutChars: 32 * 1024 * 1024,
  /**
   * A folder the host said is in no work tree is believed that long: each turn's snapshot is a round trip to the host
   * before the prompt is typed (an ssh command and a node start there when no link is up, ~0.2–0.4 s), which a folder
   * without git should not pay on every turn.
   * A `git init` there shows in change cards from the first turn after it.
   */
  notInTreeTrustMs: 10 * 60_000,
} as const;

/** Asks the host's agent one question: its answer, or why there is none. */
export async function askHostGit(host: RemoteHost, request: HostChangesRequest): Promise<HostChangesResult> {
  if (request.op !== 'diff') {
    const onLink = await host.askGitOnLink(request);
    if (onLink) return onLink;
  }
  const res = await runAgentVerb(host, HOST_CHANGES_VERB, JSON.stringify(request) + '\n', HostChangesResultSchema, REMOTE_CHANGES_LIMITS);
  return res.ok ? res.answer : res;
}

/** The TreeGit of a session on `host`. */
export function remoteTreeGit(host: RemoteHost, log: Logger): TreeGit {
  const unanswered = (op: HostChangesRequest['op'], res: HostChangesResult): null => {
    log.warn({ host: host.ssh.host.name, op, err: res.ok ? 'an answer to another question' : res.error }, 'git on the host did not answer; no change set for this turn');
    return null;
  };
  /** Folders the host said are in no work tree, and until when that is believed. */
  const notInTree = new Map<string, number>();
  return {
    root: async (cwd) => {
      const res = await askHostGit(host, { op: 'root', cwd });
      return res.ok && 'top' in res ? res.top : unanswered('root', res);
    },
    snapshot: async (cwd) => {
      if ((notInTree.get(cwd) ?? 0) > Date.now()) return null;
      notInTree.delete(cwd);
      const res = await askHostGit(host, { op: 'snapshot', cwd });
      if (!res.ok || !('snapshot' in res)) return unanswered('snapshot', res);
      if (res.snapshot === null) notInTree.set(cwd, Date.now() + REMOTE_CHANGES_LIMITS.notInTreeTrustMs);
      return res.snapshot;
    },
    diff: async (top, from, to) => {
      const res = await askHostGit(host, { op: 'diff', top, from, to });
      return res.ok && 'diff' in res ? res.diff : unanswered('diff', res);
    },
  };
}
