// A small PNG writer for canvas pixels: RGBA, filter None, one deflate on the libuv pool (faster and smaller than Skia's PNG here).
import { crc32, deflate } from 'node:zlib';

export const PNG_WRITER = {
  /**
   * zlib level for frames up to `smallFramePixels`. Measured (CPU ms / bytes) on phone card frames of the fixtures:
   * claude-06 (0.79 Mpx) level 1 6.2 / 105 KB, 3 6.5 / 98 KB, 4 16.5 / 82 KB; codex-05 (1.10 Mpx) 7.3 / 126, 8.3 / 118,
   * 21.2 / 96; the CJK fixture 10.0 / 311, 13.7 / 291, 28.9 / 265. Levels 1-3 share zlib's fast matcher (3 only
   * searches longer); 4 and up add lazy matching at 2.5x the CPU. Encoding is 70-75% of a frame, so 3.
   */
  level: 3,
  /** Every phone card (CARD_IMAGE.maxScaledPixels, 1.5 Mpx) takes `level`. */
  smallFramePixels: 1_500_000,
  /** Bigger frames (a full 200x60 screen: 1.8 Mpx, 7 MB of RGBA) use level 1: a dense one cost 29 ms at 1, 37 ms at 4. */
  bigFrameLevel: 1,
} as const;

export function deflateLevelFor(width: number, height: number): number {
  return width * height <= PNG_WRITER.smallFramePixels ? PNG_WRITER.level : PNG_WRITER.bigFrameLevel;
}

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Writes one chunk (length, type, data, crc) at `at`; returns the offset after it. */
function writeChunk(out: Buffer, at: number, type: string, data: Uint8Array): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  out.set(data, at + 8);
  // zlib's native crc32 (Node >= 20.15): a JS loop over a 1 MB IDAT would take milliseconds.
  out.writeUInt32BE(crc32(out.subarray(at + 4, at + 8 + data.length)) >>> 0, at + 8 + data.length);
  return at + 12 + data.length;
}

/**
 * The scanlines: filter byte 0 (None) + the RGBA row as is (memcpy only). Measured on the fixtures against RGB + filter Sub
 * (a per-byte JS loop, 4–11 ms): None on RGBA came out smaller as well (claude idle 30 KB vs 41 KB, CJK screen 162 KB vs 223 KB),
 * since deflate finds the flat cell backgrounds. `into` is reused when big enough (a fresh 7 MB buffer costs page faults).
 */
export function scanlines(rgba: Uint8Array, width: number, height: number, into?: Buffer): Buffer {
  const row = width * 4;
  const size = (row + 1) * height;
  const out = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafeSlow(size);
  for (let y = 0; y < height; y++) {
    out[y * (row + 1)] = 0;
    out.set(rgba.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  }
  return out;
}

/** The PNG file: signature, IHDR (8-bit RGBA), one IDAT holding the zlib stream `idat`, IEND. */
export function assemble(width: number, height: number, idat: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  // A buffer of its own (never Node's shared pool), so the render thread can transfer it to the main thread.
  const out = Buffer.from(new ArrayBuffer(SIGNATURE.length + 12 + 13 + 12 + idat.length + 12));
  out.set(SIGNATURE, 0);
  let at = writeChunk(out, SIGNATURE.length, 'IHDR', ihdr);
  at = writeChunk(out, at, 'IDAT', idat);
  writeChunk(out, at, 'IEND', new Uint8Array(0));
  return out;
}

function deflateAsync(raw: Uint8Array, level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => deflate(raw, { level }, (err, out) => (err ? reject(err) : resolve(out))));
}

/** Encodes non-premultiplied RGBA pixels (as `canvas.data()` gives them for an opaque canvas) as an RGBA PNG. */
export async function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  return assemble(width, height, await deflateAsync(scanlines(rgba, width, height), deflateLevelFor(width, height)));
}

/** The same encoding with the scanline buffer kept between frames; one encode at a time. */
export class PngEncoder {
  private raw: Buffer | undefined;
  private busy = false;

  async encode(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
    if (this.busy) throw new Error('PngEncoder.encode called while an encode is in flight');
    this.busy = true;
    try {
      const raw = scanlines(rgba, width, height, this.raw);
      if (raw.buffer !== this.raw?.buffer) this.raw = raw;
      return assemble(width, height, await deflateAsync(raw, deflateLevelFor(width, height)));
    } finally {
      this.busy = false;
    }
  }
}
