// Per-cell reference painter: draws every cell on its own (same layers and glyph rules) to check the run painter pixel for pixel.
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { CELL, type ScreenGrid } from '../../src/worker/render/screen-model.js';
import { canvasSize } from '../../src/worker/render/painter.js';
import {
  cellBox, classifyCell, decorationRects, drawLoneCell, fontFor, GlyphMeasurer, measureCells, Pen,
} from '../../src/worker/render/cell-glyphs.js';

export function paintPerCell(grid: ScreenGrid, measurer: GlyphMeasurer = new GlyphMeasurer()): Canvas {
  const m = measureCells(measurer);
  const { width, height } = canvasSize(m, grid.cols, grid.rows);
  const canvas = createCanvas(width, height);
  const pen = new Pen(canvas.getContext('2d', { alpha: false }));
  pen.reset();
  pen.setFill(grid.defaultBg);
  pen.ctx.fillRect(0, 0, width, height);
  const cells = (fn: (i: number, col: number, row: number) => void) => {
    for (let row = 0; row < grid.rows; row++) for (let col = 0; col < grid.cols; col++) fn(row * grid.cols + col, col, row);
  };
  cells((i, col, row) => {
    if (grid.bg[i] === grid.defaultBg) return;
    const box = cellBox(m, col, row, 1);
    pen.setFill(grid.bg[i]!);
    pen.ctx.fillRect(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0);
  });
  cells((i, col, row) => {
    const cls = classifyCell(grid, i, m, measurer);
    if (cls === 'skip' || cls === 'blank') return;
    if (cls === 'run') {
      pen.setFont(fontFor(grid.flags[i]!, 'narrow', m.fontPx));
      pen.setSpacing('0px');
      pen.setFill(grid.fg[i]!);
      pen.ctx.fillText(grid.chars[i]!, col * m.cellWidth, row * m.cellHeight + m.baseline);
      return;
    }
    drawLoneCell(pen, cls, grid, i, col, row, m, measurer);
  });
  cells((i, col, row) => {
    const flags = grid.flags[i]! & CELL.invisible ? 0 : grid.flags[i]! & (CELL.underline | CELL.strike);
    if (!flags) return;
    pen.setFill(grid.fg[i]!);
    for (const r of decorationRects(m, row, col, col + 1, flags)) pen.ctx.fillRect(r.x, r.y, r.w, r.h);
  });
  return canvas;
}
