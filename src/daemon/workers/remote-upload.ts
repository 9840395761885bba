// Attachments into a session's folder on another host: each file goes over the host's ControlMaster to the bundle's
// agent run as `put` (worker/host/host-upload.ts), which writes it by the local rules. The remote command line holds
// only the bundle's path and the verb; the session's folder, the stored name and the bytes go on stdin.
import { createHash } from 'node:crypto';
import { HOST_UPLOAD_VERB, HostUploadResultSchema, hostUploadInput, type HostUploadResult } from '../../shared/host-upload-protocol.js';
import { UploadBlocked, type OpenUploadFolder } from '../../platform/upload-dir.js';
import type { RemoteHost } from './remote-host.js';
import { runAgentVerb } from './remote-agent-verb.js';

export const REMOTE_UPLOAD_TIMING = {
  /** One file's copy at the latest: 100 MiB (the largest a bot takes) over a slow link of ~2 Mbit/s fits in it. */
  timeoutMs: 10 * 60_000,
} as const;

/** Copies one file into `<cwd>/<folder>/<name>` on the host: the host's answer, or why there is none. */
export async function putOnHost(host: RemoteHost, cwd: string, folder: string, name: string, bytes: Uint8Array): Promise<HostUploadResult> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const stdin = hostUploadInput({ cwd, folder, name, bytes: bytes.byteLength, sha256 }, bytes);
  const res = await runAgentVerb(host, HOST_UPLOAD_VERB, stdin, HostUploadResultSchema, { timeoutMs: REMOTE_UPLOAD_TIMING.timeoutMs });
  return res.ok ? res.answer : res;
}

/** The upload folder of a session on `host`, as saveAttachments writes into it. */
export function remoteUploadFolder(host: RemoteHost): OpenUploadFolder {
  return async (cwd, folder) => ({
    ok: true,
    dir: {
      write: async (name, bytes) => {
        const r = await putOnHost(host, cwd, folder, name, bytes);
        if (r.ok) return;
        throw r.refused ? new UploadBlocked(r.refused) : new Error(r.error);
      },
      close: async () => undefined,
    },
  });
}
