// A host's git questions asked on the agent's channel (git_ask / git_answer frames) rather than as a new ssh command
// and node start on the host each: a turn's snapshot is taken before its prompt is typed, so that start was paid on
// every turn. Each ask waits for the answer of its id; one that cannot get one here — not sent (no link), the link
// closed, the agent dropped a frame of ours (an agent that does not know git_ask) — resolves null at once, and the
// caller asks the one-shot `changes` command instead. Nothing waits past the deadline.
import { GIT_LIMITS } from '../../platform/git-snapshot.js';
import type { AgentGitAsk } from '../../shared/host-agent-protocol.js';
import type { HostChangesResult, LinkGitRequest } from '../../shared/host-changes-protocol.js';

export const LINK_GIT_LIMITS = {
  /**
   * A snapshot's git runs on the host, each within GIT_LIMITS.timeoutMs. Past this the agent is stuck on the folder:
   * the answer is an error (the one-shot command would be stuck on it as well), not a second try.
   */
  timeoutMs: 2 * GIT_LIMITS.timeoutMs,
} as const;

export class LinkGitAsks {
  private lastId = 0;
  private readonly pending = new Map<number, (result: HostChangesResult | null) => void>();

  constructor(private readonly timeoutMs: number = LINK_GIT_LIMITS.timeoutMs) {}

  /**
   * The agent's answer, or null when none can come over the link (the caller falls back to the one-shot command).
   * `send` returns false when the frame could not go (no link up).
   */
  ask(send: (frame: AgentGitAsk) => boolean, request: LinkGitRequest): Promise<HostChangesResult | null> {
    const id = ++this.lastId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, error: `no answer from the host agent within ${this.timeoutMs / 1000} s` }), this.timeoutMs);
      timer.unref();
      const settle = (result: HostChangesResult | null): void => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(result);
      };
      this.pending.set(id, settle);
      if (!send({ kind: 'git_ask', id, request })) settle(null);
    });
  }

  /** The agent's answer to `id`; one for an ask no longer waiting (timed out) is ignored. */
  answered(id: number, result: HostChangesResult): void {
    this.pending.get(id)?.(result);
  }

  /** No answer will come for what is waiting (the link closed, or the agent dropped a frame of ours): each falls back. */
  giveUpAll(): void {
    for (const settle of [...this.pending.values()]) settle(null);
  }

  /** Asks waiting for their answer (tests). */
  get waiting(): number {
    return this.pending.size;
  }
}
