// ScreenshotLoop with a scripted capturer: screens only when displayed and changed, identical screens not sent twice.
import { describe, expect, it } from 'vitest';
import { ScreenshotLoop, type ScreenCaptureResult, type ScreenFrame } from '../../src/worker/render/screenshot.js';

function scripted(hashes: string[]) {
  const calls: (string | null | undefined)[] = [];
  const capturer = {
    async capture(_target: string, previousHash?: string | null): Promise<ScreenCaptureResult> {
      calls.push(previousHash);
      const hash = hashes[Math.min(calls.length - 1, hashes.length - 1)]!;
      if (hash === previousHash) return { ok: true, changed: false, hash };
      return { ok: true, changed: true, hash, screen: { ansi: `screen ${hash}`, cursor: { x: 0, y: 0, visible: true }, cols: 10, rows: 2 } };
    },
  };
  return { capturer, calls };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('ScreenshotLoop', () => {
  it('captures only while displayed, and sends a changed screen once', async () => {
    const { capturer, calls } = scripted(['a', 'a', 'b']);
    const frames: ScreenFrame[] = [];
    const loop = new ScreenshotLoop(capturer, 'p', (f) => frames.push(f), () => {}, { minIntervalMs: 0 });
    loop.notePaneOutput();
    await settle();
    expect(calls).toEqual([]); // nobody displays screenshots
    loop.setDisplaying(true);
    await settle();
    loop.notePaneOutput(); // same screen: captured, not sent
    await settle();
    loop.notePaneOutput();
    await settle();
    expect(calls).toEqual([null, 'a', 'a']);
    expect(frames.map((f) => f.hash)).toEqual(['a', 'b']);
    await settle();
    expect(calls.length).toBe(3); // silent pane: no more captures
    expect(frames.map((f) => f.screen.ansi)).toEqual(['screen a', 'screen b']);
    loop.requestFrame(); // explicit request: sent even though identical
    await settle();
    expect(frames.map((f) => f.hash)).toEqual(['a', 'b', 'b']);
    loop.dispose();
  });
});
