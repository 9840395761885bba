// The browser ⇄ worker web-terminal protocol: JSON text frames (zod, parsed on receipt) plus binary frames of pane output.
import * as z from 'zod';

// Version and caps of this protocol alone (ipc.ts has the daemon ⇄ worker ones, alike in shape): a page and a worker
// go stale apart from a worker and its daemon.
/** Bumped whenever a frame changes shape; sent in `info` so a stale page can tell the user to reload. */
export const WEBTERM_PROTOCOL_VERSION = 2;

/** Caps keep one bad frame from costing much: 64 KiB is far above a paste typed into a terminal page. */
export const WEBTERM_LIMITS = {
  inputChars: 65_536,
  frameChars: 70_000,
  /** Lines of pane history a `history` answer carries at most (tmux's default history-limit is 2000). */
  historyLines: 2_000,
  /** …and characters: the newest lines are kept, so one answer stays under frameChars. */
  historyChars: 64_000,
} as const;

/** Path of the WebSocket, relative to the page (the page is served at `/s/<sessionId>/`). */
export const WEBTERM_WS_PATH = 'ws';

/** WebSocket close codes the server uses; the page shows a reason for each. */
export const WEBTERM_CLOSE = {
  /** Write access was revoked (`/revoke-term`, `/close`). */
  revoked: 4001,
  /** The tmux client ended (session closed or killed). */
  paneGone: 4002,
  /** The server is shutting down (worker stopping). */
  shutdown: 4003,
} as const;

/** The smallest pane a fit may ask for: below this a CLI's own layout breaks (tmux itself allows 1x1). */
export const WEBTERM_FIT_LIMITS = { minCols: 20, minRows: 6 } as const;

// ── browser → worker ─────────────────────────────────────────────────────────

/** The page's own viewport in cells; informative only (only a write page's fit frame resizes the pane). */
export const HelloFrame = z.strictObject({
  t: z.literal('hello'),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(500),
});
/** Keystrokes (write connections only; dropped on read-only ones). */
export const InputFrame = z.strictObject({ t: z.literal('in'), d: z.string().min(1).max(WEBTERM_LIMITS.inputChars) });
/**
 * Scrolling back asks for the pane's history, which the page shows in its own scrollable view. Nothing a browser
 * sends ever scrolls the shared pane (copy mode would stall prompts sent from the chat, and is shared by everyone).
 */
export const HistoryRequestFrame = z.strictObject({ t: z.literal('history') });

/**
 * Fit-to-width (write connections only; dropped on read-only ones): `on` asks the pane to take this page's size in
 * cells (the tmux client's size, status line included) so the CLI reflows for a phone; `on: false` gives it back, as
 * does closing the page. The pane's own size is restored once no write page asks any more.
 */
export const FitFrame = z.strictObject({
  t: z.literal('fit'),
  on: z.boolean(),
  cols: z.number().int().min(WEBTERM_FIT_LIMITS.minCols).max(1000).optional(),
  rows: z.number().int().min(WEBTERM_FIT_LIMITS.minRows).max(500).optional(),
});

export const ClientFrameSchema = z.discriminatedUnion('t', [HelloFrame, InputFrame, HistoryRequestFrame, FitFrame]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
export type FitRequest = z.infer<typeof FitFrame>;

// ── worker → browser ─────────────────────────────────────────────────────────

/** Sent first on every connection and again whenever the pane's size changes. cols/rows = the attached client's size. */
export const InfoFrame = z.strictObject({
  t: z.literal('info'),
  protocol: z.number().int(),
  readOnly: z.boolean(),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(500),
});
/** The answer to `history`: the pane's scrollback and screen as plain text, oldest line first. */
export const HistoryFrame = z.strictObject({
  t: z.literal('history'),
  text: z.string().max(WEBTERM_LIMITS.historyChars),
});
export const ServerFrameSchema = z.discriminatedUnion('t', [InfoFrame, HistoryFrame]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
export type InfoMessage = z.infer<typeof InfoFrame>;
export type HistoryMessage = z.infer<typeof HistoryFrame>;

export type FrameParse<T> = { ok: true; frame: T } | { ok: false; reason: string };

function parseJsonFrame<T>(schema: z.ZodType<T>, text: string): FrameParse<T> {
  if (text.length > WEBTERM_LIMITS.frameChars) return { ok: false, reason: 'frame too long' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const res = schema.safeParse(raw);
  // Only field paths, never values: an input frame's content is keystrokes.
  return res.success ? { ok: true, frame: res.data } : { ok: false, reason: res.error.issues.slice(0, 3).map((i) => i.path.join('.') || 'frame').join(', ') };
}

export const parseClientFrame = (text: string): FrameParse<ClientFrame> => parseJsonFrame(ClientFrameSchema, text);
export const parseServerFrame = (text: string): FrameParse<ServerFrame> => parseJsonFrame(ServerFrameSchema, text);

export function encodeFrame(frame: ClientFrame | ServerFrame): string {
  return JSON.stringify(frame);
}

// ── proxy → worker identity headers ──────────────────────────────────────────

/**
 * The daemon's proxy is the only caller of a worker's port; it proves that with a per-worker secret and states the
 * verified access. The proxy removes any of these headers a browser sent before adding its own.
 */
export const PROXY_HEADERS = {
  secret: 'x-larkmux-proxy-secret',
  access: 'x-larkmux-access',
  user: 'x-larkmux-user',
} as const;
