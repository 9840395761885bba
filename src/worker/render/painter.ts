// The run painter: draws a ScreenGrid on a reused canvas with merged background runs and one fillText per same-style text run.
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { CELL, type ScreenGrid } from './screen-grid.js';
import { framePixels, fullFrame, type FrameLayout } from './card-frame.js';
import {
  classifyCell, decorationRects, drawLoneCell, fontFor, GlyphMeasurer, measureCells, Pen, wideLayout,
  type CellMetrics,
} from './cell-glyphs.js';
import { rowInkReach, type RowReach } from './ink-reach.js';
import type { FrameBand } from './frame-bands.js';

/**
 * Wide characters that may share one letter-spaced fillText: a single letter (hanzi, kana, hangul).
 * Fullwidth punctuation is drawn alone: the shaper squeezes runs of it (，。 measures 21 px, not 28) even with chws/halt off.
 */
const BATCHABLE_WIDE = /^\p{L}$/u;

export const PAINTER_CANVASES = {
  /**
   * Canvases kept, one per image width: a lone frame's canvas (painted whole), and a stream's strip (one band at a
   * time). A card keeps its width while its height follows the screen, and a few sessions share the render process.
   * A whole canvas costs width x tallest height x 4 bytes (~4-6 MB for a phone card), a strip ~0.2 MB.
   */
  widthsKept: 2,
} as const;

export function canvasSize(m: CellMetrics, frame: FrameLayout): { width: number; height: number } {
  return framePixels(frame, m);
}

/**
 * The frame's pixels (RGBA rows) out of a kept canvas at least as tall, or a band's out of its strip: a copy of the
 * canvas (canvas.data()) cut to its top rows.
 */
export function framePixelsOf(painted: { canvas: Canvas; width: number; height: number }): Uint8Array {
  return painted.canvas.data().subarray(0, painted.width * painted.height * 4);
}

/** A frame painted on a kept canvas: its top `height` rows. */
export interface KeptFrame {
  canvas: Canvas;
  width: number;
  height: number;
}

/** A canvas kept per width, at least as tall as anything drawn on it at that width so far. */
interface KeptCanvas {
  canvas: Canvas;
  pen: Pen;
}

/** The kept canvas of `width` in `byWidth` (grown when shorter than `height`); the least recently used width goes first. */
function keptCanvas(byWidth: Map<number, KeptCanvas>, width: number, height: number): KeptCanvas {
  let kept = byWidth.get(width);
  if (!kept || kept.canvas.height < height) {
    const canvas = createCanvas(width, height);
    kept = { canvas, pen: new Pen(canvas.getContext('2d', { alpha: false })) };
    kept.pen.reset();
  }
  byWidth.delete(width);
  byWidth.set(width, kept);
  if (byWidth.size > PAINTER_CANVASES.widthsKept) byWidth.delete(byWidth.keys().next().value!);
  return kept;
}

/** Clears the canvas to the theme background, then maps cell coordinates into the frame (margin, integer scale). */
export function beginFrame(pen: Pen, grid: ScreenGrid, frame: FrameLayout, width: number, height: number): void {
  pen.reset();
  pen.ctx.setTransform(1, 0, 0, 1, 0, 0);
  pen.setFill(grid.defaultBg);
  pen.ctx.fillRect(0, 0, width, height);
  const s = frame.scale;
  pen.ctx.setTransform(s, 0, 0, s, frame.marginPx * s, frame.marginPx * s);
}

/** Paint layers shared with the reference painter: all backgrounds, then all glyphs, then all decorations. */
export class RunPainter {
  readonly metrics: CellMetrics;
  private readonly measurer: GlyphMeasurer;
  private canvas: Canvas | null = null;
  private pen: Pen | null = null;
  /** Lone frames' canvases, per image width. */
  private readonly wholeByWidth = new Map<number, KeptCanvas>();
  /** Stream bands' strips, per image width. */
  private readonly stripByWidth = new Map<number, KeptCanvas>();

  constructor(measurer: GlyphMeasurer = new GlyphMeasurer()) {
    this.measurer = measurer;
    this.metrics = measureCells(measurer);
  }

  /** Paints the frame's cells of the grid; the returned canvas is reused by the next call (encode before painting again). */
  paint(grid: ScreenGrid, frame: FrameLayout = fullFrame(grid)): Canvas {
    const { width, height } = canvasSize(this.metrics, frame);
    if (!this.canvas || this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas = createCanvas(width, height);
      this.pen = new Pen(this.canvas.getContext('2d', { alpha: false }));
    }
    this.paintOn(this.pen!, grid, frame, width, height);
    return this.canvas;
  }

  /**
   * The same painting on a canvas kept per image width (at least as tall as any frame of that width so far), so frames
   * whose height changes with the screen reuse one canvas: a new canvas costs its allocation and page faults (paint
   * 0.6 → 2.6 ms measured when sizes alternate). The frame is the canvas's top `height` rows (framePixelsOf).
   */
  paintKept(grid: ScreenGrid, frame: FrameLayout): KeptFrame {
    const { width, height } = canvasSize(this.metrics, frame);
    const kept = keptCanvas(this.wholeByWidth, width, height);
    this.paintOn(kept.pen, grid, frame, width, height);
    return { canvas: kept.canvas, width, height };
  }

  /**
   * Paints one band of the frame alone, at the top of a strip kept per image width: the band's rows and every row
   * whose ink reaches them (`reach`, as frameBands keys the band), each layer in a whole paint's order, shifted up by
   * whole pixels. No clip (Skia anti-aliases a clipped arc differently), so the band's pixels are those of the whole
   * frame painted at once. A stream's encoder paints only the bands its last frame lacks, one after another while
   * earlier ones deflate; no card-sized canvas is kept for it. Read the band (framePixelsOf) before the next call.
   */
  paintBand(grid: ScreenGrid, frame: FrameLayout, band: Pick<FrameBand, 'y0' | 'y1' | 'rows'>, reach: RowReach): KeptFrame {
    const { width } = canvasSize(this.metrics, frame);
    const height = band.y1 - band.y0;
    const { canvas, pen } = keptCanvas(this.stripByWidth, width, height);
    const rows = Math.min(frame.rows, grid.rows);
    const [first, end] = band.rows;
    const reaches = (o: number) => (o >= first && o < end) || (o < first ? reach.down[o]! >= first - o : reach.up[o]! >= o - (end - 1));
    const painted: number[] = [];
    for (let o = 0; o < rows; o++) if (reaches(o)) painted.push(o);
    // No pen.reset() per band: the pen has tracked the strip's state since it was made, and setting the shaping again
    // for each of a CJK frame's 38 bands made its paint 2.5 ms instead of 2.0 (bench render).
    pen.ctx.setTransform(1, 0, 0, 1, 0, 0);
    pen.setFill(grid.defaultBg);
    pen.ctx.fillRect(0, 0, width, height);
    const s = frame.scale;
    pen.ctx.setTransform(s, 0, 0, s, frame.marginPx * s, frame.marginPx * s - band.y0);
    const cols = Math.min(frame.cols, grid.cols);
    for (const row of painted) this.paintBackgrounds(pen, grid, row, cols);
    for (const row of painted) this.paintGlyphs(pen, grid, row, cols);
    for (const row of painted) this.paintDecorations(pen, grid, row, cols);
    return { canvas, width, height };
  }

  /** How far each painted row's glyphs reach into the rows around it, measured with this painter's fonts (frameBands). */
  inkReach(grid: ScreenGrid, frame: FrameLayout): RowReach {
    return rowInkReach(grid, Math.min(frame.rows, grid.rows), Math.min(frame.cols, grid.cols), this.metrics, this.measurer);
  }

  private paintOn(pen: Pen, grid: ScreenGrid, frame: FrameLayout, width: number, height: number): void {
    beginFrame(pen, grid, frame, width, height);
    const cols = Math.min(frame.cols, grid.cols);
    const rows = Math.min(frame.rows, grid.rows);
    for (let row = 0; row < rows; row++) this.paintBackgrounds(pen, grid, row, cols);
    for (let row = 0; row < rows; row++) this.paintGlyphs(pen, grid, row, cols);
    for (let row = 0; row < rows; row++) this.paintDecorations(pen, grid, row, cols);
  }

  private paintBackgrounds(pen: Pen, grid: ScreenGrid, row: number, cols: number): void {
    const m = this.metrics;
    const base = row * grid.cols;
    let col = 0;
    while (col < cols) {
      const bg = grid.bg[base + col]!;
      let end = col + 1;
      while (end < cols && grid.bg[base + end] === bg) end++;
      if (bg !== grid.defaultBg) {
        // Whole-pixel edges: 8.4 px cells would otherwise leave anti-aliased seams between same-colour cells.
        const x0 = Math.round(col * m.cellWidth);
        pen.setFill(bg);
        pen.ctx.fillRect(x0, row * m.cellHeight, Math.round(end * m.cellWidth) - x0, m.cellHeight);
      }
      col = end;
    }
  }

  private paintGlyphs(pen: Pen, grid: ScreenGrid, row: number, cols: number): void {
    const m = this.metrics;
    const base = row * grid.cols;
    const baseY = row * m.cellHeight + m.baseline;
    // The open narrow run: same fg and font; blanks inside it become spaces (they draw nothing either way).
    let narrow: { col: number; fg: number; font: string; text: string; spaces: number } | null = null;
    // The open wide run: same fg, font and advance, each character two cells after the previous one.
    let wide: { col: number; fg: number; font: string; adv: number; text: string; next: number } | null = null;
    const flushNarrow = () => {
      if (!narrow) return;
      pen.setFont(narrow.font);
      pen.setSpacing('0px');
      pen.setFill(narrow.fg);
      pen.ctx.fillText(narrow.text, narrow.col * m.cellWidth, baseY);
      narrow = null;
    };
    const flushWide = () => {
      if (!wide) return;
      const layout = wideLayout(m, wide.adv);
      pen.setFont(wide.font);
      pen.setSpacing(wide.text.length > 1 ? layout.spacing : '0px');
      pen.setFill(wide.fg);
      pen.ctx.fillText(wide.text, wide.col * m.cellWidth + layout.offset, baseY);
      wide = null;
    };
    for (let col = 0; col < cols; col++) {
      const i = base + col;
      const cls = classifyCell(grid, i, m, this.measurer);
      if (cls === 'skip') continue;
      if (cls === 'blank') {
        if (narrow) narrow.spaces++;
        flushWide();
        continue;
      }
      if (cls === 'run') {
        flushWide();
        const font = fontFor(grid.flags[i]!, 'narrow', m.fontPx);
        const fg = grid.fg[i]!;
        if (narrow && narrow.fg === fg && narrow.font === font) {
          narrow.text += ' '.repeat(narrow.spaces) + grid.chars[i]!;
          narrow.spaces = 0;
        } else {
          flushNarrow();
          narrow = { col, fg, font, text: grid.chars[i]!, spaces: 0 };
        }
        continue;
      }
      flushNarrow();
      if (cls === 'wide') {
        const font = fontFor(grid.flags[i]!, 'wide', m.fontPx);
        const fg = grid.fg[i]!;
        const ch = grid.chars[i]!;
        const adv = this.measurer.advance(font, ch);
        if (adv <= 2 * m.cellWidth && BATCHABLE_WIDE.test(ch)) {
          if (wide && wide.next === col && wide.fg === fg && wide.font === font && wide.adv === adv) {
            wide.text += ch;
            wide.next = col + 2;
          } else {
            flushWide();
            wide = { col, fg, font, adv, text: ch, next: col + 2 };
          }
          continue;
        }
      }
      flushWide();
      drawLoneCell(pen, cls, grid, i, col, row, m, this.measurer);
    }
    flushNarrow();
    flushWide();
  }

  private paintDecorations(pen: Pen, grid: ScreenGrid, row: number, cols: number): void {
    const base = row * grid.cols;
    const DECO = CELL.underline | CELL.strike;
    let col = 0;
    while (col < cols) {
      const flags = grid.flags[base + col]! & CELL.invisible ? 0 : grid.flags[base + col]! & DECO;
      const fg = grid.fg[base + col]!;
      let end = col + 1;
      while (end < cols) {
        const f = grid.flags[base + end]! & CELL.invisible ? 0 : grid.flags[base + end]! & DECO;
        if (f !== flags || (flags && grid.fg[base + end] !== fg)) break;
        end++;
      }
      if (flags) {
        pen.setFill(fg);
        for (const r of decorationRects(this.metrics, row, col, end, flags)) pen.ctx.fillRect(r.x, r.y, r.w, r.h);
      }
      col = end;
    }
  }
}
