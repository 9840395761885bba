// Per-cell reference painter: draws every cell on its own (same layers and glyph rules) to check the run painter pixel for pixel.
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { CELL, type ScreenGrid } from '../../src/worker/render/screen-grid.js';
import { beginFrame, canvasSize } from '../../src/worker/render/painter.js';
import { fullFrame, type FrameLayout } from '../../src/worker/render/card-frame.js';
import {
  cellBox, classifyCell, decorationRects, drawLoneCell, fontFor, GlyphMeasurer, measureCells, Pen,
} from '../../src/worker/render/cell-glyphs.js';

export function paintPerCell(grid: ScreenGrid, frame: FrameLayout = fullFrame(grid), measurer: GlyphMeasurer = new GlyphMeasurer()): Canvas {
  const m = measureCells(measurer);
  const { width, height } = canvasSize(m, frame);
  const canvas = createCanvas(width, height);
  const pen = new Pen(canvas.getContext('2d', { alpha: false }));
  beginFrame(pen, grid, frame, width, height);
  const cells = (fn: (i: number, col: number, row: number) => void) => {
    for (let row = 0; row < frame.rows; row++) for (let col = 0; col < frame.cols; col++) fn(row * grid.cols + col, col, row);
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

// ---- Fixture helpers shared by the render tests and update-goldens.ts ----

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import type { CapturedScreen } from '../../src/worker/render/screen-model.js';

export const SCREENS_DIR = join(import.meta.dirname, '..', 'fixtures', 'screens');
export const GOLDEN_DIR = join(import.meta.dirname, '..', 'fixtures', 'golden');

/** Screens with a stored golden PNG (a spread of CLIs and states, plus the CJK/emoji/colour screen). */
export const GOLDEN_SCREENS = [
  'claude-01-onboarding-theme', 'claude-04-idle-first', 'claude-06-reply', 'claude-07-busy', 'claude-08-tool-auto',
  'claude-14-permission-prompt', 'claude-18-multiline-reply', 'claude-19-bigpaste', 'claude-21-interrupted', 'claude197-02-permission',
  'codex-01-first-screen', 'codex-05-reply', 'codex-07-tool', 'codex-12-approval-prompt',
  'gemini-01-first-screen', 'gemini-04-idle', 'gemini-06-busy', 'gemini-07-permission', 'synthetic-cjk-emoji',
] as const;

export function allScreenNames(): string[] {
  return readdirSync(SCREENS_DIR).filter((f) => f.endsWith('.esc.txt')).map((f) => f.slice(0, -'.esc.txt'.length)).sort();
}

/** The synthetic screen shows a visible cursor on the wide 请 (row 9, column 2); the captured fixtures carry no cursor. */
export const SYNTHETIC_CURSOR = { x: 2, y: 9, visible: true } as const;

export function loadScreen(name: string, cols = 120, rows = 40): CapturedScreen {
  const ansi = readFileSync(join(SCREENS_DIR, `${name}.esc.txt`), 'utf8').replace(/\n$/, '');
  const cursor = name === 'synthetic-cjk-emoji' ? { ...SYNTHETIC_CURSOR } : { x: 0, y: 0, visible: false };
  return { ansi, cursor, cols, rows };
}

/** Decodes a PNG to RGBA pixels. */
export async function decodePng(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

/** Counts pixels whose largest channel difference exceeds `tolerance` (anti-aliasing noise stays below it). */
export function countDifferentPixels(a: ArrayLike<number>, b: ArrayLike<number>, tolerance: number): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!));
    if (d > tolerance) n++;
  }
  return n;
}
