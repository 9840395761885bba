// The local control socket protocol between the `larkmux` command and the daemon: one JSON line each way.
import { z } from 'zod';
import { SessionStatusSchema } from './ipc.js';

export const CONTROL_PROTOCOL_VERSION = 1;

export const ControlRequestSchema = z.discriminatedUnion('cmd', [
  z.strictObject({ id: z.number().int(), cmd: z.literal('ping') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('status') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('stop') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('sessions') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('session_close'), sessionId: z.string().min(1).max(64) }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('prune') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('orphans') }),
  /** A fresh one-time login URL of the local console (DESIGN §11). */
  z.strictObject({ id: z.number().int(), cmd: z.literal('console_link') }),
]);
export type ControlRequest = z.infer<typeof ControlRequestSchema>;
export type ControlCommand = ControlRequest['cmd'];

export const BotStatusSchema = z.object({
  name: z.string(),
  appId: z.string(),
  state: z.string(),
  detail: z.string().optional(),
  /** The one-time code to send the bot while it has no allowlist and no owner (`larkmux start` prints it). */
  pairingCode: z.string().optional(),
  liveWorkers: z.number().int(),
  liveClis: z.number().int(),
  maxLiveWorkers: z.number().int(),
  maxLiveClis: z.number().int(),
});

export const SessionSummarySchema = z.object({
  id: z.string(),
  key: z.string(),
  bot: z.string(),
  cli: z.string(),
  cwd: z.string(),
  status: SessionStatusSchema,
  lifecycle: z.string(),
  worker: z.boolean(),
  workerPid: z.number().int().optional(),
  tmuxName: z.string(),
  lastActivityAt: z.number(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const DaemonStatusSchema = z.object({
  running: z.literal(true),
  pid: z.number().int(),
  version: z.string(),
  protocol: z.number().int(),
  startedAt: z.number(),
  uptimeSec: z.number(),
  home: z.string(),
  logFile: z.string(),
  webUrl: z.string().nullable(),
  notice: z.string().optional(),
  bots: z.array(BotStatusSchema),
  /** The local console, when it runs (a bot-like status under the pseudo app id `console`). */
  console: BotStatusSchema.optional(),
  sessions: z.array(SessionSummarySchema),
  workers: z.number().int(),
});
export type DaemonStatus = z.infer<typeof DaemonStatusSchema>;

export const ControlResponseSchema = z.union([
  z.strictObject({ id: z.number().int(), ok: z.literal(true), data: z.unknown() }),
  z.strictObject({ id: z.number().int(), ok: z.literal(false), error: z.string() }),
]);
export type ControlResponse = z.infer<typeof ControlResponseSchema>;

export const ConsoleLinkSchema = z.object({ url: z.string() });

/** A control line longer than this is refused: requests are tiny. */
export const CONTROL_MAX_LINE = 64 * 1024;
