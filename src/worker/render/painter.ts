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
   * Card canvases kept, one per image width: a session's card keeps its width while its height follows the screen,
   * and a few sessions share the render process. Each costs width x tallest height x 4 bytes (~4-6 MB for a phone card).
   */
  widthsKept: 2,
} as const;

export function canvasSize(m: CellMetrics, frame: FrameLayout): { width: number; height: number } {
  return framePixels(frame, m);
}

/** The frame's pixels (RGBA rows) out of a kept canvas at least as tall: a copy (canvas.data()) cut to its top rows. */
export function framePixelsOf(painted: { canvas: Canvas; width: number; height: number }): Uint8Array {
  return painted.canvas.data().subarray(0, painted.width * painted.height * 4);
}

/**
 * Rows [y0, y1) of a painted frame's pixels (non-premultiplied RGBA, as framePixelsOf gives them): a copy of just those
 * rows, for an encoder that needs only the bands that changed.
 */
export function bandPixelsOf(painted: { canvas: Canvas; width: number }, y0: number, y1: number): Uint8Array {
  const d = painted.canvas.getContext('2d').getImageData(0, y0, painted.width, y1 - y0).data;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** A frame painted on a kept canvas: its top `height` rows; how many of its bands were painted ('all': the whole frame). */
export interface KeptFrame {
  canvas: Canvas;
  width: number;
  height: number;
  paintedBands: number | 'all';
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
  /** Per image width: the canvas, its pen, and the bands it holds now (null: unknown, the next frame paints all). */
  private readonly byWidth = new Map<number, { canvas: Canvas; pen: Pen; held: Map<string, string> | null }>();

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
   * The same painting on a canvas kept per image width (at least as tall as any frame of that width so far), so card
   * frames whose height changes with the screen reuse one canvas: a new canvas costs its allocation and page faults
   * (paint 0.6 → 2.6 ms measured when sizes alternate). The frame is the canvas's top `height` rows (framePixelsOf).
   * With the frame's `bands` (frameBands with this painter's inkReach), only the bands the canvas does not hold already
   * (same place, same key: the same pixels) are cleared and painted, by the rows that reach them.
   */
  paintKept(grid: ScreenGrid, frame: FrameLayout, banded?: { bands: readonly FrameBand[]; reach: RowReach }): KeptFrame {
    const { width, height } = canvasSize(this.metrics, frame);
    let kept = this.byWidth.get(width);
    if (!kept || kept.canvas.height < height) {
      const canvas = createCanvas(width, height);
      kept = { canvas, pen: new Pen(canvas.getContext('2d', { alpha: false })), held: null };
    }
    // Most recently used last; the oldest width goes when there are more than PAINTER_CANVASES.widthsKept.
    this.byWidth.delete(width);
    this.byWidth.set(width, kept);
    if (this.byWidth.size > PAINTER_CANVASES.widthsKept) this.byWidth.delete(this.byWidth.keys().next().value!);
    const held = kept.held;
    const dirty = banded && held ? banded.bands.filter((b) => held.get(`${b.y0}:${b.y1}`) !== b.key) : null;
    let paintedBands: number | 'all' = 'all';
    if (banded && dirty) paintedBands = this.paintBands(kept.pen, grid, frame, width, height, banded.bands, dirty, banded.reach);
    else this.paintOn(kept.pen, grid, frame, width, height);
    kept.held = banded ? new Map(banded.bands.map((b) => [`${b.y0}:${b.y1}`, b.key])) : null;
    return { canvas: kept.canvas, width, height, paintedBands };
  }

  /**
   * Clears and paints only the `dirty` bands, grown until no row's ink crosses between a painted band and a kept one;
   * then every pixel of a painted band is drawn by the same operations, in the same order, as in a whole paint (no
   * clip: Skia anti-aliases a clipped arc differently). A row without a band of its own (a degenerate layout) paints all.
   */
  private paintBands(pen: Pen, grid: ScreenGrid, frame: FrameLayout, width: number, height: number, bands: readonly FrameBand[], dirty: readonly FrameBand[], reach: RowReach): number | 'all' {
    const rows = Math.min(frame.rows, grid.rows);
    const bandOfRow = new Int32Array(rows).fill(-1);
    bands.forEach((b, i) => { for (let r = b.rows[0]; r < Math.min(rows, b.rows[1]); r++) bandOfRow[r] = i; });
    if (bandOfRow.includes(-1)) {
      this.paintOn(pen, grid, frame, width, height);
      return 'all';
    }
    const painted = new Uint8Array(bands.length);
    for (const b of dirty) painted[bands.indexOf(b)] = 1;
    const reaches: [number, number][] = [];
    for (let o = 0; o < rows; o++) {
      for (let d = 1; d <= reach.up[o]! && o - d >= 0; d++) reaches.push([o, o - d]);
      for (let d = 1; d <= reach.down[o]! && o + d < rows; d++) reaches.push([o, o + d]);
    }
    for (let grown = true; grown; ) {
      grown = false;
      for (const [from, into] of reaches) {
        const [a, b] = [bandOfRow[from]!, bandOfRow[into]!];
        if (painted[a] !== painted[b]) [painted[a], painted[b], grown] = [1, 1, true];
      }
    }
    pen.reset();
    pen.ctx.setTransform(1, 0, 0, 1, 0, 0);
    pen.setFill(grid.defaultBg);
    bands.forEach((b, i) => painted[i] && pen.ctx.fillRect(0, b.y0, width, b.y1 - b.y0));
    pen.ctx.setTransform(frame.scale, 0, 0, frame.scale, frame.marginPx * frame.scale, frame.marginPx * frame.scale);
    const cols = Math.min(frame.cols, grid.cols);
    const paintRow = (row: number) => painted[bandOfRow[row]!] === 1;
    for (let row = 0; row < rows; row++) if (paintRow(row)) this.paintBackgrounds(pen, grid, row, cols);
    for (let row = 0; row < rows; row++) if (paintRow(row)) this.paintGlyphs(pen, grid, row, cols);
    for (let row = 0; row < rows; row++) if (paintRow(row)) this.paintDecorations(pen, grid, row, cols);
    return painted.reduce((n, p) => n + p, 0);
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
