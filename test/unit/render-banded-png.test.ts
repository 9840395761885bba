// The banded encoder against the one-deflate encoder: same pixels after every frame, whichever bands changed.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adler32, adler32Combine, ADLER32_EMPTY } from '../../src/worker/render/adler32.js';
import { BANDED_PNG, BandedPngEncoder, bandLevelFor } from '../../src/worker/render/banded-png.js';
import { encodeRgbaPng, PNG_WRITER } from '../../src/worker/render/png-writer.js';
import type { FrameBand } from '../../src/worker/render/frame-bands.js';
import { pngPixels } from '../support/png-scanlines.js';

describe('adler32Combine', () => {
  const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7 + ((i * i) >> 3)) & 0xff);
  it.each([
    ['empty + empty', 0, 0],
    ['empty + some', 0, 100],
    ['some + empty', 100, 0],
    ['short + short', 3, 5],
    ['long + long (sums wrap the modulus)', 70_000, 140_000],
  ])('%s', (_name, n1, n2) => {
    const a = bytes(n1, 1);
    const b = bytes(n2, 2);
    const joined = new Uint8Array(n1 + n2);
    joined.set(a);
    joined.set(b, n1);
    expect(adler32Combine(adler32(a), adler32(b), n2)).toBe(adler32(joined));
  });
  it('starts from the empty checksum', () => expect(adler32(new Uint8Array(0))).toBe(ADLER32_EMPTY));
});

/** A test card: `w` x `h` RGBA, each band of 12 rows filled from its label (same label, same pixels). */
function image(w: number, labels: string[]): { rgba: Uint8Array; bands: FrameBand[]; height: number } {
  const bandRows = 12;
  const height = labels.length * bandRows;
  const rgba = new Uint8Array(w * height * 4);
  const bands = labels.map((label, b) => {
    let h = 0;
    for (const ch of label) h = (h * 131 + ch.charCodeAt(0)) >>> 0;
    for (let y = b * bandRows; y < (b + 1) * bandRows; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const on = (x + (y % bandRows) + h) % 7 < 2;
        rgba.set(on ? [h & 0xff, (h >> 8) & 0xff, (x * 3) & 0xff, 255] : [24, 26, 32, 255], i);
      }
    }
    return { y0: b * bandRows, y1: (b + 1) * bandRows, key: `${w}/${label}`, rows: [b, b + 1] as const };
  });
  return { rgba, bands, height };
}

describe('BandedPngEncoder', () => {
  const frames: { name: string; w: number; labels: string[]; reused: number }[] = [
    { name: 'first frame: nothing to reuse', w: 300, labels: ['a', 'b', 'c', 'd', 'e', 'f'], reused: 0 },
    { name: 'one band changed', w: 300, labels: ['a', 'b', 'X', 'd', 'e', 'f'], reused: 5 },
    { name: 'scrolled up by a band', w: 300, labels: ['b', 'X', 'd', 'e', 'f', 'g'], reused: 5 },
    { name: 'repeated bands are deflated once', w: 300, labels: ['b', 'b', 'b', 'e', 'y', 'y'], reused: 5 },
    { name: 'another width: new keys', w: 212, labels: ['a', 'b', 'c'], reused: 0 },
    { name: 'back to the first width: only the last frame is kept', w: 300, labels: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], reused: 0 },
  ];

  it('gives the pixels of a one-deflate encode after every frame, and reuses unchanged bands', async () => {
    const enc = new BandedPngEncoder();
    for (const f of frames) {
      const { rgba, bands, height } = image(f.w, f.labels);
      const out = await enc.encode('s1', rgba, f.w, height, bands);
      const want = pngPixels(await encodeRgbaPng(rgba, f.w, height));
      const got = pngPixels(out.png);
      expect([got.width, got.height], f.name).toEqual([f.w, height]);
      expect(got.rgba.equals(want.rgba), f.name).toBe(true);
      expect(out.bands, f.name).toEqual({ total: f.labels.length, reused: f.reused });
    }
  });

  it('starts afresh after forget, and keeps streams apart', async () => {
    const enc = new BandedPngEncoder();
    const a = image(200, ['a', 'b', 'c']);
    await enc.encode('s1', a.rgba, 200, a.height, a.bands);
    expect((await enc.encode('s2', a.rgba, 200, a.height, a.bands)).bands.reused).toBe(0);
    expect((await enc.encode('s1', a.rgba, 200, a.height, a.bands)).bands.reused).toBe(3);
    enc.forget('s1');
    const again = await enc.encode('s1', a.rgba, 200, a.height, a.bands);
    expect(again.bands.reused).toBe(0);
    expect(pngPixels(again.png).rgba.equals(pngPixels(await encodeRgbaPng(a.rgba, 200, a.height)).rgba)).toBe(true);
  });

  it(`keeps at most ${BANDED_PNG.streamsKept} streams, dropping the least recently drawn`, async () => {
    const enc = new BandedPngEncoder();
    const a = image(64, ['a', 'b']);
    for (let s = 0; s <= BANDED_PNG.streamsKept; s++) await enc.encode(`s${s}`, a.rgba, 64, a.height, a.bands);
    expect(enc.streamCount).toBe(BANDED_PNG.streamsKept);
    expect((await enc.encode('s0', a.rgba, 64, a.height, a.bands)).bands.reused).toBe(0);
    expect((await enc.encode(`s${BANDED_PNG.streamsKept}`, a.rgba, 64, a.height, a.bands)).bands.reused).toBe(2);
  });
});

/** A card whose bands have `pad` rows of the background above and below a label's ink rows; '' is a blank band. */
function paddedImage(w: number, labels: string[], pad = 4, bandRows = 14): { rgba: Uint8Array; bands: FrameBand[]; height: number } {
  const height = labels.length * bandRows;
  const rgba = new Uint8Array(w * height * 4);
  const bands = labels.map((label, b) => {
    let h = 7;
    for (const ch of label) h = (h * 131 + ch.charCodeAt(0)) >>> 0;
    for (let r = 0; r < bandRows; r++) {
      const ink = label !== '' && r >= pad && r < bandRows - pad;
      for (let x = 0; x < w; x++) {
        const on = ink && (x * 5 + r * 3 + h) % 11 < 3;
        rgba.set(on ? [h & 0xff, (h >> 8) & 0xff, 200, 255] : [24, 26, 32, 255], ((b * bandRows + r) * w + x) * 4);
      }
    }
    return { y0: b * bandRows, y1: (b + 1) * bandRows, key: `${w}/pad/${label}`, rows: [b, b + 1] as const };
  });
  return { rgba, bands, height };
}

/** The filter byte of each scanline of a PNG's image data. */
function filterBytes(png: Uint8Array, width: number, height: number): number[] {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length; at += 12 + buf.readUInt32BE(at)) {
    if (buf.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + buf.readUInt32BE(at)));
  }
  const raw = inflateSync(Buffer.concat(idat));
  return Array.from({ length: height }, (_, y) => raw[y * (width * 4 + 1)]!);
}

describe('BandedPngEncoder: padding written apart from zlib', () => {
  it('gives the pixels of a one-deflate encode, with the repeated padding rows as filter Up', async () => {
    const enc = new BandedPngEncoder();
    for (const [w, labels] of [[300, ['a', '', 'b', 'c']], [300, ['a', 'x', 'b', '']], [212, ['', '', 'q']]] as const) {
      const { rgba, bands, height } = paddedImage(w, [...labels]);
      const out = await enc.encode('pad', rgba, w, height, bands);
      expect(pngPixels(out.png).rgba.equals(pngPixels(await encodeRgbaPng(rgba, w, height)).rgba), labels.join()).toBe(true);
      // Per band: row 0 and the first bottom padding row are new, the other padding rows repeat (Up); a blank band
      // is one new row and 13 repeats.
      const want = labels.flatMap((l) => Array.from({ length: 14 }, (_, r) => (l === '' ? (r === 0 ? 0 : 2) : r === 0 || (r >= 4 && r <= 10) ? 0 : 2)));
      expect(filterBytes(out.png, w, height), labels.join()).toEqual(want);
    }
  });

  it('keeps the same pixels when the padding touches the card edges and bands change under it', async () => {
    const enc = new BandedPngEncoder();
    for (const labels of [['', 'a'], ['b', ''], ['b', 'c'], ['']]) {
      const { rgba, bands, height } = paddedImage(120, labels, 1, 5);
      const out = await enc.encode('edge', rgba, 120, height, bands);
      expect(pngPixels(out.png).rgba.equals(pngPixels(await encodeRgbaPng(rgba, 120, height)).rgba), labels.join()).toBe(true);
    }
  });
});

describe('bandLevelFor', () => {
  it.each([
    ['a phone card', 788, 1400, BANDED_PNG.level],
    ['the largest phone card', 1000, 1500, BANDED_PNG.level],
    ['a bigger frame takes the big-frame level', 1800, 1000, PNG_WRITER.bigFrameLevel],
  ])('%s', (_name, w, h, level) => expect(bandLevelFor(w, h)).toBe(level));
});
