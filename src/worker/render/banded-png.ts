// Incremental PNG encoding for a session's card frames: each band (frameBands) is deflated on its own and ends on a
// byte boundary (a sync flush), so the bands' compressed bytes joined in order are one valid zlib stream, and a band
// whose key is unchanged keeps last frame's bytes. Measured on spinner-only frames: compressing the changed rows takes
// 0.3-0.6 ms instead of 4.6-19.8 ms for the whole card (issue 28).
import { constants, createDeflate } from 'node:zlib';
import { adler32Combine, ADLER32_EMPTY } from './adler32.js';
import { assemble, deflateLevelFor, PNG_WRITER } from './png-writer.js';
import type { FrameBand } from './frame-bands.js';

/** What the encoder needs of a band: its pixel rows and its key. */
type EncodedSpan = Pick<FrameBand, 'y0' | 'y1' | 'key'>;

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
  /**
   * zlib level for a session's phone card bands (frames up to PNG_WRITER.smallFramePixels; bigger ones take the
   * big-frame level). Measured on the 63 fixture screens as phone cards, bands deflated apart (KB median / max, CPU ms
   * per whole card): level 3 108 / 289, 5.6; 4 87 / 264, 11.0; 6 84 / 252, 14.1. A phone downloads a card every 2 s
   * while the screen changes, and only changed bands are deflated (most of a card's are kept between frames), so 4.
   */
  level: 4,
} as const;

/** The level for a streamed frame's bands: BANDED_PNG.level for a phone card, the big-frame level above it. */
export function bandLevelFor(width: number, height: number): number {
  return width * height <= PNG_WRITER.smallFramePixels ? BANDED_PNG.level : deflateLevelFor(width, height);
}

interface EncodedBand {
  /** Raw deflate blocks ending in a sync flush (no zlib header, no final block). */
  data: Buffer;
  /** Adler-32 of the band's scanlines and their length, for the stream's trailer. */
  adler: number;
  rawLength: number;
}

/** A changed band's place in a frame until its bytes are back. */
const PENDING: EncodedBand = { data: Buffer.alloc(0), adler: ADLER32_EMPTY, rawLength: 0 };

/** A zlib stream's first two bytes: deflate, 32 KB window, no preset dictionary ((0x78 << 8 | 0x01) % 31 == 0). */
const ZLIB_HEADER = Uint8Array.from([0x78, 0x01]);
/** An empty final block with fixed codes: what zlib writes when a stream ends right after a sync flush. */
const FINAL_EMPTY_BLOCK = Uint8Array.from([0x03, 0x00]);

/**
 * Deflates one band in a zlib stream of its own, flushed to a byte boundary and then ended: zlib then writes the empty
 * final block and the band's Adler-32, which is read here instead of summing the band in JavaScript (~5 ms per card).
 * The write itself flushes (`flush`), and the output buffer holds a band's bytes at once: two pool trips per band,
 * not three or more.
 */
function deflateBand(raw: Uint8Array, level: number): Promise<EncodedBand> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ level, flush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
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
    z.end(raw);
  });
}

/** The RGBA rows [band.y0, band.y1) of the image, read (or painted) on demand. */
export type BandReader<B extends EncodedSpan> = (band: B) => Uint8Array;

export interface BandedFrame {
  png: Buffer;
  bands: { total: number; reused: number };
}

/** Encodes frames of many streams (sessions); one encode at a time. */
export class BandedPngEncoder {
  private readonly streams = new Map<string, Map<string, EncodedBand>>();
  /** Each lane's scanline buffer, shared by every stream (only compressed bytes and keys are kept per stream). */
  private readonly laneBuffers: Buffer[] = [];
  private busy = false;

  /** Streams with bands kept (tests). */
  get streamCount(): number {
    return this.streams.size;
  }

  /** Band `band`'s scanlines (filter byte None + its RGBA row, each row) in lane `lane`'s buffer. */
  private scanlines<B extends EncodedSpan>(lane: number, rgba: Uint8Array | BandReader<B>, width: number, band: B): Buffer {
    const rowBytes = width * 4;
    const size = (rowBytes + 1) * (band.y1 - band.y0);
    let buf = this.laneBuffers[lane];
    if (!buf || buf.length < size) this.laneBuffers[lane] = buf = Buffer.allocUnsafeSlow(size);
    const rows = typeof rgba === 'function' ? rgba(band) : rgba.subarray(band.y0 * rowBytes, band.y1 * rowBytes);
    for (let y = 0; y < band.y1 - band.y0; y++) {
      buf[y * (rowBytes + 1)] = 0;
      buf.set(rows.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
    }
    return buf.subarray(0, size);
  }

  forget(stream: string): void {
    this.streams.delete(stream);
  }

  /**
   * Encodes non-premultiplied RGBA rows as an RGBA PNG, reusing the bands of the stream's previous frame with equal
   * keys. `rgba` is the whole image's rows, or gives a band's rows on demand: only changed bands are painted and read
   * then, each while the bands before it deflate (a whole card's copy is 3-7 MB and 1.5-3 ms).
   */
  async encode<B extends EncodedSpan>(stream: string, rgba: Uint8Array | BandReader<B>, width: number, height: number, bands: readonly B[]): Promise<BandedFrame> {
    if (this.busy) throw new Error('BandedPngEncoder.encode called while an encode is in flight');
    this.busy = true;
    try {
      const before = this.streams.get(stream);
      this.streams.delete(stream);
      const level = bandLevelFor(width, height);
      const now = new Map<string, EncodedBand>();
      const todo: B[] = [];
      for (const band of bands) {
        // A band equal to one above it in the same frame (a blank row between blank rows) is deflated once.
        if (now.has(band.key)) continue;
        const kept = before?.get(band.key);
        now.set(band.key, kept ?? PENDING);
        if (!kept) todo.push(band);
      }
      // Each lane reads a changed band's rows, lays them out as scanlines in its own buffer and deflates them on the
      // pool while the next lane reads: no whole-image copy, and only `parallel` bands' scanlines exist at once.
      const lane = async (at: number) => {
        for (let i = at; i < todo.length; i += BANDED_PNG.parallel) {
          const band = todo[i]!;
          now.set(band.key, await deflateBand(this.scanlines(at, rgba, width, band), level));
        }
      };
      await Promise.all(Array.from({ length: Math.min(BANDED_PNG.parallel, todo.length) }, (_, at) => lane(at)));
      this.streams.set(stream, now);
      if (this.streams.size > BANDED_PNG.streamsKept) this.streams.delete(this.streams.keys().next().value!);
      return { png: assemble(width, height, joinBands(bands.map((b) => now.get(b.key)!))), bands: { total: bands.length, reused: bands.length - todo.length } };
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
