// Pure pieces of the renderer: tmux argument quoting, cursor reply parsing, row placement, Unicode 11 widths, the frame gate.
import { describe, expect, it } from 'vitest';
import { quoteTmuxArg } from '../../src/worker/backend/tmux-control.js';
import { parseCursorLine, screenHash } from '../../src/worker/render/capture.js';
import { FrameGate } from '../../src/worker/render/frame-gate.js';
import { frameToVt, ScreenModel } from '../../src/worker/render/screen-model.js';
import { buildPalette } from '../../src/worker/render/palette.js';
import { deflateLevelFor, PNG_WRITER } from '../../src/worker/render/png-writer.js';

describe('quoteTmuxArg', () => {
  it.each([
    ['plain', "'plain'"],
    ['two words', "'two words'"],
    ["it's", `'it'"'"'s'`],
    ['a;b', "'a;b'"],
    ['#{pane_id} $HOME ~', "'#{pane_id} $HOME ~'"],
    ['', "''"],
    ['line\nbreak', null],
    ['nul\0', null],
  ])('%j -> %j', (arg, quoted) => expect(quoteTmuxArg(arg)).toBe(quoted));
});

describe('parseCursorLine', () => {
  it.each([
    ['3 7 1 120 40', { x: 3, y: 7, visible: true, cols: 120, rows: 40 }],
    ['0 0 0 80 24', { x: 0, y: 0, visible: false, cols: 80, rows: 24 }],
    ['200 7 1 120 40', { x: 119, y: 7, visible: true, cols: 120, rows: 40 }],
    ['3 7 1 120', null],
    ['', null],
    [undefined, null],
    ['a b c d e', null],
  ])('%j', (line, expected) => expect(parseCursorLine(line)).toEqual(expected));
});

describe('screen model', () => {
  const palette = buildPalette();

  it('places every row with CUP, so the top row survives a full screen', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `row ${i}`);
    const model = new ScreenModel(palette);
    const grid = await model.load({ ansi: lines.join('\n'), cursor: { x: 0, y: 39, visible: false }, cols: 120, rows: 40 });
    expect(grid.chars.slice(0, 5).join('')).toBe('row 0');
    expect(grid.chars.slice(39 * 120, 39 * 120 + 6).join('')).toBe('row 39');
    expect(frameToVt({ ansi: 'a\nb', cursor: { x: 4, y: 1, visible: true }, cols: 10, rows: 2 })).not.toContain('\r\n');
    model.dispose();
  });

  it('gives emoji two cells (Unicode 11) and keeps the text after them in place', async () => {
    const model = new ScreenModel(palette);
    const grid = await model.load({ ansi: '🚀✅x⏸y', cursor: { x: 0, y: 0, visible: false }, cols: 20, rows: 2 });
    expect([...grid.widths.slice(0, 7)]).toEqual([2, 0, 2, 0, 1, 1, 1]);
    expect(grid.chars[4]).toBe('x');
    expect(grid.chars[6]).toBe('y');
    model.dispose();
  });

  it('resolves colours: bold brightens 0–7, inverse swaps, dim mixes, 256 and truecolor', async () => {
    const model = new ScreenModel(palette);
    const grid = await model.load({
      ansi: '\x1b[1;31mA\x1b[0m\x1b[7mB\x1b[0m\x1b[38;5;196mC\x1b[38;2;1;2;3mD\x1b[0m\x1b[2mE',
      cursor: { x: 0, y: 0, visible: false }, cols: 10, rows: 1,
    });
    expect(grid.fg[0]).toBe(palette.indexed[9]);
    expect([grid.fg[1], grid.bg[1]]).toEqual([palette.background, palette.foreground]);
    expect(grid.fg[2]).toBe(0xff0000);
    expect(grid.fg[3]).toBe(0x010203);
    expect(grid.fg[4]).not.toBe(palette.foreground);
    model.dispose();
  });

  it('hashes differ when only the cursor moves', () => {
    const s = { ansi: 'x', cursor: { x: 0, y: 0, visible: true }, cols: 10, rows: 1 };
    expect(screenHash(s)).toBe(screenHash({ ...s }));
    expect(screenHash(s)).not.toBe(screenHash({ ...s, cursor: { x: 1, y: 0, visible: true } }));
    expect(screenHash(s)).not.toBe(screenHash({ ...s, cursor: { x: 0, y: 0, visible: false } }));
  });
});

describe('FrameGate', () => {
  const make = () => {
    let now = 1000;
    const gate = new FrameGate(() => now, { minIntervalMs: 300 });
    return { gate, advance: (ms: number) => (now += ms) };
  };

  it('renders nothing while nobody displays screenshots', () => {
    const { gate } = make();
    gate.notePaneOutput();
    expect(gate.decide()).toEqual({ action: 'idle', reason: 'not-displayed' });
  });

  it('renders nothing while the pane is silent', () => {
    const { gate } = make();
    gate.setDisplaying(true);
    expect(gate.decide()).toEqual({ action: 'render' }); // first frame for a new viewer
    gate.begin();
    gate.finish('h1');
    expect(gate.decide()).toEqual({ action: 'idle', reason: 'silent' });
  });

  it('keeps one render in flight and renders the latest state once afterwards', () => {
    const { gate, advance } = make();
    gate.setDisplaying(true);
    gate.begin();
    gate.notePaneOutput();
    gate.notePaneOutput();
    expect(gate.decide()).toEqual({ action: 'idle', reason: 'in-flight' });
    gate.finish('h1');
    expect(gate.decide()).toEqual({ action: 'wait', ms: 300 });
    advance(300);
    expect(gate.decide()).toEqual({ action: 'render' });
    gate.begin();
    gate.finish(null);
    expect(gate.decide()).toEqual({ action: 'idle', reason: 'silent' });
  });

  it('skips frames identical to the last one sent, unless one was requested', () => {
    const { gate, advance } = make();
    gate.setDisplaying(true);
    gate.begin();
    expect(gate.wantsFrame('h1')).toBe(true);
    gate.finish('h1');
    expect(gate.skipHash).toBe('h1');
    gate.notePaneOutput();
    advance(500);
    gate.begin();
    expect(gate.wantsFrame('h1')).toBe(false);
    gate.finish(null);
    gate.requestFrame();
    expect(gate.skipHash).toBeNull();
    expect(gate.decide()).toEqual({ action: 'render' });
    gate.begin();
    expect(gate.wantsFrame('h1')).toBe(true);
    gate.finish('h1');
    expect(gate.skipHash).toBe('h1');
  });

  it('an explicit request renders even when nobody displays and within the interval', () => {
    const { gate } = make();
    gate.begin();
    gate.finish(null);
    gate.requestFrame();
    expect(gate.decide()).toEqual({ action: 'render' });
  });
});

describe('deflateLevelFor', () => {
  it.each([
    ['120x40 cells (1008x720)', 1008, 720, PNG_WRITER.level],
    ['80x24 cells', 672, 432, PNG_WRITER.level],
    ['a tall phone card (788x1400)', 788, 1400, PNG_WRITER.level],
    ['a narrow screen\'s card at scale 3 (1182x1182)', 1182, 1182, PNG_WRITER.level],
    ['200x60 cells (1680x1080)', 1680, 1080, PNG_WRITER.bigFrameLevel],
    ['just above the small-frame limit', 1501, 1000, PNG_WRITER.bigFrameLevel],
  ])('%s', (_name, w, h, level) => expect(deflateLevelFor(w, h)).toBe(level));
});
