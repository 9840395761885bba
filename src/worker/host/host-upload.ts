// The host's side of an attachment copy (`node host-agent.js put`, see shared/host-upload-protocol.ts): reads the
// header and the bytes from stdin, checks them against the sha256 the daemon sent, and writes the file into the
// session's upload folder by the same rules as a local upload (platform/upload-dir.ts: no link followed at any level,
// written aside and renamed, never over an existing file).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { readHostUploadInput, type HostUploadResult } from '../../shared/host-upload-protocol.js';
import { readCapped } from '../../platform/read-capped.js';
import { UploadDir } from '../../platform/upload-dir.js';

/** Above this much stdin the copy is refused unread (the daemon's own limits stop far below: 100 MiB a file). */
const MAX_INPUT_BYTES = 1024 * 1024 * 1024;

export async function receiveUpload(input: Readable): Promise<HostUploadResult> {
  const got = await readCapped(input, MAX_INPUT_BYTES, { onOverflow: 'destroy' });
  if (got.kind !== 'body') return { ok: false, error: got.kind === 'too_large' ? 'more input than any upload may have' : 'stdin could not be read' };
  const read = readHostUploadInput(got.data);
  if (!read.ok) return { ok: false, error: read.error };
  const { header, bytes } = read;
  if (createHash('sha256').update(bytes).digest('hex') !== header.sha256) return { ok: false, error: 'the file arrived damaged (sha256 differs)' };
  try {
    const opened = await UploadDir.open(header.cwd, header.folder);
    if (!opened.ok) return { ok: false, error: `${opened.refused} is a link or not a folder`, refused: opened.refused };
    try {
      await opened.dir.write(header.name, bytes);
    } finally {
      await opened.dir.close();
    }
    return { ok: true };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, error: (e.code ? `${e.code}: ` : '') + (e.message ?? String(err)).slice(0, 500) };
  }
}
