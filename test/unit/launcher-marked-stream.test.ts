// The launcher's reader of one call's output (src/platform/tmux-runner.ts): the client's bytes end where the call's
// mark starts, wherever the pipe happened to cut the stream into chunks.
import { describe, expect, it } from 'vitest';
import { MarkedStream } from '../../src/platform/tmux-runner.js';

const MARK = 'larkmux-launch-00112233445566778899aabb';

/** Feeds `bytes` cut at `cuts` (offsets, ascending). */
function feed(bytes: Buffer, cuts: readonly number[]): MarkedStream {
  const s = new MarkedStream(Buffer.from(MARK));
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    s.push(bytes.subarray(from, at));
    from = at;
  }
  return s;
}

describe('MarkedStream', () => {
  const outputs: [string, string][] = [
    ['empty output', ''],
    ['a line', 'first\n'],
    ['CJK and NUL bytes', '中文\0 🙂 output\n'],
    ['a lookalike mark', 'larkmux-launch-0011 0\nlarkmux-launch-00112233445566778899aab\n'],
  ];

  it.each(outputs)('%s comes back whole with the status, for every cut into two and three chunks', (_name, output) => {
    const bytes = Buffer.from(`${output}${MARK} 7\n`);
    for (let a = 0; a <= bytes.length; a++) {
      const two = feed(bytes, [a]);
      expect([a, two.text(), two.trailer]).toEqual([a, output, '7']);
      for (let b = a; b <= Math.min(bytes.length, a + MARK.length + 2); b++) {
        const three = feed(bytes, [a, b]);
        expect([a, b, three.text(), three.trailer]).toEqual([a, b, output, '7']);
      }
    }
  });

  it('a mark fed one byte at a time is found, and nothing is known before its line ends', () => {
    const bytes = Buffer.from(`out${MARK} 0\n`);
    const s = new MarkedStream(Buffer.from(MARK));
    for (let i = 0; i < bytes.length - 1; i++) {
      s.push(bytes.subarray(i, i + 1));
      expect(s.trailer).toBeNull();
    }
    s.push(bytes.subarray(bytes.length - 1));
    expect([s.text(), s.trailer]).toEqual(['out', '0']);
  });

  it('output without the mark is held until it passes the limit a client may write (64 MB)', () => {
    const s = new MarkedStream(Buffer.from(MARK));
    const chunk = Buffer.alloc(16 * 2 ** 20, 0x61);
    for (let i = 0; i < 4; i++) s.push(chunk);
    expect([s.trailer, s.overflowed]).toEqual([null, false]);
    s.push(Buffer.from('a'));
    expect([s.trailer, s.overflowed]).toEqual([null, true]);
  });
});
