import { describe, expect, it } from 'vitest';
import { splitByBytes, tailWhole, utf8Bytes } from '../../src/shared/utf8-parts.js';

describe('splitByBytes', () => {
  const cases: { name: string; text: string; max: number }[] = [
    { name: 'ASCII with no line breaks', text: 'a'.repeat(1000), max: 64 },
    { name: 'CJK (3 bytes each) never cut inside a character', text: '汉字测试'.repeat(300), max: 100 },
    { name: 'emoji (surrogate pairs, 4 bytes) never split', text: '😀🎉a'.repeat(200), max: 10 },
    { name: 'mixed lines prefer line breaks', text: Array.from({ length: 200 }, (_, i) => `第${i}行 line ${i} 😀`).join('\n'), max: 300 },
    { name: 'text shorter than the limit stays whole', text: 'short 短', max: 1000 },
    { name: 'empty text is one empty part', text: '', max: 10 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const parts = splitByBytes(c.text, c.max);
      expect(parts.join('')).toBe(c.text);
      for (const p of parts) {
        expect(utf8Bytes(p)).toBeLessThanOrEqual(c.max);
        // No part starts with a low surrogate or ends with a high one.
        if (p.length) {
          expect(/^[\uDC00-\uDFFF]/.test(p)).toBe(false);
          expect(/[\uD800-\uDBFF]$/.test(p)).toBe(false);
          expect(Buffer.from(p, 'utf8').toString('utf8')).toBe(p);
        }
      }
    });
  }

  it('cuts after a newline when one lies in the later half of a part', () => {
    const text = `${'x'.repeat(80)}\n${'y'.repeat(80)}`;
    expect(splitByBytes(text, 100)).toEqual([`${'x'.repeat(80)}\n`, 'y'.repeat(80)]);
  });

  it('cuts mid-line when the only break is early (parts stay full)', () => {
    const text = `ab\n${'y'.repeat(300)}`;
    const parts = splitByBytes(text, 100);
    expect(parts[0]).toHaveLength(100);
  });

  it('40 000 CJK characters (120 KB) into 30 KB parts: complete, in order, each within the limit', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 20_000))).join('');
    const parts = splitByBytes(text, 30 * 1024);
    expect(parts.length).toBe(4);
    expect(parts.join('')).toBe(text);
  });

  it('counts escaping when given a cost (an entity-escaped char costs 5)', () => {
    const parts = splitByBytes('<'.repeat(100), 50, (cp) => (cp === 0x3c ? 5 : 1));
    expect(parts.map((p) => p.length)).toEqual(Array(10).fill(10));
  });
});

describe('tailWhole', () => {
  const cases: [string, number, string][] = [
    ['abc', 5, 'abc'],
    ['abcdef', 3, 'def'],
    ['a😀b', 2, 'b'],
    ['a😀b', 3, '😀b'],
    ['汉字😀', 1, ''],
  ];
  for (const [text, max, want] of cases) it(`${JSON.stringify(text)} last ${max} → ${JSON.stringify(want)}`, () => expect(tailWhole(text, max)).toBe(want));
});
