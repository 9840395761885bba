// Incremental PNG encoding for a session's card frames: each band (frameBands) is deflated on its own and ends on a
// byte boundary (a sync flush), so the bands' compressed bytes joined in order are one valid zlib stream, and a band
// whose key is unchanged keeps last frame's bytes. Measured on spinner-only frames: compressing the changed rows takes
// 0.3-0.6 ms instead of 4.6-19.8 ms for the whole card (issue 28).
import { constants, deflateRawSync } from 'node:zlib';
import { adler32, adler32Combine, ADLER32_EMPTY } from './adler32.js';
import { bandSegments, type BandSegment } from './band-segments.js';
import { FINAL_EMPTY_BLOCK, LaneDeflater, type DeflatedBand } from './lane-deflater.js';
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

/** A band's compressed bytes: raw deflate blocks ending in a sync flush, its Adler-32 and length for the trailer. */
type EncodedBand = DeflatedBand;

/** A changed band's place in a frame until its bytes are back. */
const PENDING: EncodedBand = { data: Buffer.alloc(0), adler: ADLER32_EMPTY, rawLength: 0 };

/** A zlib stream's first two bytes: deflate, 32 KB window, no preset dictionary ((0x78 << 8 | 0x01) % 31 == 0). */
const ZLIB_HEADER = Uint8Array.from([0x78, 0x01]);
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
  private readonly constants = new ConstantSegments();
  /** Each lane's zlib stream per level (a phone card's, a big frame's), kept for the process's life: one encoder per render thread. */
  private readonly deflaters = new Map<string, LaneDeflater>();
  private busy = false;

  /** Streams with bands kept (tests). */
  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * Band `band` as compressed bytes: its segments (band-segments.ts) in order, the rows zlib must see laid out as
   * scanlines (filter byte None + the RGBA row) in lane `lane`'s buffer before anything is awaited (a reader may hand
   * out the same strip again for the next band).
   */
  private async encodeBand<B extends EncodedSpan>(lane: number, rgba: Uint8Array | BandReader<B>, width: number, band: B, level: number): Promise<EncodedBand> {
    const rowBytes = width * 4;
    const count = band.y1 - band.y0;
    const rows = typeof rgba === 'function' ? rgba(band) : rgba.subarray(band.y0 * rowBytes, band.y1 * rowBytes);
    const segments = bandSegments(rows, rowBytes, count);
    let size = 0;
    for (const seg of segments) if (seg.kind === 'rows') size += (seg.to - seg.from) * (rowBytes + 1);
    let buf = this.laneBuffers[lane];
    if (!buf || buf.length < size) this.laneBuffers[lane] = buf = Buffer.allocUnsafeSlow(size);
    const parts: (EncodedBand | Buffer)[] = [];
    let at = 0;
    for (const seg of segments) {
      if (seg.kind !== 'rows') {
        parts.push(this.constants.get(seg, rows, rowBytes));
        continue;
      }
      const from = at;
      for (let y = seg.from; y < seg.to; y++) {
        buf[at] = 0;
        buf.set(rows.subarray(y * rowBytes, (y + 1) * rowBytes), at + 1);
        at += rowBytes + 1;
      }
      parts.push(buf.subarray(from, at));
    }
    const data: Buffer[] = [];
    let adler = ADLER32_EMPTY;
    let rawLength = 0;
    for (const part of parts) {
      const e = Buffer.isBuffer(part) ? await this.deflater(lane, level).deflate(part) : part;
      data.push(e.data);
      adler = adler32Combine(adler, e.adler, e.rawLength);
      rawLength += e.rawLength;
    }
    return { data: data.length === 1 ? data[0]! : Buffer.concat(data), adler, rawLength };
  }

  private deflater(lane: number, level: number): LaneDeflater {
    const key = `${lane}/${level}`;
    let d = this.deflaters.get(key);
    if (!d) this.deflaters.set(key, d = new LaneDeflater(level));
    return d;
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
          now.set(band.key, await this.encodeBand(at, rgba, width, band, level));
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

/**
 * The compressed bytes of segments that depend only on a colour or a count and the row length (a solid row, a run of
 * repeated rows), made once with zlib's best level: they are small and reused by every band and session.
 */
class ConstantSegments {
  /** Distinct row lengths x colours x run lengths seen; a card has a few widths, colours and band heights. */
  private static readonly kept = 512;
  private readonly made = new Map<string, EncodedBand>();

  get(seg: Exclude<BandSegment, { kind: 'rows' }>, rows: Uint8Array, rowBytes: number): EncodedBand {
    const key = seg.kind === 'solid'
      ? `s${rowBytes}:${Buffer.from(rows.buffer, rows.byteOffset + seg.row * rowBytes, 4).readUInt32BE(0)}`
      : `r${rowBytes}:${seg.count}`;
    let e = this.made.get(key);
    if (e) return e;
    let raw: Buffer;
    if (seg.kind === 'solid') {
      raw = Buffer.allocUnsafe(rowBytes + 1);
      raw[0] = 0;
      raw.set(rows.subarray(seg.row * rowBytes, (seg.row + 1) * rowBytes), 1);
    } else {
      // Filter Up (2) with zero differences: each row the same as the one above it.
      raw = Buffer.alloc(seg.count * (rowBytes + 1));
      for (let y = 0; y < seg.count; y++) raw[y * (rowBytes + 1)] = 2;
    }
    e = { data: deflateRawSync(raw, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }), adler: adler32(raw), rawLength: raw.length };
    if (this.made.size >= ConstantSegments.kept) this.made.delete(this.made.keys().next().value!);
    this.made.set(key, e);
    return e;
  }
}
