// The card frame: which cells a phone card image keeps (trailing blank rows/columns cropped), its margin and pixel scale.
import { afterAll, describe, expect, it } from 'vitest';
import {
  CARD_IMAGE, cardFrame, framePixels, fullFrame, phoneScale, textCssPx, usedExtent,
} from '../../src/worker/render/card-frame.js';
import { ScreenModel } from '../../src/worker/render/screen-model.js';

const model = new ScreenModel();
afterAll(() => model.dispose());

const HIDDEN = { x: 0, y: 0, visible: false };
const at = (row: number, col: number, text: string) => `\x1b[${row + 1};${col + 1}H${text}`;

/** A 120x40 screen from rows of capture text (the real parser, so widths and colours are xterm's). */
async function grid(rows: string[], cursor = HIDDEN, cols = 120) {
  return model.load({ ansi: rows.join('\n'), cursor, cols, rows: 40 });
}

describe('usedExtent', () => {
  it.each<[string, string[], { x: number; y: number; visible: boolean }, { cols: number; rows: number }]>([
    ['an empty screen keeps one cell', [], HIDDEN, { cols: 1, rows: 1 }],
    ['one word on the first row', ['hello'], HIDDEN, { cols: 5, rows: 1 }],
    ['trailing spaces are not content', ['hello     ', '   '], HIDDEN, { cols: 5, rows: 1 }],
    ['the widest row decides the columns', ['ab', '', '', 'abcdefghij', 'x'], HIDDEN, { cols: 10, rows: 5 }],
    ['a visible cursor below the text keeps its row and cell', ['$ ls'], { x: 30, y: 7, visible: true }, { cols: 31, rows: 8 }],
    ['a hidden cursor keeps nothing', ['$ ls'], { x: 30, y: 7, visible: false }, { cols: 4, rows: 1 }],
    ['a coloured blank cell is content', ['a', '', '', '', '', `${' '.repeat(50)}\x1b[41m \x1b[0m`], HIDDEN, { cols: 51, rows: 6 }],
    ['an underlined space is content', [`ab\x1b[4m   \x1b[0m`], HIDDEN, { cols: 5, rows: 1 }],
    ['a wide last character keeps both halves', ['abc你好'], HIDDEN, { cols: 7, rows: 1 }],
    ['an emoji last keeps both halves', ['ok 🚀'], HIDDEN, { cols: 5, rows: 1 }],
    ['text reaching the last column keeps every column', ['x'.repeat(120)], HIDDEN, { cols: 120, rows: 1 }],
    ['content on the last row keeps every row', [...Array(39).fill(''), 'bottom'], HIDDEN, { cols: 6, rows: 40 }],
    ['blank rows between content stay', ['top', ...Array(20).fill(''), 'after the gap'], HIDDEN, { cols: 13, rows: 22 }],
  ])('%s', async (_name, rows, cursor, expected) => {
    expect(usedExtent(await grid(rows, cursor), cursor)).toEqual(expected);
  });

  it('never crops a cell that shows something, wherever it is', async () => {
    for (const [row, col] of [[0, 0], [0, 119], [39, 0], [39, 119], [17, 63], [5, 1], [38, 118]] as const) {
      const g = await model.load({ ansi: at(row, col, '#'), cursor: HIDDEN, cols: 120, rows: 40 });
      expect(usedExtent(g, HIDDEN)).toEqual({ cols: col + 1, rows: row + 1 });
    }
  });
});

describe('phoneScale', () => {
  it.each([
    // [image width at scale 1, height, expected scale]
    [1024, 736, 1], // a full 120x40 screen: already about the phone's device width
    [570, 502, 2], // 66 columns: doubled to ~1140 px
    [400, 300, 3], // 45 columns: tripled (1200 px) so a 3x phone shows it sharp
    [200, 100, 3], // never more than 3x
    [400, 736, 2], // 3x would be 2.6 Mpx: over the pixel budget, so 2x
  ])('%i x %i -> %i', (w, h, scale) => expect(phoneScale(w, h)).toBe(scale));
});

describe('cardFrame', () => {
  const cell = { cellWidth: 8.4, cellHeight: 18 };

  it('adds the margin on every side and scales the whole image; a short screen keeps minCols columns', async () => {
    const g = await grid(['hello', 'world'], HIDDEN);
    const f = cardFrame(g, HIDDEN, cell);
    expect(f).toEqual({ cols: CARD_IMAGE.minCols, rows: 2, marginPx: CARD_IMAGE.marginPx, scale: 3 });
    expect(framePixels(f, cell)).toEqual({ width: (336 + 2 * CARD_IMAGE.marginPx) * 3, height: (36 + 2 * CARD_IMAGE.marginPx) * 3 });
  });

  it.each([
    ['wider than minCols: cropped to the used columns', ['x'.repeat(70)], 120, 70],
    ['a pane narrower than minCols: all of it', ['ab'], 30, 30],
  ] as const)('%s', async (_name, rows, paneCols, cols) => {
    const g = await grid([...rows], HIDDEN, paneCols);
    expect(cardFrame(g, HIDDEN, cell).cols).toBe(cols);
  });

  it('the full frame is the whole grid, unscaled and without a margin (goldens)', async () => {
    const g = await grid(['x'], HIDDEN);
    expect(framePixels(fullFrame(g), cell)).toEqual({ width: 1008, height: 720 });
  });

  it.each([
    // [columns used, glyph CSS px on a 340 px card]: the card's width, not the image's pixels, sets the text size
    [120, 4.6],
    [80, 6.9],
    [48, 11.4],
    [40, 13.5],
  ])('%i columns show 14 px text at %f CSS px', (cols, css) => {
    const width = Math.round(cols * 8.4) + 2 * CARD_IMAGE.marginPx;
    const scale = phoneScale(width, 400);
    expect(textCssPx(14, width * scale, scale)).toBeCloseTo(css, 1);
  });
});
