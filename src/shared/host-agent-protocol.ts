// The daemon ⇄ host agent protocol (DESIGN §12): one agent per host, over one ssh channel, carries the IPC of every
// session's worker there, tagged by session, plus a few control frames. Defined once, parsed on receipt by both sides.
import { z } from 'zod';
import { SendItemsSchema, SendResultSchema, WhereResultSchema } from './control-protocol.js';
import { HostChangesResultSchema, LinkGitRequestSchema } from './host-changes-protocol.js';
import { DaemonToWorkerSchema, IPC_PROTOCOL_VERSION } from './ipc.js';

/** Bumped whenever a frame changes shape; the agent's hello carries it and the daemon refuses another. */
export const HOST_AGENT_PROTOCOL_VERSION = 3;

/**
 * The unix socket (0600, in larkmux's folder on the host, under run/) where the agent answers `larkmux where|send`
 * from the host's panes; named apart from the daemon's control.sock, which a home shared with a daemon would hold.
 */
export const HOST_PANE_SOCKET = 'pane-control.sock';
/** What any other command run in a host's pane (or sent to that socket) is told. */
export const HOST_PANE_ONLY = 'on a larkmux host only `larkmux where` and `larkmux send` work; run other commands where the daemon runs';

const sessionId = z.string().regex(/^[0-9a-f]{32}$/);
/** Environment for a worker process (not a CLI's secrets: those travel in init.env over the channel, never in argv). */
const workerEnvRecord = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(128), z.string().max(65_536)).refine((e) => Object.keys(e).length <= 64, 'at most 64 variables');
const signal = z.enum(['SIGTERM', 'SIGKILL']);

// ── daemon → agent ───────────────────────────────────────────────────────────

/** Fork the session's worker (its env on top of the agent's allowlisted own; the agent sets LARKMUX_SESSION_ID). */
export const AgentStartFrame = z.strictObject({ kind: z.literal('start'), session: sessionId, env: workerEnvRecord });
/** Signal the session's worker (the pool's escalation after a close that did not end it, or a hung worker). */
export const AgentSignalFrame = z.strictObject({ kind: z.literal('signal'), session: sessionId, signal });
/** A message for the session's worker: the same union the local IPC carries. */
export const AgentToWorkerFrame = z.strictObject({ kind: z.literal('msg'), session: sessionId, msg: DaemonToWorkerSchema });

/** The daemon's answer to a pane_ask: the same result `larkmux where|send` gets locally, or why there is none. */
export const AgentPaneAnswerFrame = z.strictObject({
  kind: z.literal('pane_answer'),
  id: z.number().int().nonnegative(),
  answer: z.union([
    z.strictObject({ ok: z.literal(true), where: WhereResultSchema }),
    z.strictObject({ ok: z.literal(true), send: SendResultSchema }),
    z.strictObject({ ok: z.literal(false), error: z.string().max(1024) }),
  ]),
});
export type AgentPaneAnswer = z.infer<typeof AgentPaneAnswerFrame>['answer'];

/** A git question about a session's folder on the host (root or snapshot); `id` (the daemon's) comes back on its answer. */
export const AgentGitAskFrame = z.strictObject({ kind: z.literal('git_ask'), id: z.number().int().positive(), request: LinkGitRequestSchema });
export type AgentGitAsk = z.infer<typeof AgentGitAskFrame>;

export const DaemonToAgentSchema = z.discriminatedUnion('kind', [AgentStartFrame, AgentSignalFrame, AgentToWorkerFrame, AgentPaneAnswerFrame, AgentGitAskFrame]);
export type DaemonToAgent = z.infer<typeof DaemonToAgentSchema>;

// ── agent → daemon ───────────────────────────────────────────────────────────

/** First frame: which protocols the agent speaks and the sha of the bundle it runs from. */
export const AgentHelloFrame = z.strictObject({
  kind: z.literal('hello'),
  protocol: z.literal(HOST_AGENT_PROTOCOL_VERSION),
  ipcProtocol: z.literal(IPC_PROTOCOL_VERSION),
  sha: z.string().regex(/^[0-9a-f]{64}$/),
  pid: z.number().int().positive(),
});
/** The worker was forked (pid on the host); or could not be (`error`), which is also reported as its exit. */
export const AgentStartedFrame = z.strictObject({ kind: z.literal('started'), session: sessionId, pid: z.number().int().positive() });
/** The worker is gone. `stderrTail`: its last words, for the crash report. */
export const AgentExitFrame = z.strictObject({
  kind: z.literal('exit'),
  session: sessionId,
  code: z.number().int().nullable(),
  signal: z.string().max(32).nullable(),
  stderrTail: z.string().max(4000).optional(),
});
/** A worker's message, as it sent it: the daemon's pool parses it (WorkerToDaemon) as it does a local worker's. */
export const AgentFromWorkerFrame = z.strictObject({ kind: z.literal('msg'), session: sessionId, msg: z.unknown() });
/** A frame from the daemon the agent dropped (oversized, not JSON, not the schema): said back so the daemon logs it. */
export const AgentDroppedFrame = z.strictObject({ kind: z.literal('dropped'), reason: z.string().max(1024) });

/**
 * `larkmux where|send` from a pane on the host: the pane the agent found by the caller's controlling tty there (proof,
 * tty, lineage checked on the host as the daemon checks a local caller). No session is named: the daemon decides which
 * of its sessions on this host that pane is, or none.
 */
export const AgentPaneAskFrame = z.strictObject({
  kind: z.literal('pane_ask'),
  id: z.number().int().nonnegative(),
  pane: z.strictObject({ tmuxSession: z.string().min(1).max(256), paneId: z.string().regex(/^%\d+$/), tty: z.string().min(1).max(256) }),
  ask: z.discriminatedUnion('cmd', [z.strictObject({ cmd: z.literal('where') }), z.strictObject({ cmd: z.literal('send'), items: SendItemsSchema })]),
});
export type AgentPaneAsk = z.infer<typeof AgentPaneAskFrame>;

/**
 * The host's free memory (MemAvailable, bytes; null where the host has no /proc/meminfo), said after the hello and
 * then every HOST_AGENT_TIMING.memoryReportMs: admission refuses a new CLI on a host below the floor (capacity.ts).
 */
export const AgentMemoryFrame = z.strictObject({ kind: z.literal('memory'), availableBytes: z.number().int().nonnegative().nullable() });

/** The answer to the daemon's git_ask of the same id: as the one-shot `changes` command would have given it. */
export const AgentGitAnswerFrame = z.strictObject({ kind: z.literal('git_answer'), id: z.number().int().positive(), result: HostChangesResultSchema });

export const AgentToDaemonSchema = z.discriminatedUnion('kind', [
  AgentHelloFrame, AgentStartedFrame, AgentExitFrame, AgentFromWorkerFrame, AgentDroppedFrame, AgentPaneAskFrame, AgentMemoryFrame, AgentGitAnswerFrame,
]);
export type AgentToDaemon = z.infer<typeof AgentToDaemonSchema>;

export type FrameParse<T> = { ok: true; frame: T } | { ok: false; reason: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): FrameParse<T> {
  const res = schema.safeParse(raw);
  if (res.success) return { ok: true, frame: res.data };
  return { ok: false, reason: res.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'frame'}: ${i.message}`).join('; ') };
}

export const parseDaemonToAgent = (raw: unknown): FrameParse<DaemonToAgent> => parseWith(DaemonToAgentSchema, raw);
export const parseAgentToDaemon = (raw: unknown): FrameParse<AgentToDaemon> => parseWith(AgentToDaemonSchema, raw);
