// One file read on a host for `larkmux send` in a pane there (DESIGN §12): the daemon runs the bundle's host agent as
// `node <bundle>/host-agent.js get` over the host's ControlMaster, on a channel of its own, so a large file never
// waits among the sessions' frames on the agent's channel. The path and the rules travel on stdin, never on the remote
// command line (the host's `ps` shows that). Stdin is one line of JSON, the request; stdout is one line of JSON, the
// answer, then exactly `bytes` bytes of the file when it was read.
import { z } from 'zod';

/** The one word after the agent's path that makes it read a file for the daemon instead of serving it. */
export const HOST_FETCH_VERB = 'get';

/** Longest line either side sends before the bytes: a request's paths, an answer's refusal. */
export const HOST_FETCH_LINE_BYTES = 64 * 1024;

const absolute = z.string().startsWith('/').max(4096);

export const HostFetchRequestSchema = z.strictObject({
  path: absolute,
  /** Where the file may come from on the host (the session's folder); judged there after symlinks are resolved. */
  roots: z.array(absolute).max(32),
  /** larkmux's folder on the host: its own files are never sent. */
  home: absolute.nullable(),
  /** At most this many bytes are sent, plus one to show the file is larger (the platform's largest media). */
  limit: z.number().int().nonnegative().max(1024 * 1024 * 1024),
});
export type HostFetchRequest = z.infer<typeof HostFetchRequestSchema>;

/** Why the host did not read the file: the same reasons as a local read (platform/local-file-read.ts). */
export const HostFetchRefusalSchema = z.discriminatedUnion('reason', [
  z.strictObject({ reason: z.enum(['missing', 'denied', 'too_slow', 'changed', 'private']) }),
  z.strictObject({ reason: z.literal('outside'), roots: z.array(z.string().max(4096)).max(32).readonly() }),
  z.strictObject({ reason: z.literal('not_regular'), kind: z.enum(['directory', 'fifo', 'socket', 'device', 'other']) }),
  z.strictObject({ reason: z.literal('failed'), detail: z.string().max(2000) }),
]);

export const HostFetchAnswerSchema = z.union([
  /**
   * `bytes` bytes follow this line; the daemon checks them against `sha256`. `larger`: the file has more than `limit`
   * bytes, and none follow (`bytes` 0): it would be refused anyway, so a large file costs the link nothing.
   */
  z.strictObject({ ok: z.literal(true), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/), larger: z.literal(true).optional() }),
  z.strictObject({ ok: z.literal(false), refusal: HostFetchRefusalSchema }),
]);
export type HostFetchAnswer = z.infer<typeof HostFetchAnswerSchema>;

/** The request line read back from the agent's stdin; an error in words when it is not one. */
export function parseHostFetchRequest(line: string): { ok: true; request: HostFetchRequest } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, error: 'the request is not JSON' };
  }
  const parsed = HostFetchRequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: `bad request: ${parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  return { ok: true, request: parsed.data };
}

export type FetchedSplit =
  /** `total`: how long the whole output will be, once the answer line says it. */
  | { state: 'partial'; total?: number }
  | { state: 'bad'; error: string }
  | { state: 'refused'; answer: Extract<HostFetchAnswer, { ok: false }> }
  | { state: 'complete'; answer: Extract<HostFetchAnswer, { ok: true }>; data: Buffer };

/**
 * Pure: what the agent's stdout so far says. `partial` while more must come; `bad` when it can never be an answer
 * (no line within the limit, not the schema, more bytes than announced or than `limit + 1`).
 */
export function splitFetched(out: Buffer, limit: number, ended: boolean): FetchedSplit {
  const nl = out.indexOf(0x0a);
  if (nl < 0) {
    if (out.length > HOST_FETCH_LINE_BYTES) return { state: 'bad', error: 'no answer line' };
    return ended ? { state: 'bad', error: 'no answer line' } : { state: 'partial' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(out.subarray(0, nl).toString('utf8'));
  } catch {
    return { state: 'bad', error: 'the answer is not JSON' };
  }
  const parsed = HostFetchAnswerSchema.safeParse(raw);
  if (!parsed.success) return { state: 'bad', error: 'the answer is not one' };
  const answer = parsed.data;
  const data = out.subarray(nl + 1);
  if (!answer.ok) {
    if (data.length > 0) return { state: 'bad', error: 'bytes after a refusal' };
    return ended ? { state: 'refused', answer } : { state: 'partial', total: nl + 1 };
  }
  if (answer.bytes > limit + 1) return { state: 'bad', error: `${answer.bytes} bytes announced, at most ${limit + 1} asked for` };
  if (data.length > answer.bytes) return { state: 'bad', error: `more than the ${answer.bytes} bytes announced` };
  const total = nl + 1 + answer.bytes;
  if (data.length < answer.bytes) return ended ? { state: 'bad', error: `${data.length} bytes arrived, ${answer.bytes} were announced` } : { state: 'partial', total };
  return ended ? { state: 'complete', answer, data } : { state: 'partial', total };
}
