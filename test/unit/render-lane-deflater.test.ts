// A lane's zlib stream reused band after band writes what a fresh stream per band writes.
import { constants, createDeflate } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adler32 } from '../../src/worker/render/adler32.js';
import { FINAL_EMPTY_BLOCK, LaneDeflater } from '../../src/worker/render/lane-deflater.js';

/** What a fresh zlib stream gives for `raw`: written with a sync flush, then ended. */
function freshStream(raw: Uint8Array, level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ level, flush: constants.Z_SYNC_FLUSH });
    const chunks: Buffer[] = [];
    z.on('data', (c: Buffer) => chunks.push(c));
    z.on('error', reject);
    z.on('end', () => resolve(Buffer.concat(chunks)));
    z.end(raw);
  });
}

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => ((i % 97 < 60 ? 24 : i * 31 + seed * 7) + (i >> 9)) & 0xff);

describe('LaneDeflater', () => {
  it.each([1, 4])('at level %i, band after band: the bytes and Adler-32 of a fresh stream each time', async (level) => {
    const lane = new LaneDeflater(level);
    for (const [n, seed] of [[5_000, 1], [140_000, 2], [1, 3], [70_000, 4], [5_000, 1]] as const) {
      const raw = bytes(n, seed);
      const got = await lane.deflate(raw);
      const fresh = await freshStream(raw, level);
      // The fresh stream is header, blocks, the empty final block, Adler-32: the lane gives the blocks and the checksum.
      expect(Buffer.concat([fresh.subarray(0, 2), got.data, FINAL_EMPTY_BLOCK]).equals(fresh.subarray(0, -4)), `${n}`).toBe(true);
      expect(got.adler).toBe(fresh.readUInt32BE(fresh.length - 4));
      expect(got.adler).toBe(adler32(raw));
      expect(got.rawLength).toBe(n);
    }
    lane.dispose();
  });

  it('takes one band at a time, and opens a stream again after dispose', async () => {
    const lane = new LaneDeflater(4);
    const first = lane.deflate(bytes(50_000, 5));
    await expect(lane.deflate(bytes(10, 6))).rejects.toThrow(/in flight/);
    await first;
    lane.dispose();
    expect((await lane.deflate(bytes(10, 6))).adler).toBe(adler32(bytes(10, 6)));
    lane.dispose();
  });
});
