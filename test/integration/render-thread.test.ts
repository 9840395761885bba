// The render process: its PNGs hold exactly the pixels the in-process run painter draws, at both pane sizes; disposal ends it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFonts, loadFonts } from '../../src/worker/render/fonts.js';
import { fullFrame, phoneCardFrame } from '../../src/worker/render/card-frame.js';
import { RunPainter } from '../../src/worker/render/painter.js';
import { RenderThread } from '../../src/worker/render/render-thread-host.js';
import { ScreenModel, type CapturedScreen } from '../../src/worker/render/screen-model.js';
import { countDifferentPixels, decodePng, loadScreen } from '../support/reference-painter.js';

let home: string;
let thread: RenderThread;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lmx-render-thread-'));
  expect((await installFonts(home)).problems).toEqual([]);
  loadFonts(home);
  thread = new RenderThread(home);
});
afterAll(() => {
  thread?.dispose();
  rmSync(home, { recursive: true, force: true });
});

/** A 200x60 screen of coloured hanzi and words: the size that takes the big-frame zlib level. */
function bigScreen(): CapturedScreen {
  const rows = Array.from({ length: 60 }, (_, r) => `\x1b[38;5;${16 + r}m${r % 2 ? '终端截图渲染器'.repeat(14) : 'render frame pixel '.repeat(10)}\x1b[0m`);
  return { ansi: rows.join('\n'), cursor: { x: 3, y: 5, visible: true }, cols: 200, rows: 60 };
}

describe('RenderThread', () => {
  it.each([
    ['synthetic-cjk-emoji at 120x40', () => loadScreen('synthetic-cjk-emoji')],
    ['claude-04-idle-first at 120x40', () => loadScreen('claude-04-idle-first')],
    ['a dense CJK screen at 200x60', bigScreen],
  ])('%s: the PNG decodes to the pixels the run painter draws in process (card frame)', async (_name, screen) => {
    const s = screen();
    const r = await thread.render(s);
    if (!r.ok) throw new Error(r.message);
    const model = new ScreenModel();
    const painter = new RunPainter();
    const grid = await model.load(s);
    const phone = phoneCardFrame(grid, s.cursor, painter.metrics);
    const canvas = painter.paint(phone.grid, phone.frame);
    expect(r.frame).toEqual(phone.frame);
    model.dispose();
    const decoded = await decodePng(r.png);
    expect([decoded.width, decoded.height]).toEqual([canvas.width, canvas.height]);
    expect(countDifferentPixels(canvas.data(), decoded.data, 0)).toBe(0);
  });

  it('frames whose image size changes from one to the next (wider, taller, shorter, back) each decode to the pixels painted alone', async () => {
    // The render process keeps a canvas per image width, as tall as the tallest frame so far: a shorter frame after a
    // taller one must still come out as exactly its own pixels (no rows of the previous frame, no shifted rows).
    const names = ['claude-04-idle-first', 'synthetic-cjk-emoji', 'claude-06-reply', 'codex-05-reply', 'gemini-04-idle', 'synthetic-cjk-emoji', 'claude-06-reply'];
    const sizes = new Set<string>();
    for (const name of names) {
      const s = loadScreen(name);
      const r = await thread.render(s);
      if (!r.ok) throw new Error(r.message);
      const model = new ScreenModel();
      const grid = await model.load(s);
      const painter = new RunPainter();
      const phone = phoneCardFrame(grid, s.cursor, painter.metrics);
      const canvas = painter.paint(phone.grid, phone.frame);
      model.dispose();
      const decoded = await decodePng(r.png);
      sizes.add(`${decoded.width}x${decoded.height}`);
      expect([name, decoded.width, decoded.height]).toEqual([name, canvas.width, canvas.height]);
      expect([name, countDifferentPixels(canvas.data(), decoded.data, 0)]).toEqual([name, 0]);
    }
    // The sequence really changes size both ways (else this test would prove nothing about reuse).
    expect(sizes.size).toBeGreaterThanOrEqual(3);
  });

  it('reports the fonts it registered, with the Simplified Chinese face from LARKMUX_HOME', async () => {
    const fonts = await thread.fonts();
    // One weight only: bold hanzi are emboldened from it (fonts.ts CJK_WEIGHTS; the next test).
    expect(fonts.files.cjk).toEqual([join(home, 'fonts', 'NotoSansMonoCJKsc-Regular.otf')]);
  });

  it('draws bold hanzi bolder than regular ones, from the one CJK face', async () => {
    const inkOf = async (ansi: string): Promise<number> => {
      const model = new ScreenModel();
      const grid = await model.load({ ansi, cursor: { x: 0, y: 0, visible: false }, cols: 20, rows: 2 });
      const painted = new RunPainter().paint(grid, fullFrame(grid));
      model.dispose();
      const px = painted.data();
      let ink = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2]) ink++;
      return ink;
    };
    const regular = await inkOf('终端截图渲染');
    const bold = await inkOf('\x1b[1m终端截图渲染\x1b[0m');
    expect(regular).toBeGreaterThan(500);
    expect(bold).toBeGreaterThan(regular * 1.2);
  });

  it('answers frames after dispose with a closed result', async () => {
    const t = new RenderThread(home);
    const first = await t.render(loadScreen('claude-04-idle-first'));
    expect(first.ok).toBe(true);
    t.dispose();
    expect(await t.render(loadScreen('claude-04-idle-first'))).toMatchObject({ ok: false, code: 'closed' });
  });

  it('ends an idle renderer after the idle time and starts a new one for the next frame, with the same pixels', async () => {
    const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
    const events: string[] = [];
    const t = new RenderThread(home, 300, (e) => events.push(e));
    try {
      const screen = loadScreen('synthetic-cjk-emoji');
      const first = await t.render(screen);
      if (!first.ok) throw new Error(first.message);
      expect(t.loaded).toBe(true);
      const firstPid = t.pid!;
      expect(alive(firstPid)).toBe(true);
      const deadline = Date.now() + 30_000;
      while (t.loaded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(t.loaded).toBe(false);
      expect(t.counts).toEqual({ started: 1, released: 1 });
      // The render process is gone, and with it everything it loaded.
      while (alive(firstPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(alive(firstPid)).toBe(false);

      const again = await t.render(screen);
      if (!again.ok) throw new Error(again.message);
      expect(t.counts.started).toBe(2);
      expect(t.pid).not.toBe(firstPid);
      const [a, b] = await Promise.all([decodePng(first.png), decodePng(again.png)]);
      expect([b.width, b.height]).toEqual([a.width, a.height]);
      expect(countDifferentPixels(a.data, b.data, 0)).toBe(0);
      expect(events).toEqual(['started', 'released', 'started']);
    } finally {
      t.dispose();
    }
  });
});
