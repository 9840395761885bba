import { describe, expect, it } from 'vitest';
import { Utf8Stream } from '../../src/worker/backend/utf8-stream.js';

const samples = [
  { name: '2-byte ü', ch: 'ü' },
  { name: '3-byte 你', ch: '你' },
  { name: '4-byte 🚀', ch: '🚀' },
];

describe('Utf8Stream', () => {
  for (const { name, ch } of samples) {
    it(`decodes a ${name} split at every byte offset, once and intact`, () => {
      const text = `a${ch}b${ch}`;
      const bytes = Buffer.from(text, 'utf8');
      for (let cut = 0; cut <= bytes.length; cut++) {
        const s = new Utf8Stream();
        const out = s.write(bytes.subarray(0, cut)) + s.write(bytes.subarray(cut)) + s.end();
        expect(out, `cut at ${cut}`).toBe(text);
        expect(out).not.toContain('\uFFFD');
      }
    });
  }

  it('decodes a stream fed one byte at a time', () => {
    const text = '你好，世界 🚀✅ ünïcödé 終端\r\n'.repeat(50);
    const s = new Utf8Stream();
    let out = '';
    for (const b of Buffer.from(text, 'utf8')) out += s.write(Buffer.of(b));
    expect(out + s.end()).toBe(text);
  });

  it('splits a 4-byte character across three chunks', () => {
    const b = Buffer.from('🚀', 'utf8');
    const s = new Utf8Stream();
    expect(s.write(b.subarray(0, 1))).toBe('');
    expect(s.write(b.subarray(1, 3))).toBe('');
    expect(s.write(b.subarray(3))).toBe('🚀');
  });

  it('flushes an incomplete character at the end as one replacement and then starts clean', () => {
    const s = new Utf8Stream();
    expect(s.write(Buffer.from([0xe4, 0xbd]))).toBe('');
    expect(s.end()).toBe('\uFFFD');
    expect(s.write(Buffer.from('ok', 'utf8'))).toBe('ok');
  });
});
