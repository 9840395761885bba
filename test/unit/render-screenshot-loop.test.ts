// ScreenshotLoop with a scripted renderer: frames only when displayed and changed, identical frames not sent twice.
import { describe, expect, it } from 'vitest';
import { ScreenshotLoop, type RenderResult, type ScreenshotFrame } from '../../src/worker/render/screenshot.js';

function scripted(hashes: string[]) {
  const calls: (string | null | undefined)[] = [];
  const renderer = {
    async render(_target: string, previousHash?: string | null): Promise<RenderResult> {
      calls.push(previousHash);
      const hash = hashes[Math.min(calls.length - 1, hashes.length - 1)]!;
      const timings = { captureMs: 0, parseMs: 0, paintMs: 0, encodeMs: 0, totalMs: 0 };
      if (hash === previousHash) return { ok: true, changed: false, hash, cols: 10, rows: 2, timings };
      return { ok: true, changed: true, png: Buffer.from(hash), hash, cols: 10, rows: 2, timings, frame: { cols: 10, rows: 2, marginPx: 0, scale: 1 } };
    },
  };
  return { renderer, calls };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('ScreenshotLoop', () => {
  it('renders only while displayed, and sends a changed frame once', async () => {
    const { renderer, calls } = scripted(['a', 'a', 'b']);
    const frames: ScreenshotFrame[] = [];
    const loop = new ScreenshotLoop(renderer, 'p', (f) => frames.push(f), () => {}, { minIntervalMs: 0 });
    loop.notePaneOutput();
    await settle();
    expect(calls).toEqual([]); // nobody displays screenshots
    loop.setDisplaying(true);
    await settle();
    loop.notePaneOutput(); // same picture: captured, not painted, not sent
    await settle();
    loop.notePaneOutput();
    await settle();
    expect(calls).toEqual([null, 'a', 'a']);
    expect(frames.map((f) => f.hash)).toEqual(['a', 'b']);
    await settle();
    expect(calls.length).toBe(3); // silent pane: no more renders
    loop.requestFrame(); // explicit request: sent even though identical
    await settle();
    expect(frames.map((f) => f.hash)).toEqual(['a', 'b', 'b']);
    loop.dispose();
  });
});
