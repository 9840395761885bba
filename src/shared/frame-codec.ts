// Length-prefixed frames for a byte stream (the host agent's stdin/stdout over one ssh channel): a 4-byte big-endian
// length, then that many bytes of UTF-8 JSON. Pure: the decoder keeps at most one frame's bytes, never more.

/**
 * The largest frame either side accepts. The largest message the IPC schemas admit is a screen of 8 Mi characters of
 * ANSI (RENDER_LIMITS.ansi); JSON writes a character in at most 6 bytes (`\u001b`), so 48 MiB holds it with room for
 * the envelope. A bigger length is garbage or hostile: its bytes are skipped as they arrive, never buffered.
 */
export const MAX_FRAME_BYTES = 50 * 1024 * 1024;

const HEADER_BYTES = 4;
// One of each for every frame (a remote session's screens cross here): neither keeps state between calls without
// `stream`, and the decoder is fatal, so bytes that are not UTF-8 drop the frame instead of turning into U+FFFD.
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8', { fatal: true });

/** One frame: its 4-byte length and its JSON. */
export function encodeFrame(value: unknown): Uint8Array {
  const body = ENCODER.encode(JSON.stringify(value));
  if (body.length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${body.length} bytes is above the ${MAX_FRAME_BYTES}-byte limit`);
  const out = new Uint8Array(HEADER_BYTES + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, HEADER_BYTES);
  return out;
}

/** What the decoder found: a parsed frame, or one it dropped and why (the stream stays in step after either). */
export type FrameEvent = { kind: 'frame'; value: unknown } | { kind: 'dropped'; reason: 'oversized' | 'invalid-json'; bytes: number };

/** Splits a byte stream into frames, whatever the chunking: a frame may span chunks, a chunk may hold several. */
export class FrameDecoder {
  private header = new Uint8Array(HEADER_BYTES);
  private headerFill = 0;
  private body: Uint8Array | null = null;
  private bodyFill = 0;
  /** Bytes of an oversized frame still to skip. */
  private skipping = 0;

  constructor(private readonly maxBytes: number = MAX_FRAME_BYTES) {}

  push(chunk: Uint8Array): FrameEvent[] {
    const events: FrameEvent[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.skipping > 0) {
        const n = Math.min(this.skipping, chunk.length - at);
        this.skipping -= n;
        at += n;
        continue;
      }
      if (this.body === null) {
        const n = Math.min(HEADER_BYTES - this.headerFill, chunk.length - at);
        this.header.set(chunk.subarray(at, at + n), this.headerFill);
        this.headerFill += n;
        at += n;
        if (this.headerFill < HEADER_BYTES) break;
        this.headerFill = 0;
        const length = new DataView(this.header.buffer).getUint32(0);
        if (length > this.maxBytes) {
          this.skipping = length;
          events.push({ kind: 'dropped', reason: 'oversized', bytes: length });
          continue;
        }
        this.body = new Uint8Array(length);
        this.bodyFill = 0;
      }
      const n = Math.min(this.body.length - this.bodyFill, chunk.length - at);
      this.body.set(chunk.subarray(at, at + n), this.bodyFill);
      this.bodyFill += n;
      at += n;
      if (this.bodyFill === this.body.length) {
        events.push(parseBody(this.body));
        this.body = null;
      }
    }
    return events;
  }

  /** Bytes held for a frame not yet complete (what the decoder costs right now). */
  pendingBytes(): number {
    return this.headerFill + (this.body?.length ?? 0);
  }
}

function parseBody(body: Uint8Array): FrameEvent {
  try {
    return { kind: 'frame', value: JSON.parse(DECODER.decode(body)) as unknown };
  } catch {
    return { kind: 'dropped', reason: 'invalid-json', bytes: body.length };
  }
}
