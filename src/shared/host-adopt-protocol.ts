// `/adopt` on another host (DESIGN §12): the daemon runs the bundle's host agent as `node <bundle>/host-agent.js adopt`
// over the host's ControlMaster. The request — list the host's adoptable panes, link one into larkmux, or unlink it
// again — travels as one line of JSON on stdin (nothing from the chat or the config on the remote command line, which
// the host's `ps` shows); the answer is one line of JSON on stdout. The agent scans larkmux's own tmux server on the
// host (the one its workers use, derived from `home` as locally), by the same rules as a local /adopt.
import { z } from 'zod';
import { CliSpecSchema, type CliSpec } from './cli-spec.js';

/** The one word after the agent's path that makes it answer an /adopt request instead of serving the daemon. */
export const HOST_ADOPT_VERB = 'adopt';

const home = z.string().startsWith('/').max(4096);
const paneId = z.string().regex(/^%\d+$/);
/** Only `lmx-<id8>`: the name newSessionCore gives; nothing else may be created or killed on the host by this verb. */
const tmuxName = z.string().regex(/^lmx-[0-9a-f]{8}$/);

export const HostAdoptRequestSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('list'), home, cli: CliSpecSchema }),
  /** Scanned again on the host and matched by pane *and* CLI pid (the list may be stale), then linked as locally. */
  z.strictObject({ action: z.literal('link'), home, cli: CliSpecSchema, paneId, cliPid: z.number().int().positive(), tmuxName }),
  /** Takes larkmux's session of a pane away again (two topics adopted at once; the second gives its link back). */
  z.strictObject({ action: z.literal('unlink'), home, tmuxName }),
]);
export type HostAdoptRequest = z.infer<typeof HostAdoptRequestSchema>;

export const HostAdoptCandidateSchema = z.strictObject({
  paneId,
  windowId: z.string().regex(/^@\d+$/),
  tmuxSession: z.string().min(1).max(256),
  windowIndex: z.number().int().nonnegative(),
  cli: CliSpecSchema,
  cliPid: z.number().int().positive(),
  panePid: z.number().int().positive(),
  cwd: z.string().max(4096),
});

const failure = z.strictObject({ ok: z.literal(false), code: z.enum(['gone', 'scan_failed', 'link_failed', 'bad_request']), message: z.string().max(2000).optional() });

export const HostAdoptListResultSchema = z.union([
  z.strictObject({ ok: z.literal(true), candidates: z.array(HostAdoptCandidateSchema).max(1000), notAdoptable: z.number().int().nonnegative() }),
  failure,
]);
export type HostAdoptListResult = z.infer<typeof HostAdoptListResultSchema>;

export const HostAdoptLinkResultSchema = z.union([z.strictObject({ ok: z.literal(true), candidate: HostAdoptCandidateSchema.optional() }), failure]);
export type HostAdoptLinkResult = z.infer<typeof HostAdoptLinkResultSchema>;

/** The configured hosts' panes as /adopt reaches them (the daemon's workers/remote-adopt.ts); `timeout`: no answer within the bound. */
export interface HostPanes {
  readonly names: readonly string[];
  /** How long a host's list may take before it is left out (seconds, said in the line that says so). */
  readonly listTimeoutSeconds: number;
  /** The host's `workingDirs` (none: any folder): a pane whose folder is outside them is neither offered nor adopted. */
  roots(host: string): readonly string[] | undefined;
  list(host: string, cli: CliSpec): Promise<HostAdoptListResult | { ok: false; code: 'timeout' }>;
  link(host: string, req: { action: 'link'; cli: CliSpec; paneId: string; cliPid: number; tmuxName: string } | { action: 'unlink'; tmuxName: string }): Promise<HostAdoptLinkResult>;
}
