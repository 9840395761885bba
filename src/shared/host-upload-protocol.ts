// One attachment copied into a session's folder on another host (DESIGN §12): the daemon runs the bundle's host agent
// as `node <bundle>/host-agent.js put` over the host's ControlMaster, and everything that came from the chat — the
// folder, the stored name — travels on stdin, never on the remote command line (the host's `ps` shows that). Stdin is
// one header line of JSON, then exactly `bytes` bytes of the file; stdout is one line of JSON, the result.
import { z } from 'zod';

/** The one word after the agent's path that makes it receive a file instead of serving the daemon. */
export const HOST_UPLOAD_VERB = 'put';

export const HostUploadHeaderSchema = z.strictObject({
  /** The session's folder on the host (absolute); placement confined it already. */
  cwd: z.string().startsWith('/').max(4096),
  /** `.larkmux/uploads/<date>` (attachment-plan.ts uploadFolder). */
  folder: z.string().regex(/^\.larkmux\/uploads\/\d{4}-\d{2}-\d{2}$/),
  /** The generated stored name (attachment-plan.ts storedName): inert characters only, no folder part. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
  bytes: z.number().int().nonnegative(),
  /** sha256 of the file: the host checks what arrived before it lands. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type HostUploadHeader = z.infer<typeof HostUploadHeaderSchema>;

export const HostUploadResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true) }),
  /** `refused`: the level of the upload folder that is a link or not a folder (nothing was written). */
  z.strictObject({ ok: z.literal(false), error: z.string().max(2000), refused: z.string().max(200).optional() }),
]);
export type HostUploadResult = z.infer<typeof HostUploadResultSchema>;

/** What goes on the agent's stdin for one file. */
export function hostUploadInput(header: HostUploadHeader, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), bytes]);
}

/** The header and the file read back from the agent's whole stdin; an error in words when it is not that. */
export function readHostUploadInput(input: Buffer): { ok: true; header: HostUploadHeader; bytes: Buffer } | { ok: false; error: string } {
  const nl = input.indexOf(0x0a);
  if (nl < 0 || nl > 8192) return { ok: false, error: 'no header line' };
  let raw: unknown;
  try {
    raw = JSON.parse(input.subarray(0, nl).toString('utf8'));
  } catch {
    return { ok: false, error: 'the header is not JSON' };
  }
  const parsed = HostUploadHeaderSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: `bad header: ${parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  const bytes = input.subarray(nl + 1);
  if (bytes.length !== parsed.data.bytes) return { ok: false, error: `${bytes.length} bytes arrived, ${parsed.data.bytes} were sent` };
  return { ok: true, header: parsed.data, bytes };
}
