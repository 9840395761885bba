// Characters drawn as pixel-snapped shapes instead of font glyphs: box drawing, block elements, braille, media symbols (⏵ ⏸ ⏺).
import type { SKRSContext2D } from '@napi-rs/canvas';
import { cssColour, mixColour } from './palette.js';

/** A cell's pixel box: integer edges (x snapped from multiples of the fractional cell width). */
export interface CellBox {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Box drawing U+2500–257F: line weight towards up, right, down, left (0 none, 1 light, 2 heavy, 3 double).
 * Generated from the Unicode character names; dashed lines and diagonals are left to the font, arcs are drawn separately.
 */
const BOX_SEGMENTS: Record<number, string> = Object.fromEntries(
  (
    '0:0101 1:0202 2:1010 3:2020 c:0110 d:0210 e:0120 f:0220 10:0011 11:0012 12:0021 13:0022 14:1100 15:1200 16:2100 17:2200 ' +
    '18:1001 19:1002 1a:2001 1b:2002 1c:1110 1d:1210 1e:2110 1f:1120 20:2120 21:2210 22:1220 23:2220 24:1011 25:1012 26:2011 ' +
    '27:1021 28:2021 29:2012 2a:1022 2b:2022 2c:0111 2d:0112 2e:0211 2f:0212 30:0121 31:0122 32:0221 33:0222 34:1101 35:1102 ' +
    '36:1201 37:1202 38:2101 39:2102 3a:2201 3b:2202 3c:1111 3d:1112 3e:1211 3f:1212 40:2111 41:1121 42:2121 43:2112 44:2211 ' +
    '45:1122 46:1221 47:2212 48:1222 49:2122 4a:2221 4b:2222 50:0303 51:3030 52:0310 53:0130 54:0330 55:0013 56:0031 57:0033 ' +
    '58:1300 59:3100 5a:3300 5b:1003 5c:3001 5d:3003 5e:1310 5f:3130 60:3330 61:1013 62:3031 63:3033 64:0313 65:0131 66:0333 ' +
    '67:1303 68:3101 69:3303 6a:1313 6b:3131 6c:3333 74:0001 75:1000 76:0100 77:0010 78:0002 79:2000 7a:0200 7b:0020 7c:0201 ' +
    '7d:1020 7e:0102 7f:2010'
  )
    .split(' ')
    .map((e) => {
      const [k, v] = e.split(':');
      return [0x2500 + parseInt(k!, 16), v!];
    }),
);

/** Rounded corners ╭ ╮ ╯ ╰: which two directions each joins. */
const ARCS: Record<number, [horizontal: 'l' | 'r', vertical: 'u' | 'd']> = {
  0x256d: ['r', 'd'],
  0x256e: ['l', 'd'],
  0x256f: ['l', 'u'],
  0x2570: ['r', 'u'],
};

/** Block elements U+2580–259F as rectangles in eighths of the cell: [x0, y0, x1, y1] each 0–8; shades are separate. */
const BLOCKS: Record<number, [number, number, number, number][]> = {
  0x2580: [[0, 0, 8, 4]],
  0x2581: [[0, 7, 8, 8]], 0x2582: [[0, 6, 8, 8]], 0x2583: [[0, 5, 8, 8]], 0x2584: [[0, 4, 8, 8]],
  0x2585: [[0, 3, 8, 8]], 0x2586: [[0, 2, 8, 8]], 0x2587: [[0, 1, 8, 8]], 0x2588: [[0, 0, 8, 8]],
  0x2589: [[0, 0, 7, 8]], 0x258a: [[0, 0, 6, 8]], 0x258b: [[0, 0, 5, 8]], 0x258c: [[0, 0, 4, 8]],
  0x258d: [[0, 0, 3, 8]], 0x258e: [[0, 0, 2, 8]], 0x258f: [[0, 0, 1, 8]], 0x2590: [[4, 0, 8, 8]],
  0x2594: [[0, 0, 8, 1]], 0x2595: [[7, 0, 8, 8]],
  0x2596: [[0, 4, 4, 8]], 0x2597: [[4, 4, 8, 8]], 0x2598: [[0, 0, 4, 4]], 0x259d: [[4, 0, 8, 4]],
  0x2599: [[0, 0, 4, 8], [4, 4, 8, 8]],
  0x259a: [[0, 0, 4, 4], [4, 4, 8, 8]],
  0x259b: [[0, 0, 8, 4], [0, 4, 4, 8]],
  0x259c: [[0, 0, 8, 4], [4, 4, 8, 8]],
  0x259e: [[4, 0, 8, 4], [0, 4, 4, 8]],
  0x259f: [[4, 0, 8, 4], [0, 4, 8, 8]],
};
/** Light, medium and dark shade: the share of the foreground mixed into the background. */
const SHADES: Record<number, number> = { 0x2591: 0.25, 0x2592: 0.5, 0x2593: 0.75 };

/**
 * The vertical extent of media symbols as shares of the row: the Latin font's capitals (14 px JetBrains Mono in an
 * 18 px row, baseline 14) start about 4 px below the row's top and end on the baseline.
 */
export const MEDIA_GLYPH = { capTop: 4 / 18, baseline: 14 / 18 } as const;

/** Text-presentation media symbols that no monospace font here has; without this they fall to colour emoji. */
const MEDIA = new Set([0x23f4, 0x23f5, 0x23f6, 0x23f7, 0x23f8, 0x23f9, 0x23fa]);

export function isGeometric(cp: number): boolean {
  return (
    BOX_SEGMENTS[cp] !== undefined || ARCS[cp] !== undefined || BLOCKS[cp] !== undefined || SHADES[cp] !== undefined ||
    MEDIA.has(cp) || (cp >= 0x2800 && cp <= 0x28ff)
  );
}

/** Draws a geometric character in `fg` (on `bg`, for shades). Every rectangle has integer edges, so neighbours join without seams. */
export function drawGeometric(ctx: SKRSContext2D, cp: number, box: CellBox, fg: number, bg: number): void {
  const { x0, x1, y0, y1 } = box;
  const w = x1 - x0;
  const h = y1 - y0;
  const shade = SHADES[cp];
  ctx.fillStyle = cssColour(shade === undefined ? fg : mixColour(fg, bg, shade));
  if (shade !== undefined) {
    ctx.fillRect(x0, y0, w, h);
    return;
  }
  const blocks = BLOCKS[cp];
  if (blocks) {
    for (const [a, b, c, d] of blocks) {
      const bx0 = x0 + Math.round((w * a) / 8);
      const by0 = y0 + Math.round((h * b) / 8);
      ctx.fillRect(bx0, by0, x0 + Math.round((w * c) / 8) - bx0, y0 + Math.round((h * d) / 8) - by0);
    }
    return;
  }
  const seg = BOX_SEGMENTS[cp];
  if (seg) return drawBox(ctx, seg, box);
  const arc = ARCS[cp];
  if (arc) return drawArc(ctx, arc, box, fg);
  if (cp >= 0x2800 && cp <= 0x28ff) return drawBraille(ctx, cp - 0x2800, box);
  drawMedia(ctx, cp, box);
}

function drawBox(ctx: SKRSContext2D, seg: string, { x0, x1, y0, y1 }: CellBox): void {
  const [u, r, d, l] = [Number(seg[0]), Number(seg[1]), Number(seg[2]), Number(seg[3])];
  // Strokes across an axis of length `len` starting at `start`: [offset, width] pairs, centred like the font's lines.
  // Light = 1 px, heavy = 2 px, double = two 1 px strokes with a 1 px gap.
  const strokes = (wt: number, start: number, len: number): [number, number][] => {
    const mid = (lw: number) => start + Math.floor((len - lw) / 2);
    if (wt === 2) return [[mid(2), 2]];
    if (wt === 3) return [[mid(1) - 1, 1], [mid(1) + 1, 1]];
    return [[mid(1), 1]];
  };
  const span = (list: [number, number][]) => [Math.min(...list.map((s) => s[0])), Math.max(...list.map((s) => s[0] + s[1]))] as const;
  // The centre square: where the vertical strokes (x range) and the horizontal strokes (y range) lie.
  const [vxa, vxb] = span([...strokes(Math.max(u, d, 1), x0, x1 - x0)]);
  const [hya, hyb] = span([...strokes(Math.max(l, r, 1), y0, y1 - y0)]);
  for (const [y, lw] of l ? strokes(l, y0, y1 - y0) : []) ctx.fillRect(x0, y, vxb - x0, lw);
  for (const [y, lw] of r ? strokes(r, y0, y1 - y0) : []) ctx.fillRect(vxa, y, x1 - vxa, lw);
  for (const [x, lw] of u ? strokes(u, x0, x1 - x0) : []) ctx.fillRect(x, y0, lw, hyb - y0);
  for (const [x, lw] of d ? strokes(d, x0, x1 - x0) : []) ctx.fillRect(x, hya, lw, y1 - hya);
}

function drawArc(ctx: SKRSContext2D, [hz, vt]: [string, string], { x0, x1, y0, y1 }: CellBox, fg: number): void {
  // Stroke centred on the same pixel column/row as the straight light lines, so ╭─ and │ meet them exactly.
  const cx = x0 + Math.floor((x1 - x0 - 1) / 2) + 0.5;
  const cy = y0 + Math.floor((y1 - y0 - 1) / 2) + 0.5;
  const r = Math.min(x1 - x0, y1 - y0) / 2;
  const hx = hz === 'l' ? x0 : x1;
  const vy = vt === 'u' ? y0 : y1;
  ctx.strokeStyle = cssColour(fg);
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(hx, cy);
  ctx.arcTo(cx, cy, cx, vy, r);
  ctx.lineTo(cx, vy);
  ctx.stroke();
}

function drawBraille(ctx: SKRSContext2D, bits: number, { x0, x1, y0, y1 }: CellBox): void {
  // Dot order: 1 2 3 (left column, top down), 4 5 6 (right column), 7 (left bottom), 8 (right bottom).
  const dots: [number, number][] = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [0, 3], [1, 3]];
  const w = x1 - x0;
  const h = y1 - y0;
  const size = Math.max(1, Math.round(w / 4));
  dots.forEach(([col, row], i) => {
    if (!(bits & (1 << i))) return;
    const x = x0 + Math.round((w * (1 + 2 * col)) / 4 - size / 2);
    const y = y0 + Math.round((h * (1 + 2 * row)) / 8 - size / 2);
    ctx.fillRect(x, y, size, size);
  });
}

function drawMedia(ctx: SKRSContext2D, cp: number, { x0, x1, y0, y1 }: CellBox): void {
  const w = x1 - x0;
  const h = y1 - y0;
  // The glyph spans the text's cap height (a capital or digit beside it), not the smaller of the cell's sides.
  const top = y0 + Math.round(h * MEDIA_GLYPH.capTop);
  const bottom = y0 + Math.round(h * MEDIA_GLYPH.baseline);
  const s = bottom - top;
  const cy = (top + bottom) / 2;
  const cx = (x0 + x1) / 2;
  // Width: the cell less a pixel each side (a triangle as tall as a capital is still about as wide as one).
  const gw = Math.min(w - 2, s);
  const left = Math.round(cx - gw / 2);
  ctx.beginPath();
  switch (cp) {
    case 0x23f8: { // ⏸ two bars
      const bar = Math.max(1, Math.round(gw / 3));
      ctx.fillRect(left, top, bar, s);
      ctx.fillRect(left + gw - bar, top, bar, s);
      return;
    }
    case 0x23f9: { // ⏹ square: as wide as the cell allows, centred on the cap zone
      const sq = Math.round(cy - gw / 2);
      ctx.fillRect(left, sq, gw, gw);
      return;
    }
    case 0x23fa: // ⏺ filled circle: the full cell width (like the font's ●), an outline pixel less would look like a dot
      ctx.arc(cx, cy, Math.min(w - 1, s) / 2, 0, Math.PI * 2);
      break;
    case 0x23f5: // ⏵ pointing right
      ctx.moveTo(left, top); ctx.lineTo(left + gw, cy); ctx.lineTo(left, bottom);
      break;
    case 0x23f4: // ⏴ pointing left
      ctx.moveTo(left + gw, top); ctx.lineTo(left, cy); ctx.lineTo(left + gw, bottom);
      break;
    case 0x23f6: // ⏶ pointing up
      ctx.moveTo(left, bottom); ctx.lineTo(cx, top); ctx.lineTo(left + gw, bottom);
      break;
    default: // ⏷ pointing down
      ctx.moveTo(left, top); ctx.lineTo(cx, bottom); ctx.lineTo(left + gw, top);
  }
  ctx.closePath();
  ctx.fill();
}
