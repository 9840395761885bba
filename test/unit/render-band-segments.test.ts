// Which rows of a band go through zlib and which are written apart (a solid row, a run repeating it as filter Up).
import { describe, expect, it } from 'vitest';
import { bandSegments, isSolidRow, type BandSegment } from '../../src/worker/render/band-segments.js';

const WIDTH = 6;
const ROW_BYTES = WIDTH * 4;

/** A band from one letter per row: '.' the background, 'r' another solid colour, 'a'/'b' rows of ink (not solid). */
function band(pattern: string): Uint8Array {
  const out = new Uint8Array(pattern.length * ROW_BYTES);
  [...pattern].forEach((ch, y) => {
    for (let x = 0; x < WIDTH; x++) {
      const px = ch === '.' ? [24, 26, 32, 255] : ch === 'r' ? [200, 30, 30, 255] : x === (ch === 'a' ? 1 : 3) ? [230, 230, 230, 255] : [24, 26, 32, 255];
      out.set(px, (y * WIDTH + x) * 4);
    }
  });
  return out;
}

/** Segments as text: S<row> a solid row, Z<n> n repeats, R<from>-<to> rows through zlib. */
const show = (segs: BandSegment[]) => segs.map((s) => (s.kind === 'solid' ? `S${s.row}` : s.kind === 'repeat' ? `Z${s.count}` : `R${s.from}-${s.to}`)).join(' ');

describe('bandSegments', () => {
  it.each([
    ['a blank band: one solid row and its repeats', '......', 'S0 Z5'],
    ['padding above and below text', '...aab...', 'S0 Z2 R3-6 S6 Z2'],
    ['text from the first row: no head', 'aab..', 'R0-3 S3 Z1'],
    ['text to the last row: no tail', '..ab', 'S0 Z1 R2-4'],
    ['repeats inside the text stay with zlib', '.aaa.bb.', 'S0 R1-7 S7'],
    ['a solid row between texts stays with zlib', '.a.b.', 'S0 R1-4 S4'],
    ['a tail of another colour', '..abrr', 'S0 Z1 R2-4 S4 Z1'],
    ['one row', '.', 'S0'],
    ['one row of ink', 'a', 'R0-1'],
    ['ink then a different solid row', 'ar', 'R0-1 S1'],
    ['no padding, no solid rows', 'abab', 'R0-4'],
  ])('%s (%s)', (_name, pattern, want) => {
    expect(show(bandSegments(band(pattern), ROW_BYTES, pattern.length))).toBe(want);
  });

  it('covers every row once, in order', () => {
    for (const pattern of ['...aab...', '.a.b.', 'aab..', '......', 'abab']) {
      let y = 0;
      for (const s of bandSegments(band(pattern), ROW_BYTES, pattern.length)) {
        if (s.kind === 'rows') { expect(s.from).toBe(y); y = s.to; }
        else if (s.kind === 'solid') { expect(s.row).toBe(y); y += 1; }
        else y += s.count;
      }
      expect(y, pattern).toBe(pattern.length);
    }
  });

  it('gives nothing for no rows', () => expect(bandSegments(new Uint8Array(0), ROW_BYTES, 0)).toEqual([]));
});

describe('isSolidRow', () => {
  it.each([
    ['one colour', band('.'), true],
    ['ink in it', band('a'), false],
    ['one pixel', Uint8Array.of(1, 2, 3, 4), true],
    ['alpha differs at the end', Uint8Array.of(1, 2, 3, 255, 1, 2, 3, 254), false],
    ['empty', new Uint8Array(0), false],
  ])('%s', (_name, row, want) => expect(isSolidRow(row)).toBe(want));
});
