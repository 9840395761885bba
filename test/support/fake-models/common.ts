// Shared plumbing of the fake model servers: HTTP server, request log (secrets dropped), SSE writer, scripted replies.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  path: string;
  /** Headers without credentials (authorization, x-api-key, x-goog-api-key are removed). */
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export interface FakeModelOptions {
  port?: number;
  host?: string;
  /** Delay before every reply starts streaming (a "slow model" for everything). */
  replyDelayMs?: number;
  /** Delay for prompts containing `SLOW` (busy-state tests), default 5 s. */
  slowDelayMs?: number;
}

export interface FakeModelServer {
  url: string;
  port: number;
  /** Every request received, in order (bodies parsed as JSON when they are JSON). */
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export const FAKE_DEFAULTS = {
  /** Long enough to observe the busy spinner and to type ahead several messages; short enough for CI. */
  slowDelayMs: 5_000,
} as const;

/**
 * What every fake says one model call used, each in its vendor's fields: prompt tokens not from a cache, prompt tokens
 * read from the cache, and output tokens. Distinct numbers, so a reader that mixes the kinds up is caught
 * (test/e2e/cli-usage.test.ts checks larkmux's ledger against them).
 */
export const FAKE_CALL_USAGE = { freshInput: 31, cachedInput: 4, output: 7 } as const;

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie']);

/** What the scripted model does with one conversation state. */
export type FakeAction =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; text: string; command: string; escalate: boolean; tool?: { name: string; input: Record<string, unknown> } }
  | { kind: 'json'; value: unknown };

/**
 * The script shared by all three fakes:
 * - after a tool result → `FAKE-REPLY: tool said: <result>`
 * - `MAKE-FILE <name>` → a shell tool call `touch <name>` (escalated on Codex, so an approval prompt appears)
 * - `RUN_TOOL: <command>` → a shell tool call running that command
 * - `LONG-ANSWER <n>` (or `LONG-ANSWER-CJK <n>`) → an answer of exactly n characters (`longAnswerText`)
 * - anything else → `FAKE-REPLY: <last user text>`
 */
export function scriptedAction(lastUserText: string, toolResult: string | null): FakeAction {
  if (toolResult !== null) return { kind: 'text', text: `FAKE-REPLY: tool said: ${toolResult.slice(0, 300)}` };
  const make = /MAKE-FILE ([A-Za-z0-9._-]+)/.exec(lastUserText);
  if (make) return { kind: 'tool', text: `FAKE-REPLY: running touch ${make[1]}`, command: `touch ${make[1]}`, escalate: true };
  const long = /LONG-ANSWER(-CJK)? (\d+)/.exec(lastUserText);
  if (long) return { kind: 'text', text: longAnswerText(Number(long[2]), !!long[1]) };
  const run = /RUN_TOOL: (.+)$/m.exec(lastUserText);
  if (run) return { kind: 'tool', text: `FAKE-REPLY: running ${run[1]!.trim()}`, command: run[1]!.trim(), escalate: false };
  return { kind: 'text', text: `FAKE-REPLY: ${lastUserText}` };
}

/**
 * A long answer whose every piece is distinguishable (numbered lines), so a missing, repeated or reordered part shows:
 * ASCII lines, or CJK characters (3 bytes each in UTF-8) broken into lines of 100.
 */
export function longAnswerText(chars: number, cjk: boolean): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) {
    s += cjk
      ? `${Array.from({ length: 99 }, (_, k) => String.fromCodePoint(0x4e00 + ((i * 99 + k) % 20_000))).join('')}\n`
      : `line ${i}: the answer goes on and on, every line numbered\n`;
  }
  return s.slice(0, chars);
}

export function delayFor(lastUserText: string, opts: FakeModelOptions): number {
  const base = opts.replyDelayMs ?? 0;
  return /SLOW/.test(lastUserText) ? base + (opts.slowDelayMs ?? FAKE_DEFAULTS.slowDelayMs) : base;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * `HOLD-UNTIL <path>` in the last user text: the reply waits until that file exists — a turn a test keeps open for
 * as long as it needs (the CLI busy, deterministically), then ends by creating the file.
 */
export async function heldUntilReleased(lastUserText: string): Promise<void> {
  const gate = /HOLD-UNTIL (\S+)/.exec(lastUserText)?.[1];
  while (gate && !existsSync(gate)) await sleep(100);
}

export function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown, url: URL) => Promise<void> | void;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Starts an HTTP server on 127.0.0.1 that logs every request and hands it to `handler`. */
export async function startFakeServer(handler: Handler, opts: FakeModelOptions, onRequest?: (r: LoggedRequest) => void): Promise<FakeModelServer> {
  const requests: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://fake');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!SECRET_HEADERS.has(k) && typeof v === 'string') headers[k] = v;
      const entry: LoggedRequest = { method: req.method ?? 'GET', path: url.pathname + url.search, headers, body, at: Date.now() };
      requests.push(entry);
      onRequest?.(entry);
      try {
        await handler(req, res, body, url);
      } catch (e) {
        if (!res.headersSent) sendJson(res, 500, { error: { message: (e as Error).message } });
        else res.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A vendor refusing work, on cue in the prompt (so a test goes limited → clear by sending a prompt without it; a CLI's
 * own retries repeat the same prompt and stay refused):
 * - `USAGE-LIMIT <s>` → the plan's usage limit, resetting in `s` seconds (each fake answers in its vendor's form)
 * - `RATE-LIMIT <s>` → a short rate limit: retry after `s` seconds
 */
export type FakeLimit = { kind: 'usage' | 'rate'; resetsInS: number };

export function limitCue(lastUserText: string): FakeLimit | null {
  const m = /\b(USAGE|RATE)-LIMIT (\d+)\b/.exec(lastUserText);
  return m ? { kind: m[1] === 'USAGE' ? 'usage' : 'rate', resetsInS: Number(m[2]) } : null;
}

export function sendJsonWith(res: ServerResponse, status: number, headers: Record<string, string>, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
