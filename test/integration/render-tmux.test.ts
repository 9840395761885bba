// The screenshot pipeline against a real tmux server on a private socket.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTmuxSocket } from '../support/tmux.js';
import { buildPalette } from '../../src/worker/render/palette.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { capturePane } from '../../src/worker/render/capture.js';
import { fontReport, installFonts } from '../../src/worker/render/fonts.js';
import { ScreenRenderer } from '../../src/worker/render/screenshot.js';
import { decodePng } from '../support/reference-painter.js';

const socket = testTmuxSocket();
let home: string;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

async function waitForPane(text: string, target = 'r'): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (tmux('capture-pane', '-p', '-t', target).includes(text)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`pane never showed ${text}`);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lmx-render-it-'));
  const script = join(home, 'show.sh');
  writeFileSync(script, [
    "printf '\\033[1;31mred bold\\033[0m 你好 🚀 done\\n'",
    "printf '%%end 1 2 1\\n%%begin 3 4 1\\n'", // lines that look like control-mode guards
    "printf 'READY'",
    'exec sleep 600',
  ].join('\n'));
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'r', '-x', '120', '-y', '40', '-e', 'LANG=C.UTF-8', `sh ${script}`);
  await waitForPane('READY');
});
afterAll(() => {
  try { tmux('kill-server'); } catch { /* already gone */ }
  rmSync(home, { recursive: true, force: true });
});

describe('ScreenRenderer on a live pane', () => {
  it('captures the pane (text that looks like tmux guards included), renders a PNG and skips an unchanged frame', async () => {
    await installFonts(home);
    const runner = new TmuxExecRunner({ socket });
    const captured = await capturePane(runner, 'r');
    expect(captured.ok && captured.screen).toMatchObject({ cols: 120, rows: 40 });
    expect(captured.ok && captured.screen.ansi).toContain('%end 1 2 1');

    const renderer = new ScreenRenderer({ runner, home });
    const first = await renderer.render('r');
    if (!first.ok || !first.changed) throw new Error(`expected a frame: ${JSON.stringify(first)}`);
    const img = await decodePng(first.png);
    // The card frame: cropped to the used rows (the pane is 40 rows, the text far fewer), a margin, a phone scale.
    // A full 120x40 frame would be 1008x720 (1.4:1); a few short rows make a wide, low image with the background at its edge.
    expect(img.width / img.height).toBeGreaterThan(2);
    const bg = buildPalette().background;
    expect([...img.data.subarray(0, 3)]).toEqual([(bg >> 16) & 0xff, (bg >> 8) & 0xff, bg & 0xff]);
    // Row 0 holds "red bold" in bright red (bold brightens colour 1 to 9), inside the margin.
    let red = 0;
    for (let x = 0; x < img.width / 2; x++) for (let y = 0; y < img.height / 4; y++) if (img.data[(y * img.width + x) * 4] === 0xf1 && img.data[(y * img.width + x) * 4 + 1] === 0x4c) red++;
    expect(red).toBeGreaterThan(10);
    const again = await renderer.render('r', first.hash);
    expect(again).toMatchObject({ ok: true, changed: false, hash: first.hash });
    expect(await renderer.render('nosuch')).toMatchObject({ ok: false, code: 'pane-gone' });
    renderer.dispose();
    runner.dispose();
  });

  it('fontReport names the file for each tier, from LARKMUX_HOME/fonts first', async () => {
    const tiers = fontReport(home);
    expect(tiers.map((t) => t.tier)).toEqual(['latin', 'symbols', 'cjk', 'emoji']);
    expect(tiers.every((t) => t.ok)).toBe(true);
    expect(tiers.find((t) => t.tier === 'cjk')!.file).toBe(join(home, 'fonts', 'NotoSansMonoCJKsc-Regular.otf'));
    const empty = mkdtempSync(join(tmpdir(), 'lmx-render-empty-'));
    try {
      // No fonts step: the SC face is copied out of the system .ttc on the first screenshot (render-sc-forms.test.ts).
      const cjk = fontReport(empty).find((t) => t.tier === 'cjk')!;
      expect(cjk).toMatchObject({ ok: true, file: expect.stringMatching(/NotoSansCJK-Regular\.ttc$/), note: expect.stringContaining('Simplified Chinese') });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
