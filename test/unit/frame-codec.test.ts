// The host agent's frame codec: whatever the chunking, frames come out whole and in order; an oversized or garbled
// frame is dropped with its reason and the stream stays in step; nothing above the limit is ever held.
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES, type FrameEvent } from '../../src/shared/frame-codec.js';

const cat = (...parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const header = (n: number) => {
  const h = Buffer.alloc(4);
  h.writeUInt32BE(n);
  return h;
};
const a = encodeFrame({ kind: 'msg', n: 1, text: 'héllo 你好' });
const b = encodeFrame({ kind: 'msg', n: 2 });
const garbage = cat(header(5), Buffer.from('{nope'));
const badUtf8 = cat(header(3), Buffer.from([0x22, 0xff, 0x22]));
const oversized = cat(header(64), Buffer.alloc(64, 0x41));

/** Feeds `bytes` in pieces of `size` (0 = one chunk) to a decoder with a small limit. */
function decode(bytes: Buffer, size: number, limit = 32): FrameEvent[] {
  const d = new FrameDecoder(limit);
  if (size === 0) return d.push(bytes);
  const out: FrameEvent[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...d.push(bytes.subarray(i, i + size)));
  return out;
}

const A = { kind: 'frame', value: { kind: 'msg', n: 1, text: 'héllo 你好' } };
const B = { kind: 'frame', value: { kind: 'msg', n: 2 } };

describe('FrameDecoder', () => {
  const limit = 64;
  const cases: { name: string; bytes: Buffer; want: unknown[] }[] = [
    { name: 'one frame', bytes: cat(a), want: [A] },
    { name: 'several frames in one chunk', bytes: cat(a, b, a), want: [A, B, A] },
    { name: 'garbage JSON between frames', bytes: cat(a, garbage, b), want: [A, { kind: 'dropped', reason: 'invalid-json', bytes: 5 }, B] },
    { name: 'bytes that are not UTF-8', bytes: cat(badUtf8, b), want: [{ kind: 'dropped', reason: 'invalid-json', bytes: 3 }, B] },
    { name: 'an oversized frame is skipped, not held', bytes: cat(a, cat(header(200), Buffer.alloc(200, 0x7b)), b), want: [A, { kind: 'dropped', reason: 'oversized', bytes: 200 }, B] },
    { name: 'an empty frame is invalid JSON', bytes: cat(header(0), b), want: [{ kind: 'dropped', reason: 'invalid-json', bytes: 0 }, B] },
  ];
  for (const c of cases) {
    for (const size of [0, 1, 3, 7]) {
      it(`${c.name} (chunks of ${size || 'all'})`, () => {
        expect(decode(c.bytes, size, limit)).toEqual(c.want);
      });
    }
  }

  it('holds at most one frame below the limit while a frame is incomplete; an oversized one costs nothing', () => {
    const d = new FrameDecoder(32);
    expect(d.push(oversized.subarray(0, 10))).toEqual([{ kind: 'dropped', reason: 'oversized', bytes: 64 }]);
    expect(d.pendingBytes()).toBe(0);
    expect(d.push(oversized.subarray(10))).toEqual([]);
    expect(d.push(b.subarray(0, 6))).toEqual([]);
    expect(d.pendingBytes()).toBe(b.length - 4);
    expect(d.push(b.subarray(6))).toEqual([B]);
    expect(d.pendingBytes()).toBe(0);
  });

  it('refuses to encode a frame above the limit', () => {
    expect(() => encodeFrame({ text: 'x'.repeat(MAX_FRAME_BYTES) })).toThrow(/above the \d+-byte limit/);
  });
});
