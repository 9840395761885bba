// Frames of a stream (a session's card) in the real render process: each PNG holds exactly the pixels of the same
// screen encoded alone, while bands whose cells did not change keep their bytes (spinner, scroll, size changes, forget).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFonts } from '../../src/worker/render/fonts.js';
import { RenderThread } from '../../src/worker/render/render-thread-host.js';
import type { CapturedScreen } from '../../src/worker/render/screen-model.js';
import type { ThreadRenderResult } from '../../src/platform/render-process.js';
import { loadScreen } from '../support/reference-painter.js';
import { pngPixels } from '../support/png-scanlines.js';

let home: string;
let thread: RenderThread;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lmx-render-banded-'));
  expect((await installFonts(home)).problems).toEqual([]);
  thread = new RenderThread(home);
});
afterAll(() => {
  thread?.dispose();
  rmSync(home, { recursive: true, force: true });
});

function lines(s: CapturedScreen): string[] {
  return s.ansi.split('\n');
}
/** The screen with row `row` replaced (a spinner or a status line ticking). */
function withRow(s: CapturedScreen, row: number, text: string): CapturedScreen {
  const l = lines(s);
  l[row] = text;
  return { ...s, ansi: l.join('\n') };
}
/** The screen scrolled up by `n` rows: new text at the bottom. */
function scrolled(s: CapturedScreen, n: number, text: string): CapturedScreen {
  const l = lines(s).slice(n);
  while (l.length < s.rows) l.push(text);
  return { ...s, ansi: l.join('\n') };
}
function ok(r: ThreadRenderResult): Extract<ThreadRenderResult, { ok: true }> {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

describe('banded frames of a stream', () => {
  it('decode to the pixels of each screen encoded alone, and reuse the bands of unchanged rows', async () => {
    const idle = loadScreen('claude-04-idle-first');
    const reply = loadScreen('claude-06-reply');
    const spinRow = Math.min(idle.rows - 1, idle.cursor.y);
    const steps: { name: string; screen: CapturedScreen; reuses: 'none' | 'some' | 'any' }[] = [
      { name: 'first frame', screen: idle, reuses: 'none' },
      { name: 'a row ticks', screen: withRow(idle, spinRow, '\x1b[33m✻ Thinking… (3s)\x1b[0m'), reuses: 'some' },
      { name: 'it ticks again', screen: withRow(idle, spinRow, '\x1b[33m✢ Thinking… (4s)\x1b[0m'), reuses: 'some' },
      { name: 'a reply', screen: reply, reuses: 'any' },
      { name: 'the reply scrolls', screen: scrolled(reply, 2, '\x1b[32mmore output 终端\x1b[0m'), reuses: 'any' },
      { name: 'CJK and emoji (another size)', screen: loadScreen('synthetic-cjk-emoji'), reuses: 'any' },
      { name: 'codex', screen: loadScreen('codex-05-reply'), reuses: 'any' },
      { name: 'back to the first', screen: idle, reuses: 'any' },
    ];
    for (const step of steps) {
      const streamed = ok(await thread.render(step.screen, 'card', 's1'));
      const alone = ok(await thread.render(step.screen, 'card'));
      expect(alone.bands, step.name).toBeUndefined();
      const a = pngPixels(streamed.png);
      const b = pngPixels(alone.png);
      expect([step.name, a.width, a.height]).toEqual([step.name, b.width, b.height]);
      expect(a.rgba.equals(b.rgba), step.name).toBe(true);
      const bands = streamed.bands!;
      expect(bands.total, step.name).toBeGreaterThan(1);
      // Nothing kept from before: only the bands equal to one above them in the frame (blank rows) were not deflated.
      if (step.reuses === 'none') expect(bands.reused, step.name).toBe(ok(await thread.render(step.screen, 'card', 'fresh')).bands!.reused);
      // A ticking row changes its own band and its neighbours' (glyphs may reach into them), no more.
      if (step.reuses === 'some') expect(bands.reused, step.name).toBeGreaterThanOrEqual(bands.total - 3);
    }
  });

  it('starts afresh after forget; other streams keep theirs', async () => {
    const s = loadScreen('gemini-04-idle');
    // A first frame deflates each distinct band once: the rest are repeats within it (blank rows).
    const first = ok(await thread.render(s, 'card', 'a')).bands!;
    expect(first.reused).toBeLessThan(first.total / 2);
    ok(await thread.render(s, 'card', 'b'));
    thread.forget('a');
    const a = ok(await thread.render(s, 'card', 'a'));
    const b = ok(await thread.render(s, 'card', 'b'));
    expect(a.bands!.reused).toBe(first.reused);
    expect(b.bands!.reused).toBe(b.bands!.total);
    expect(pngPixels(a.png).rgba.equals(pngPixels(b.png).rgba)).toBe(true);
  });
});
