// What a turn changed in a session's folder on another host (DESIGN §12): the daemon runs the bundle's host agent as
// `node <bundle>/host-agent.js changes` over the host's ControlMaster, and the agent runs the same private-index
// snapshot and diff there (platform/git-snapshot.ts) as the daemon does for a local session. The folder and the tree
// ids travel on stdin (one line of JSON), never on the remote command line; stdout is one line of JSON, the result.
import { z } from 'zod';

/** The one word after the agent's path that makes it answer one git question instead of serving the daemon. */
export const HOST_CHANGES_VERB = 'changes';

/** Above this much stdin the agent refuses the request unread (a request is a path and two ids). */
export const HOST_CHANGES_MAX_INPUT = 64 * 1024;

const folder = z.string().startsWith('/').max(4096);
/** A git object id (sha1 or sha256 repositories): nothing git could read as an option or a revision expression. */
const treeId = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);

/** The top folder of the work tree `cwd` is in (null: not in one). */
const RootRequest = z.strictObject({ op: z.literal('root'), cwd: folder });
/** The top folder of the work tree `cwd` is in and a tree id of it as it is now (one round trip for both). */
const SnapshotRequest = z.strictObject({ op: z.literal('snapshot'), cwd: folder });
/** The diff between two snapshots of `top`. */
const DiffRequest = z.strictObject({ op: z.literal('diff'), top: folder, from: treeId, to: treeId });

export const HostChangesRequestSchema = z.discriminatedUnion('op', [RootRequest, SnapshotRequest, DiffRequest]);
export type HostChangesRequest = z.infer<typeof HostChangesRequestSchema>;

/**
 * The questions the agent serving the daemon answers on its channel (a `git_ask` frame), before a turn's prompt: small
 * answers. A diff's answer can be megabytes and would hold up every session's screens on that channel: it stays on the
 * one-shot `changes` command.
 */
export const LinkGitRequestSchema = z.discriminatedUnion('op', [RootRequest, SnapshotRequest]);
export type LinkGitRequest = z.infer<typeof LinkGitRequestSchema>;

export const TreeDiffSchema = z.strictObject({ numstat: z.string(), patch: z.string(), patchCut: z.boolean() });

export const HostChangesResultSchema = z.union([
  z.strictObject({ ok: z.literal(true), top: folder.nullable() }),
  /** null: `cwd` is not in a work tree; `tree` null: the snapshot could not be taken. */
  z.strictObject({ ok: z.literal(true), snapshot: z.strictObject({ top: folder, tree: treeId.nullable() }).nullable() }),
  z.strictObject({ ok: z.literal(true), diff: TreeDiffSchema.nullable() }),
  z.strictObject({ ok: z.literal(false), error: z.string().max(2000) }),
]);
export type HostChangesResult = z.infer<typeof HostChangesResultSchema>;

/** The request read back from the agent's stdin; an error in words when it is not one. */
export function readHostChangesRequest(input: string): { ok: true; request: HostChangesRequest } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(input);
  } catch {
    return { ok: false, error: 'the request is not JSON' };
  }
  const parsed = HostChangesRequestSchema.safeParse(raw);
  if (parsed.success) return { ok: true, request: parsed.data };
  return { ok: false, error: `bad request: ${parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
}
