// Reads back what the PNG writers wrote without a canvas: the IHDR size and the inflated, unfiltered RGBA rows
// (inflateSync checks the zlib stream's Adler-32; filters None and Up undone), so tests compare encodings byte for byte.
import { inflateSync } from 'node:zlib';

export function pngPixels(png: Uint8Array): { width: number; height: number; rgba: Buffer } {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6) throw new Error(`not 8-bit RGBA: depth ${data[8]}, colour type ${data[9]}`);
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const row = width * 4 + 1;
  if (raw.length !== row * height) throw new Error(`scanlines are ${raw.length} bytes, want ${row * height}`);
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * row];
    if (filter === 0) raw.copy(rgba, y * width * 4, y * row + 1, (y + 1) * row);
    else if (filter === 2 && y > 0) {
      // Up: each byte plus the one above (the writers use it only for rows equal to the row above: all zero).
      for (let x = 0; x < width * 4; x++) rgba[y * width * 4 + x] = (raw[y * row + 1 + x]! + rgba[(y - 1) * width * 4 + x]!) & 0xff;
    } else throw new Error(`row ${y} has filter ${filter}, the writers use None, and Up below the first row`);
  }
  return { width, height, rgba };
}
