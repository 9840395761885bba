// Incremental PNG encoding for a session's card frames: each band (frameBands) is deflated on its own and ends on a
// byte boundary (a sync flush), so the bands' compressed bytes joined in order are one valid zlib stream, and a band
// whose key is unchanged keeps last frame's bytes. Measured on spinner-only frames: compressing the changed rows takes
// 0.3-0.6 ms instead of 4.6-19.8 ms for the whole card (issue 28).
import { constants, createDeflate } from 'node:zlib';
import { adler32Combine, ADLER32_EMPTY } from './adler32.js';
import { assemble, deflateLevelFor } from './png-writer.js';
import type { FrameBand } from './frame-bands.js';

export const BANDED_PNG = {
  /**
   * Sessions whose bands are kept (least recently drawn goes first). A phone card's bands are its PNG: 30-300 KB, so
   * the render process holds at most a few MB of them whatever the number of sessions.
   */
  streamsKept: 16,
  /**
   * Bands deflated at once, each on a libuv pool thread (4 by default): each holds zlib's ~270 KB of state while it
   * runs, so a whole card at once (40 bands) would map ~11 MB for a moment.
   */
  parallel: 4,
} as const;

interface EncodedBand {
  /** Raw deflate blocks ending in a sync flush (no zlib header, no final block). */
  data: Buffer;
  /** Adler-32 of the band's scanlines and their length, for the stream's trailer. */
  adler: number;
  rawLength: number;
}

/** A zlib stream's first two bytes: deflate, 32 KB window, no preset dictionary ((0x78 << 8 | 0x01) % 31 == 0). */
const ZLIB_HEADER = Uint8Array.from([0x78, 0x01]);
/** An empty final block with fixed codes: what zlib writes when a stream ends right after a sync flush. */
const FINAL_EMPTY_BLOCK = Uint8Array.from([0x03, 0x00]);

/**
 * Deflates one band in a zlib stream of its own, flushed to a byte boundary and then ended: zlib then writes the empty
 * final block and the band's Adler-32, which is read here instead of summing the band in JavaScript (~5 ms per card).
 */
function deflateBand(raw: Uint8Array, level: number): Promise<EncodedBand> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ level });
    const chunks: Buffer[] = [];
    z.on('data', (c: Buffer) => chunks.push(c));
    z.on('error', reject);
    z.on('end', () => {
      const out = Buffer.concat(chunks);
      const tail = out.length - 6;
      if (out.length < 8 || out[tail] !== FINAL_EMPTY_BLOCK[0] || out[tail + 1] !== FINAL_EMPTY_BLOCK[1]) {
        reject(new Error(`zlib ended a band unexpectedly (${out.length} bytes)`));
        return;
      }
      resolve({ data: out.subarray(2, tail), adler: out.readUInt32BE(tail + 2), rawLength: raw.length });
    });
    z.write(raw);
    z.flush(constants.Z_SYNC_FLUSH, () => z.end());
  });
}

/** Runs `jobs` with at most `limit` in flight. */
async function inBatches(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, lane));
}

export interface BandedFrame {
  png: Buffer;
  bands: { total: number; reused: number };
}

/** Encodes frames of many streams (sessions); one encode at a time. */
export class BandedPngEncoder {
  private readonly streams = new Map<string, Map<string, EncodedBand>>();
  /** Scanlines of the bands being deflated; shared by every stream (only bytes and keys are kept per stream). */
  private raw: Buffer | undefined;
  private busy = false;

  /** Streams with bands kept (tests). */
  get streamCount(): number {
    return this.streams.size;
  }

  forget(stream: string): void {
    this.streams.delete(stream);
  }

  /** Encodes non-premultiplied RGBA rows as an RGBA PNG, reusing the bands of the stream's previous frame with equal keys. */
  async encode(stream: string, rgba: Uint8Array, width: number, height: number, bands: readonly FrameBand[]): Promise<BandedFrame> {
    if (this.busy) throw new Error('BandedPngEncoder.encode called while an encode is in flight');
    this.busy = true;
    try {
      const before = this.streams.get(stream);
      this.streams.delete(stream);
      const level = deflateLevelFor(width, height);
      const row = width * 4 + 1;
      const size = row * height;
      if (!this.raw || this.raw.length < size) this.raw = Buffer.allocUnsafeSlow(size);
      const raw = this.raw;
      const now = new Map<string, EncodedBand>();
      const jobs: (() => Promise<void>)[] = [];
      for (const band of bands) {
        if (now.has(band.key)) continue;
        const kept = before?.get(band.key);
        if (kept) {
          now.set(band.key, kept);
          continue;
        }
        now.set(band.key, { data: Buffer.alloc(0), adler: ADLER32_EMPTY, rawLength: 0 });
        for (let y = band.y0; y < band.y1; y++) {
          raw[y * row] = 0; // filter None
          raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * row + 1);
        }
        jobs.push(async () => void now.set(band.key, await deflateBand(raw.subarray(band.y0 * row, band.y1 * row), level)));
      }
      await inBatches(jobs, BANDED_PNG.parallel);
      this.streams.set(stream, now);
      if (this.streams.size > BANDED_PNG.streamsKept) this.streams.delete(this.streams.keys().next().value!);
      return { png: assemble(width, height, joinBands(bands.map((b) => now.get(b.key)!))), bands: { total: bands.length, reused: bands.length - jobs.length } };
    } finally {
      this.busy = false;
    }
  }
}

/** One zlib stream from bands in order: header, their blocks, an empty final block, the combined Adler-32. */
function joinBands(encoded: readonly EncodedBand[]): Uint8Array {
  let length = ZLIB_HEADER.length + FINAL_EMPTY_BLOCK.length + 4;
  for (const e of encoded) length += e.data.length;
  const out = Buffer.allocUnsafe(length);
  out.set(ZLIB_HEADER, 0);
  let at = ZLIB_HEADER.length;
  let adler = ADLER32_EMPTY;
  for (const e of encoded) {
    out.set(e.data, at);
    at += e.data.length;
    adler = adler32Combine(adler, e.adler, e.rawLength);
  }
  out.set(FINAL_EMPTY_BLOCK, at);
  out.writeUInt32BE(adler, at + FINAL_EMPTY_BLOCK.length);
  return out;
}
