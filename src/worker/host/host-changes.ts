// The host's side of "what a turn changed" (`node host-agent.js changes`, see shared/host-changes-protocol.ts): reads
// one request from stdin and answers it with the same git code a local session uses (platform/git-snapshot.ts): a
// private index, the user's index and HEAD untouched, GIT_LIMITS' deadline and patch size, no secret env given to git.
// The agent serving the daemon answers `root` and `snapshot` with the same code on its channel (a git_ask frame).
import type { Readable } from 'node:stream';
import { readCapped } from '../../platform/read-capped.js';
import { HOST_CHANGES_MAX_INPUT, readHostChangesRequest, type HostChangesRequest, type HostChangesResult } from '../../shared/host-changes-protocol.js';
import { diffTrees, snapshotAt, workTreeRoot } from '../../platform/git-snapshot.js';

export async function answerChanges(request: HostChangesRequest): Promise<HostChangesResult> {
  if (request.op === 'root') return { ok: true, top: await workTreeRoot(request.cwd) };
  if (request.op === 'snapshot') return { ok: true, snapshot: await snapshotAt(request.cwd) };
  return { ok: true, diff: await diffTrees(request.top, request.from, request.to) };
}

export async function receiveChangesRequest(input: Readable): Promise<HostChangesResult> {
  const got = await readCapped(input, HOST_CHANGES_MAX_INPUT, { onOverflow: 'destroy' });
  if (got.kind !== 'body') return { ok: false, error: got.kind === 'too_large' ? 'more input than a changes request may have' : 'stdin could not be read' };
  const read = readHostChangesRequest(got.data.toString('utf8'));
  if (!read.ok) return read;
  return answerChangesInWords(read.request);
}

/** answerChanges with a failure said as an answer (its message cut to 500 chars), never thrown. */
export async function answerChangesInWords(request: HostChangesRequest): Promise<HostChangesResult> {
  try {
    return await answerChanges(request);
  } catch (err) {
    return { ok: false, error: String((err as Error).message ?? err).slice(0, 500) };
  }
}
