// The host's side of `larkmux send` from a pane here (`node host-agent.js get`, see shared/host-fetch-protocol.ts):
// reads the request line from stdin and the named file by exactly the rules of a local send
// (platform/local-file-read.ts: inside the roots after symlinks, a regular file only, opened without following a
// link or blocking, at most limit + 1 bytes, within a deadline), then writes the answer line and the bytes.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { readLocalFile } from '../../platform/local-file-read.js';
import { HOST_FETCH_LINE_BYTES, parseHostFetchRequest, type HostFetchAnswer } from '../../shared/host-fetch-protocol.js';

/** The first line of stdin, or null when none comes within HOST_FETCH_LINE_BYTES. */
async function requestLine(input: Readable): Promise<string | null> {
  let got = Buffer.alloc(0);
  for await (const chunk of input) {
    got = Buffer.concat([got, chunk as Buffer]);
    const nl = got.indexOf(0x0a);
    if (nl >= 0) return got.subarray(0, nl).toString('utf8');
    if (got.length > HOST_FETCH_LINE_BYTES) return null;
  }
  return null;
}

/** What goes to stdout: the answer line, then the file's bytes when it was read. */
export async function serveFetch(input: Readable): Promise<{ answer: HostFetchAnswer; data: Buffer | null }> {
  const line = await requestLine(input);
  const req = line === null ? ({ ok: false, error: 'no request line' } as const) : parseHostFetchRequest(line);
  if (!req.ok) return { answer: { ok: false, refusal: { reason: 'failed', detail: req.error } }, data: null };
  const { path, roots, home, limit } = req.request;
  const read = await readLocalFile(path, limit, { roots, home });
  if (!read.ok) {
    const { ok: _ok, ...refusal } = read;
    return { answer: { ok: false, refusal }, data: null };
  }
  const data = read.data.length > limit ? Buffer.alloc(0) : read.data;
  const answer: HostFetchAnswer = { ok: true, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex'), ...(data === read.data ? {} : { larger: true as const }) };
  return { answer, data };
}

export function fetchOutput({ answer, data }: { answer: HostFetchAnswer; data: Buffer | null }): Buffer {
  return Buffer.concat([Buffer.from(JSON.stringify(answer) + '\n'), data ?? Buffer.alloc(0)]);
}
