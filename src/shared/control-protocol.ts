// The local control socket protocol between the `larkmux` command and the daemon: one JSON line each way.
import { z } from 'zod';
import { SessionStatusSchema } from './ipc.js';

export const CONTROL_PROTOCOL_VERSION = 1;

// ---- from inside a pane (`larkmux where` / `larkmux send`, DESIGN §11) ----

/** Who is asking: a pid the daemon checks itself (tty, lineage) and the nonce that pid shows in its process title. */
export const CallerClaimSchema = z.strictObject({
  pid: z.number().int().positive(),
  proof: z.string().regex(/^[0-9a-f]{16}$/),
});

/**
 * Limits of one `larkmux send`. The text cap keeps a request under CONTROL_MAX_LINE even when every character is a
 * control character JSON escapes as `\u00XX` (6 characters each); the platform's own text cap is 150 KB.
 */
export const SEND_REQUEST_LIMITS = { items: 20, textChars: 40_000, pathChars: 4096 } as const;

export const SendItemSchema = z.discriminatedUnion('kind', [
  /** A file by absolute path (the command resolves relative ones); `image` sends it as a picture, `file` as an attachment. */
  z.strictObject({ kind: z.enum(['file', 'image']), path: z.string().min(1).max(SEND_REQUEST_LIMITS.pathChars).startsWith('/') }),
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(SEND_REQUEST_LIMITS.textChars) }),
]);
export type SendItem = z.infer<typeof SendItemSchema>;
export type CallerClaim = z.infer<typeof CallerClaimSchema>;
export const SendItemsSchema = z.array(SendItemSchema).min(1).max(SEND_REQUEST_LIMITS.items);

/** `where`: the caller's session, or `inPane: false` (the command exits 3 with "not in a larkmux pane"). */
export const WhereResultSchema = z.discriminatedUnion('inPane', [
  z.strictObject({ inPane: z.literal(false) }),
  z.strictObject({
    inPane: z.literal(true),
    session: z.string(),
    bot: z.string(),
    cli: z.string(),
    cwd: z.string(),
    topic: z.strictObject({ chatId: z.string(), anchorId: z.string(), scope: z.enum(['thread', 'chat']) }),
    pane: z.strictObject({ tmuxSession: z.string(), paneId: z.string(), tty: z.string() }),
  }),
]);
export type WhereResult = z.infer<typeof WhereResultSchema>;

export const SendOutcomeSchema = z.strictObject({
  item: z.string(),
  ok: z.boolean(),
  /** The message posted, or why not. */
  messageId: z.string().optional(),
  error: z.string().optional(),
});
export type SendOutcome = z.infer<typeof SendOutcomeSchema>;
export const SendResultSchema = z.discriminatedUnion('inPane', [
  z.strictObject({ inPane: z.literal(false) }),
  z.strictObject({ inPane: z.literal(true), session: z.string(), outcomes: z.array(SendOutcomeSchema) }),
]);
export type SendResult = z.infer<typeof SendResultSchema>;

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
  /** Ends every console cookie, unused login link and open console connection (`larkmux console revoke`). */
  z.strictObject({ id: z.number().int(), cmd: z.literal('console_revoke') }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('where'), caller: CallerClaimSchema }),
  z.strictObject({ id: z.number().int(), cmd: z.literal('send'), caller: CallerClaimSchema, items: SendItemsSchema }),
]);
export type ControlRequest = z.infer<typeof ControlRequestSchema>;
export type ControlCommand = ControlRequest['cmd'];

// BotStatusSchema, SessionSummarySchema and DaemonStatusSchema below are alike in shape (flat lists of named
// fields): each is one answer's contract, written out field by field so `larkmux status --json` readers see it whole.
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
  /** The host the session is placed on, when it is not this machine (DESIGN §12). */
  host: z.string().optional(),
  status: SessionStatusSchema,
  lifecycle: z.string(),
  worker: z.boolean(),
  workerPid: z.number().int().optional(),
  tmuxName: z.string(),
  lastActivityAt: z.number(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** Start-up phase (issue 14): `restoring` until every bot's stored sessions are registered, then `ready`. */
export const RestoreStatusSchema = z.object({
  state: z.enum(['restoring', 'ready']),
  /** Sessions registered so far (all bots, closed ones included — as `sessions` lists them). */
  sessions: z.number().int(),
  /** Bots whose stores are loaded, of `botsTotal` (the console counts as a bot here). */
  bots: z.number().int(),
  botsTotal: z.number().int(),
  /** Milliseconds from the daemon process's start to `ready`. */
  tookMs: z.number().int().optional(),
});
export type RestoreStatus = z.infer<typeof RestoreStatusSchema>;

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
  /** Why the web port is not listening (who holds it, which setting to change); absent while it listens or starts. */
  webProblem: z.string().optional(),
  notice: z.string().optional(),
  bots: z.array(BotStatusSchema),
  /** The local console, when it runs (a bot-like status under the pseudo app id `console`). */
  console: BotStatusSchema.optional(),
  sessions: z.array(SessionSummarySchema),
  workers: z.number().int(),
  /** Optional so a newer `larkmux` still reads an older daemon's status. */
  restore: RestoreStatusSchema.optional(),
});
export type DaemonStatus = z.infer<typeof DaemonStatusSchema>;

export const ControlResponseSchema = z.union([
  z.strictObject({ id: z.number().int(), ok: z.literal(true), data: z.unknown() }),
  z.strictObject({ id: z.number().int(), ok: z.literal(false), error: z.string() }),
]);
export type ControlResponse = z.infer<typeof ControlResponseSchema>;

export const ConsoleLinkSchema = z.object({ url: z.string() });

/**
 * How long the daemon works on one control request before it answers with an error and lets go of what the request
 * held (open files, further uploads). A pane can name anything as a file, so no request may hold the daemon longer.
 */
export const CONTROL_DEADLINES_MS = {
  /** Reads a few /proc files and asks tmux for its panes: well under a second even on a loaded machine. */
  where: 10_000,
  /** Reads up to SEND_REQUEST_LIMITS.items files and uploads them (30 MB each on a slow link, retries on 429). */
  send: 170_000,
  /** Everything else answers from memory or after one tmux call. */
  other: 30_000,
} as const;

export function controlDeadlineMs(cmd: string): number {
  return cmd === 'where' || cmd === 'send' ? CONTROL_DEADLINES_MS[cmd] : CONTROL_DEADLINES_MS.other;
}

/** A pane command waits this much longer than the daemon's deadline, so the daemon's own error reaches it first. */
export const CONTROL_CLIENT_GRACE_MS = 5_000;

/** A control line longer than this is refused: requests are small; the largest is `send --text` (see SEND_REQUEST_LIMITS). */
export const CONTROL_MAX_LINE = 256 * 1024;
