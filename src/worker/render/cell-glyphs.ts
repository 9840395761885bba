// How each cell is drawn (shared by the run painter and the per-cell reference painter): metrics, fonts, glyph classes, single-cell drawing.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { FONT_ALIASES } from './fonts.js';
import { cssColour } from './palette.js';
import { CELL, type ScreenGrid } from './screen-grid.js';
import { drawGeometric, isGeometric, type CellBox } from './geometric-glyphs.js';

export const CELL_GEOMETRY = {
  /** JetBrains Mono 14 px: advance exactly 8.4 px (0.6 em), which is the cell width, so runs land on the grid. */
  fontPx: 14,
  /** Row height: 18 px fits ascender + descender (1.32 em) of the Latin font. */
  cellHeight: 18,
  /** Baseline from the row top: caps end ~4 px below the top, descenders at the row's bottom. */
  baseline: 14,
  underlineOffset: 2,
  strikeOffset: -4,
} as const;

export interface CellMetrics {
  cellWidth: number;
  cellHeight: number;
  baseline: number;
  fontPx: number;
}

export type GlyphClass =
  | 'skip' // right half of a wide character
  | 'blank' // nothing to draw (space, empty, invisible)
  | 'run' // narrow text whose advance is exactly one cell: can join a same-style run
  | 'single' // narrow text from a fallback font with another advance: drawn alone, centred in its cell
  | 'wide' // CJK and other wide text: centred in two cells; same-advance neighbours form a letter-spaced run
  | 'emoji' // colour emoji: squeezed into its cells
  | 'geometric'; // box drawing, blocks, braille, media symbols: rectangles

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

const fontStrings = new Map<number, string>();

/** The CSS font for a cell (cached: painting asks once per cell). */
export function fontFor(flags: number, kind: 'narrow' | 'wide' | 'emoji', px: number): string {
  const key = ((flags & (CELL.bold | CELL.italic)) << 16) | ((kind === 'narrow' ? 0 : kind === 'wide' ? 1 : 2) << 12) | px;
  let font = fontStrings.get(key);
  if (font === undefined) fontStrings.set(key, (font = buildFont(flags, kind, px)));
  return font;
}

function buildFont(flags: number, kind: 'narrow' | 'wide' | 'emoji', px: number): string {
  const style = `${flags & CELL.italic ? 'italic ' : ''}${flags & CELL.bold ? 'bold ' : ''}`;
  // Narrow cells never fall to the emoji font: text-presentation symbols stay monochrome in the fg colour.
  if (kind === 'narrow') return `${style}${px}px ${FONT_ALIASES.mono}, ${FONT_ALIASES.symbols}, ${FONT_ALIASES.cjk}`;
  if (kind === 'wide') return `${style}${px}px ${FONT_ALIASES.cjk}, ${FONT_ALIASES.symbols}, ${FONT_ALIASES.mono}`;
  return `${px}px ${FONT_ALIASES.emoji}`;
}

/**
 * A terminal shows one glyph per cell: no ligatures (JetBrains Mono joins "//", "--", "->"), no contextual
 * alternates, no kerning or contextual CJK punctuation spacing, else a run would differ from its cells.
 */
export function setTerminalShaping(ctx: SKRSContext2D): void {
  ctx.fontVariantLigatures = 'none';
  ctx.fontKerning = 'none';
  ctx.fontFeatureSettings = '"liga" 0, "clig" 0, "calt" 0, "kern" 0, "chws" 0, "palt" 0, "halt" 0';
}

/** Values measured once per (font, text), bounded: two levels, so the per-cell lookup builds no key strings. */
class MeasureCache<T> {
  private readonly byFont = new Map<string, Map<string, T>>();
  private size = 0;

  get(font: string, text: string, measure: () => T): T {
    let perFont = this.byFont.get(font);
    if (!perFont) this.byFont.set(font, (perFont = new Map()));
    let v = perFont.get(text);
    if (v === undefined) {
      if (this.size > MEASURE_CACHE_LIMIT) {
        this.byFont.clear(); // bound memory on screens full of unusual text
        this.size = 0;
        this.byFont.set(font, perFont);
      }
      perFont.set(text, (v = measure()));
      this.size++;
    }
    return v;
  }
}

/** Glyph advances and ink bounds measured once per (font, text); text drawing decisions depend only on these. */
export class GlyphMeasurer {
  private readonly advances = new MeasureCache<number>();
  private readonly inks = new MeasureCache<{ ascent: number; descent: number }>();
  private readonly ctx = createCanvas(8, 8).getContext('2d');

  constructor() {
    setTerminalShaping(this.ctx);
  }

  advance(font: string, text: string): number {
    return this.advances.get(font, text, () => {
      this.ctx.font = font;
      return this.ctx.measureText(text).width;
    });
  }

  /** How far the glyphs of `text` reach above and below the baseline: the canvas's own ink bounds, px at the font's size. */
  ink(font: string, text: string): { ascent: number; descent: number } {
    return this.inks.get(font, text, () => {
      this.ctx.font = font;
      const m = this.ctx.measureText(text);
      return { ascent: m.actualBoundingBoxAscent, descent: m.actualBoundingBoxDescent };
    });
  }
}

/** Distinct (font, text) values kept per cache: a few thousand cover any real screen's characters many times over. */
const MEASURE_CACHE_LIMIT = 20_000;

export function measureCells(measurer: GlyphMeasurer): CellMetrics {
  const g = CELL_GEOMETRY;
  return { cellWidth: measurer.advance(fontFor(0, 'narrow', g.fontPx), 'M'), cellHeight: g.cellHeight, baseline: g.baseline, fontPx: g.fontPx };
}

export function classifyCell(grid: ScreenGrid, i: number, m: CellMetrics, measurer: GlyphMeasurer): GlyphClass {
  const w = grid.widths[i]!;
  if (w === 0) return 'skip';
  const ch = grid.chars[i]!;
  if (ch === '' || ch === ' ' || grid.flags[i]! & CELL.invisible) return 'blank';
  const cp = ch.codePointAt(0)!;
  if (ch.length === (cp > 0xffff ? 2 : 1) && isGeometric(cp)) return 'geometric';
  if (ch.includes('\uFE0F') || (w === 2 && PICTOGRAPHIC.test(ch))) return 'emoji';
  if (w === 2) return 'wide';
  const adv = measurer.advance(fontFor(grid.flags[i]!, 'narrow', m.fontPx), ch);
  return Math.abs(adv - m.cellWidth) < 1e-3 ? 'run' : 'single';
}

export function cellBox(m: CellMetrics, col: number, row: number, width: number): CellBox {
  const y0 = row * m.cellHeight;
  return { x0: Math.round(col * m.cellWidth), x1: Math.round((col + width) * m.cellWidth), y0, y1: y0 + m.cellHeight };
}

/** Canvas state setters that skip redundant changes (state changes, not glyphs, dominate painting cost). */
export class Pen {
  private font = '';
  private fill = -1;
  private spacing = '0px';

  constructor(readonly ctx: SKRSContext2D) {}

  reset(): void {
    this.font = '';
    this.fill = -1;
    this.spacing = '0px';
    this.ctx.letterSpacing = '0px';
    setTerminalShaping(this.ctx);
  }

  setFont(font: string): void {
    if (font !== this.font) this.ctx.font = this.font = font;
  }

  setFill(rgb: number): void {
    if (rgb !== this.fill) this.ctx.fillStyle = cssColour((this.fill = rgb));
  }

  setSpacing(px: string): void {
    if (px !== this.spacing) this.ctx.letterSpacing = this.spacing = px;
  }

  /** After drawing with raw ctx calls (geometric glyphs) the cached fill is unknown. */
  forgetFill(): void {
    this.fill = -1;
  }
}

/** The x offset that centres a wide glyph of advance `adv` in two cells, and the letter spacing that keeps a run of them on the grid. */
export function wideLayout(m: CellMetrics, adv: number): { offset: number; spacing: string } {
  const slot = 2 * m.cellWidth;
  return { offset: (slot - adv) / 2, spacing: `${(slot - adv).toFixed(4)}px` };
}

/** Draws one non-run cell (single, wide, emoji, geometric) exactly as the reference painter does. */
/** One glyph in its slot: squeezed when wider than the slot, centred when narrower. */
function fitInSlot(pen: Pen, font: string, fill: number, ch: string, adv: number, x: number, baseY: number, slot: number): void {
  pen.setFont(font);
  pen.setSpacing('0px');
  pen.setFill(fill);
  if (adv > slot) pen.ctx.fillText(ch, x, baseY, slot);
  else pen.ctx.fillText(ch, x + (slot - adv) / 2, baseY);
}

export function drawLoneCell(pen: Pen, cls: GlyphClass, grid: ScreenGrid, i: number, col: number, row: number, m: CellMetrics, measurer: GlyphMeasurer): void {
  const ch = grid.chars[i]!;
  const flags = grid.flags[i]!;
  const baseY = row * m.cellHeight + m.baseline;
  const x = col * m.cellWidth;
  const slot = grid.widths[i]! * m.cellWidth;
  switch (cls) {
    case 'geometric':
      drawGeometric(pen.ctx, ch.codePointAt(0)!, cellBox(m, col, row, grid.widths[i]!), grid.fg[i]!, grid.bg[i]!);
      pen.forgetFill();
      return;
    case 'emoji': {
      const font = fontFor(flags, 'emoji', m.fontPx);
      const adv = measurer.advance(font, ch);
      // Noto Color Emoji is 17.47 px wide at 14 px, more than two cells: squeezed by fitInSlot.
      return fitInSlot(pen, font, grid.fg[i]!, ch, adv, x, baseY, slot);
    }
    case 'wide':
    case 'single': {
      const font = fontFor(flags, cls === 'wide' ? 'wide' : 'narrow', m.fontPx);
      const adv = measurer.advance(font, ch);
      return fitInSlot(pen, font, grid.fg[i]!, ch, adv, x, baseY, slot);
    }
    default:
      throw new Error(`drawLoneCell: ${cls} is not a lone cell`);
  }
}

/** Underline and strikethrough rectangles of one cell range, pixel-snapped. */
export function decorationRects(m: CellMetrics, row: number, col0: number, col1: number, flags: number): { x: number; y: number; w: number; h: number }[] {
  const x0 = Math.round(col0 * m.cellWidth);
  const x1 = Math.round(col1 * m.cellWidth);
  const top = row * m.cellHeight;
  const out: { x: number; y: number; w: number; h: number }[] = [];
  if (flags & CELL.underline) out.push({ x: x0, y: top + m.baseline + CELL_GEOMETRY.underlineOffset - 1, w: x1 - x0, h: 1 });
  if (flags & CELL.strike) out.push({ x: x0, y: top + m.baseline + CELL_GEOMETRY.strikeOffset, w: x1 - x0, h: 1 });
  return out;
}
