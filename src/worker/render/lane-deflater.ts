// One encoder lane's zlib stream, kept from band to band. A fresh zlib stream per band cost ~0.27 ms of CPU beyond its
// deflate (the stream object, zlib's ~270 KB of state set up and freed, its events); reset and reused it costs
// ~0.08-0.18 ms, and writes the same bytes. 38 bands of a CJK card are 38 streams (issue 28).
import { constants, createDeflate, type Deflate } from 'node:zlib';

/** A band's raw deflate blocks (no zlib header, no final block, ending on a sync flush) and its Adler-32. */
export interface DeflatedBand {
  data: Buffer;
  adler: number;
  rawLength: number;
}

/** An empty final block with fixed codes: what zlib writes when a stream ends right after a sync flush. */
export const FINAL_EMPTY_BLOCK = Uint8Array.from([0x03, 0x00]);

export class LaneDeflater {
  private stream: Deflate | null = null;
  private chunks: Buffer[] = [];
  private failed: ((err: Error) => void) | null = null;
  private busy = false;

  constructor(private readonly level: number) {}

  /**
   * Deflates `raw` as one zlib stream: the write flushes to a byte boundary, then the stream is finished, so zlib
   * writes the empty final block and the Adler-32 of `raw` (read here, not summed in JavaScript), and is reset for the
   * next band. Two pool trips per band. One band at a time; a stream that failed is dropped and the next call opens one.
   */
  deflate(raw: Uint8Array): Promise<DeflatedBand> {
    if (this.busy) return Promise.reject(new Error('LaneDeflater.deflate called while a band is in flight'));
    this.busy = true;
    const z = this.stream ?? this.open();
    z.reset();
    this.chunks = [];
    return new Promise<DeflatedBand>((resolve, reject) => {
      this.failed = reject;
      z.write(raw);
      z.flush(constants.Z_FINISH, () => {
        if (this.failed !== reject) return;
        this.failed = null;
        const out = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
        this.chunks = [];
        const tail = out.length - 6;
        if (out.length < 8 || out[tail] !== FINAL_EMPTY_BLOCK[0] || out[tail + 1] !== FINAL_EMPTY_BLOCK[1]) {
          this.drop();
          reject(new Error(`zlib ended a band unexpectedly (${out.length} bytes)`));
          return;
        }
        resolve({ data: out.subarray(2, tail), adler: out.readUInt32BE(tail + 2), rawLength: raw.length });
      });
    }).finally(() => { this.busy = false; });
  }

  /** Frees the stream (zlib's state); the next band opens another. */
  dispose(): void {
    this.drop();
  }

  private open(): Deflate {
    const z = createDeflate({ level: this.level, flush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
    z.on('data', (c: Buffer) => this.chunks.push(c));
    z.on('error', (err: Error) => {
      if (this.stream === z) this.stream = null;
      const failed = this.failed;
      this.failed = null;
      failed?.(err);
    });
    this.stream = z;
    return z;
  }

  private drop(): void {
    const z = this.stream;
    this.stream = null;
    z?.destroy();
  }
}
