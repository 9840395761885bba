// The daemon ⇄ worker protocol (DESIGN §5): two discriminated unions, defined once, parsed on receipt.
import { z } from 'zod';
import { FailureSchema } from './failure.js';
import { CliSpecSchema } from './cli-spec.js';
import { KeyNameSchema } from './keys.js';
import { CapturedScreenSchema } from './render-protocol.js';
import { TurnUsageSchema } from './usage.js';

// A version and a table of caps, as webterm-protocol.ts has for its frames: the two protocols have different peers (a
// worker, a browser page) that go stale apart, so each keeps its own number and its own limits.
/** Bumped whenever a message changes shape; a worker refuses an `init` of another version. */
export const IPC_PROTOCOL_VERSION = 8;

/** Caps keep one bad message from eating memory; 1 MiB of text is far above any chat message. */
export const IPC_LIMITS = {
  text: 1_048_576,
  screenText: 262_144,
  id: 256,
  options: 32,
  logTail: 65_536,
  /** A typed answer to a prompt: Feishu's input box holds at most 1000 characters; room for other IMs. */
  typedAnswer: 4096,
  /** Why a status is what it is (a dialog's title, an exit reason): cut by the worker, refused above this. */
  statusDetail: 1024,
  /** A selection's title and each option's label: the worker cuts them, never refuses a dialog for its length. */
  selectionTitle: 4096,
  selectionLabel: 512,
} as const;

const id = z.string().min(1).max(IPC_LIMITS.id);
const text = z.string().max(IPC_LIMITS.text);

export const DisplayModeSchema = z.enum(['screenshot', 'text', 'hidden']);
export type DisplayMode = z.infer<typeof DisplayModeSchema>;

/** `failed`: the CLI could not be started at all (e.g. not installed); the card says why and how to fix it. */
export const SessionStatusSchema = z.enum(['starting', 'working', 'idle', 'waiting', 'limited', 'exited', 'failed']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const BackendKindSchema = z.enum(['tmux', 'pty']);
export type BackendKind = z.infer<typeof BackendKindSchema>;

export const RequesterSchema = z.strictObject({ userId: id, name: z.string().max(256).optional() });
export type Requester = z.infer<typeof RequesterSchema>;

const size = { cols: z.number().int().min(10).max(1000), rows: z.number().int().min(5).max(500) };

// ── daemon → worker ──────────────────────────────────────────────────────────

export const InitMsg = z.strictObject({
  type: z.literal('init'),
  protocol: z.literal(IPC_PROTOCOL_VERSION),
  sessionId: z.string().regex(/^[0-9a-f]{32}$/),
  sessionKey: id,
  home: z.string().min(1).max(4096),
  cli: CliSpecSchema,
  cwd: z.string().min(1).max(4096),
  env: z.record(z.string(), z.string().max(65_536)),
  backend: BackendKindSchema,
  tmuxSocket: z.string().nullable(),
  tmuxName: z.string().regex(/^lmx-[0-9a-f]{8}$/),
  /** `new` starts a fresh CLI; `resume` starts it with its native session id; `attach` takes over a live pane. */
  resume: z.strictObject({ mode: z.enum(['new', 'resume', 'attach']), nativeSessionId: z.string().max(IPC_LIMITS.id).optional() }),
  display: DisplayModeSchema,
  /**
   * How often the daemon shows a new screenshot on a card (its Feishu budget): the worker renders no more often, so
   * no encoded frame is thrown away. Forced frames (capture_now, a new card) are not held back. Absent = 300 ms.
   */
  frameIntervalMs: z.number().int().min(0).max(60_000).optional(),
  ...size,
  /** `ask`: every startup dialog goes to a person, none is answered by the adapter's safe default (absent = auto). */
  startupDialogs: z.enum(['auto', 'ask']).optional(),
  /** Secret the daemon's web proxy sends with every request to this worker's web terminal; absent = web terminal off. */
  webSecret: z.string().min(16).max(256).optional(),
  /**
   * The web terminal listens on a 0600 unix socket in the run folder instead of a TCP port (a worker on another host:
   * nothing listens there; the daemon reaches the socket through an OpenSSH stream-local forward).
   */
  webUnix: z.boolean().optional(),
});

/**
 * `inFlightSince`: this prompt was handed to the worker on a host at that time (the daemon's clock, ms) and the link
 * dropped before its delivery was reported; the worker there checks the CLI's transcript before typing it again
 * (worker/lifecycle/in-flight.ts): arrived → its turn goes on, absent → typed, unknown → input_failed `may_not_have_arrived`.
 */
const inFlightSince = z.number().int().nonnegative().optional();
/**
 * `delivered` (with `inFlightSince`): the host reported this prompt delivered before the link dropped, and its answer
 * had not come: it is never typed again, the worker there follows its turn (or sends its answer, when the transcript
 * already has the turn's end), so the answer of a turn cut off from this machine still reaches the topic.
 */
export const InputMsg = z.strictObject({ type: z.literal('input'), turnId: id, text, requester: RequesterSchema, inFlightSince, delivered: z.literal(true).optional() });
export const RawInputMsg = z.strictObject({ type: z.literal('raw_input'), turnId: id, text: z.string().max(4096), inFlightSince });
export const KeyMsg = z.strictObject({ type: z.literal('key'), key: KeyNameSchema, by: RequesterSchema.optional() });
export const SelectionChoiceMsg = z.strictObject({
  type: z.literal('selection_choice'),
  promptId: id,
  optionIndex: z.number().int().min(0).max(IPC_LIMITS.options - 1),
  by: RequesterSchema.optional(),
  /** A typed answer for the option that takes one (SelectionMsg.textOption): typed literally after picking it. */
  text: z.string().min(1).max(IPC_LIMITS.typedAnswer).optional(),
});
export const SetDisplayMsg = z.strictObject({ type: z.literal('set_display'), mode: DisplayModeSchema });
export const CaptureNowMsg = z.strictObject({ type: z.literal('capture_now') });
export const CloseMsg = z.strictObject({ type: z.literal('close'), mode: z.enum(['kill', 'detach']) });
/** A waiting message's card tap (issue 30 item 4): steer it into the working CLI, or interrupt the turn and send it next. */
export const HurryHowSchema = z.enum(['steer', 'interrupt']);
export type HurryHow = z.infer<typeof HurryHowSchema>;
export const HurryMsg = z.strictObject({ type: z.literal('hurry'), turnId: id, how: HurryHowSchema, by: RequesterSchema.optional() });
/** Write grants were revoked: the worker closes every open write connection of its web terminal. */
export const WebRevokeMsg = z.strictObject({ type: z.literal('web_revoke') });

export const DaemonToWorkerSchema = z.discriminatedUnion('type', [
  InitMsg, InputMsg, RawInputMsg, KeyMsg, SelectionChoiceMsg, SetDisplayMsg, CaptureNowMsg, CloseMsg, WebRevokeMsg, HurryMsg,
]);
export type DaemonToWorker = z.infer<typeof DaemonToWorkerSchema>;

// ── worker → daemon ──────────────────────────────────────────────────────────

/**
 * The worker is up. `webPort` is its web terminal on 127.0.0.1 (0 = none); `webSocket` the unix socket it listens on
 * instead (init.webUnix), a path on the worker's own machine. View tokens are issued and persisted by the
 * daemon (its proxy checks them), so `viewToken` is only set by workers that run their own token (none today).
 */
export const ReadyMsg = z.strictObject({ type: z.literal('ready'), webPort: z.number().int().min(0).max(65535), webSocket: z.string().min(1).max(200).optional(), viewToken: z.string().min(16).max(256).optional() });
export const StatusMsg = z.strictObject({
  type: z.literal('status'),
  status: SessionStatusSchema,
  screenText: z.string().max(IPC_LIMITS.screenText).optional(),
  detail: z.string().max(IPC_LIMITS.statusDetail).optional(),
});
/**
 * The pane's screen as captured, sent while it changes and someone displays screenshots (at most every
 * init.frameIntervalMs, forced frames at once). A frame crosses once: the daemon draws it where the card is (DESIGN §12),
 * so a worker never holds pixels, and one on another host sends screens, not images. `hash` names the screen's content.
 */
export const ScreenMsg = z.strictObject({
  type: z.literal('screen'),
  screen: CapturedScreenSchema,
  hash: z.string().regex(/^[0-9a-f]{8,128}$/),
});
export const SelectionOptionSchema = z.strictObject({ label: z.string().min(1).max(IPC_LIMITS.selectionLabel) });
export const SelectionMsg = z.strictObject({
  type: z.literal('selection'),
  promptId: id,
  title: z.string().max(IPC_LIMITS.selectionTitle),
  options: z.array(SelectionOptionSchema).min(1).max(IPC_LIMITS.options),
  defaultIndex: z.number().int().min(0).max(IPC_LIMITS.options - 1),
  kind: z.enum(['startup', 'permission', 'menu']),
  /** The option that takes a typed answer (Claude's "Type something."), when the prompt has one. */
  textOption: z.number().int().min(0).max(IPC_LIMITS.options - 1).optional(),
});
export const InputDeliveredMsg = z.strictObject({
  type: z.literal('input_delivered'),
  turnId: id,
  evidence: z.enum(['transcript', 'busy', 'composer_cleared', 'echo']),
  enterRetries: z.number().int().min(0).max(10).default(0),
});
/** `reason` is English for logs; `failure` lets the daemon say it in the bot's language. */
export const InputFailedMsg = z.strictObject({ type: z.literal('input_failed'), turnId: id, reason: z.string().max(1024), failure: FailureSchema.optional() });
/** `usage`: what the turn's model calls cost, read from the CLI's transcript (absent for a CLI that writes none). */
/** `joined`: turns steered into this one while the CLI worked (it answered them in this turn); they end with it. */
export const FinalOutputMsg = z.strictObject({
  type: z.literal('final_output'), turnId: id.optional(), joined: z.array(id).max(IPC_LIMITS.options).optional(), text, usage: TurnUsageSchema.optional(),
});
export const CliIdentityMsg = z.strictObject({
  type: z.literal('cli_identity'),
  nativeSessionId: z.string().min(1).max(IPC_LIMITS.id),
  transcriptPath: z.string().max(4096).optional(),
  pid: z.number().int().positive().optional(),
});
export const CliExitMsg = z.strictObject({ type: z.literal('cli_exit'), code: z.number().int().nullable(), logTail: z.string().max(IPC_LIMITS.logTail) });
/** How the CLI came up for this worker: launched fresh, launched with its resume arguments, or taken over live. */
export const CliStartedMsg = z.strictObject({
  type: z.literal('cli_started'),
  how: z.enum(['new', 'resumed', 'attached']),
  /** Set when a resume was asked for but the CLI was started fresh (no native id, or the CLI cannot resume). */
  freshReason: z.string().max(512).optional(),
  /** The same as a code, so the daemon can say it in the bot's language. */
  freshCode: z.enum(['cannot_resume', 'no_native_id']).optional(),
});
export const ErrorMsg = z.strictObject({ type: z.literal('error'), code: z.string().min(1).max(64), message: z.string().max(4096), failure: FailureSchema.optional() });
/**
 * Liveness, both sides of it in one place (issue 28): the worker only reports, the daemon decides. The interval is rare
 * because every wake-up of an idle worker costs CPU (see STATUS_TIMING.pidCheckQuietEveryMs); a worker that dies is seen
 * at once from its exit, only a hung one waits. Three missed heartbeats (plus 5 s of slack) mean it hangs.
 */
export const HEARTBEAT_TIMING = {
  intervalMs: 30_000,
  timeoutMs: 3 * 30_000 + 5_000,
} as const;

/**
 * What became of a hurry: `steered` (typed into the working CLI now), `interrupted` (the turn is being interrupted; the
 * message goes next), `waits` (the CLI is not working or cannot take it now: it keeps its place), `not_queued` (it
 * already left the queue: nothing is done twice).
 */
export const HurryOutcomeSchema = z.enum(['steered', 'interrupted', 'waits', 'not_queued']);
export type HurryOutcome = z.infer<typeof HurryOutcomeSchema>;
export const HurryDoneMsg = z.strictObject({ type: z.literal('hurry_done'), turnId: id, how: HurryHowSchema, outcome: HurryOutcomeSchema });

export const HeartbeatMsg = z.strictObject({ type: z.literal('heartbeat'), at: z.number() });

/**
 * The CLI's vendor refuses work for a while (issue 30.3), as the worker read it from the CLI's screen or transcript.
 * `limited`: a usage or quota limit, until `untilMs` when the CLI says when it resets (epoch ms: the end of the minute or
 * second it showed, so never before the vendor's reset; absent when it does not say). `throttled`: a short rate limit
 * the CLI retries by itself (seconds). `clear`: the CLI works again (a turn was accepted after a limit). The worker only reports; the daemon decides whether to hold (src/shared/usage-hold.ts).
 * `excerpt` is the CLI's own words (one line, for logs and the card), `cli` which adapter recognised it.
 */
export const UsageLimitMsg = z.strictObject({
  type: z.literal('usage_limit'),
  state: z.enum(['limited', 'throttled', 'clear']),
  untilMs: z.number().int().positive().optional(),
  excerpt: z.string().max(512).default(''),
  turnId: id.optional(),
});

export const WorkerToDaemonSchema = z.discriminatedUnion('type', [
  ReadyMsg, StatusMsg, ScreenMsg, SelectionMsg, InputDeliveredMsg, InputFailedMsg, FinalOutputMsg, CliIdentityMsg, CliExitMsg, CliStartedMsg, ErrorMsg, HeartbeatMsg, HurryDoneMsg, UsageLimitMsg,
]);
export type WorkerToDaemon = z.infer<typeof WorkerToDaemonSchema>;

export type ParseResult<T> = { ok: true; msg: T } | { ok: false; reason: string };

function reasonOf(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'message'}: ${i.message}`)
    .join('; ');
}

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  const res = schema.safeParse(raw);
  return res.success ? { ok: true, msg: res.data } : { ok: false, reason: reasonOf(res.error) };
}

export const parseDaemonToWorker = (raw: unknown): ParseResult<DaemonToWorker> => parseWith(DaemonToWorkerSchema, raw);
export const parseWorkerToDaemon = (raw: unknown): ParseResult<WorkerToDaemon> => parseWith(WorkerToDaemonSchema, raw);
