// A card image on a phone: the PNG the worker renders from a real tmux pane, shown in real Chromium at 390×844 at the
// card's image width, must show its text at ≥ 11 CSS px per glyph (issue 15 acceptance), for wide and narrow panes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { CARD_IMAGE, type FrameLayout } from '../../src/worker/render/card-frame.js';
import { loadFonts } from '../../src/worker/render/fonts.js';
import { RunPainter } from '../../src/worker/render/painter.js';
import type { FrameKind } from '../../src/shared/render-protocol.js';
import { ScreenRenderer } from '../../src/worker/render/screenshot.js';
import { launchChromium } from '../support/browser.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const READABLE_CSS_PX = 11;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const;
/** Screenshots a person checks by eye (named in the issue's closing note). */
const SHOTS = '/tmp/phonecard-shots';

let tmux: TestTmuxServer;
let home: string;
let renderer: ScreenRenderer;
let browser: Browser;
/** The render thread's cell geometry: the same fonts registered here give the same measurements. */
let metrics: RunPainter['metrics'];

async function showInPane(session: string, cols: number, rows: number, script: string, ready: string): Promise<void> {
  const file = join(home, `${session}.sh`);
  writeFileSync(file, script);
  const r = await tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', String(cols), '-y', String(rows), '-e', 'LANG=C.UTF-8', `sh ${file}`]);
  if (r.code !== 0) throw new Error(r.stderr);
  for (let i = 0; i < 400; i++) {
    if ((await tmux.run(['capture-pane', '-p', '-t', `=${session}:`])).stdout.includes(ready)) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`pane ${session} never showed ${ready}`);
}

/** Renders the pane as the worker does and shows the PNG on a 390×844 phone page at the card's image width. */
async function onPhone(session: string, kind: FrameKind, shot: string): Promise<{ glyphCssPx: number; frame: FrameLayout; natural: { w: number; h: number } }> {
  const r = await renderer.render(`=${session}:`, null, kind);
  if (!r.ok || !r.changed) throw new Error(`render failed: ${JSON.stringify(r)}`);
  writeFileSync(join(SHOTS, `${shot}.raw.png`), r.png);
  const ctx = await browser.newContext(PHONE);
  try {
    const page = await ctx.newPage();
    const src = `data:image/png;base64,${r.png.toString('base64')}`;
    // The card: the phone's width minus Feishu's inset, the image `fit_horizontal` inside it.
    await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width,initial-scale=1">
      <body style="margin:0;background:#f2f3f5;font-family:sans-serif">
      <div style="width:${CARD_IMAGE.cardCssPx}px;margin:12px auto;background:#fff;border-radius:8px;padding:0 0 8px">
        <div style="padding:10px 12px;background:#3370ff;color:#fff;border-radius:8px 8px 0 0">Claude · 运行中</div>
        <img id="shot" src="${src}" style="display:block;width:100%">
      </div></body>`);
    await page.waitForFunction(() => (document.getElementById('shot') as HTMLImageElement).complete);
    const m = await page.evaluate(() => {
      const img = document.getElementById('shot') as HTMLImageElement;
      return { naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, shownWidth: img.getBoundingClientRect().width };
    });
    await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
    // The PNG's cell geometry: its size is exactly the frame's cells, margin and scale (so the scale below is the PNG's own).
    expect(m.naturalWidth).toBe((Math.round(r.frame.cols * metrics.cellWidth) + 2 * r.frame.marginPx) * r.frame.scale);
    expect(m.naturalHeight).toBe((r.frame.rows * metrics.cellHeight + 2 * r.frame.marginPx) * r.frame.scale);
    const displayScale = m.shownWidth / m.naturalWidth;
    return { glyphCssPx: metrics.fontPx * r.frame.scale * displayScale, frame: r.frame, natural: { w: m.naturalWidth, h: m.naturalHeight } };
  } finally {
    await ctx.close();
  }
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'lmx-phonecard-'));
  loadFonts(home);
  metrics = new RunPainter().metrics;
  tmux = makeTmuxServer();
  // 120×40 fixtures without their final newline, so nothing scrolls: long CJK lines, colours, rules and the composer at
  // the bottom; and Claude's box-drawing welcome frame above a permission prompt.
  for (const [session, name, ready] of [['wide', 'synthetic-cjk-emoji', '提示：按'], ['box', 'claude197-02-permission', 'Esc to cancel'], ['reply', 'claude-18-multiline-reply', 'manual mode on']] as const) {
    const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'screens', `${name}.esc.txt`), 'utf8');
    writeFileSync(join(home, `${session}.txt`), fixture.replace(/\n+$/, ''));
    await showInPane(session, 120, 40, `cat ${join(home, `${session}.txt`)}; exec sleep 600\n`, ready);
  }
  await showInPane('narrow', 44, 20, [
    "printf '$ git status\\n'",
    "printf 'On branch main 在 main 分支上\\n'",
    "printf '\\033[32mmodified:   src/渲染器.ts\\033[0m\\n'",
    "printf 'NARROW-READY'",
    'exec sleep 600',
  ].join('\n'), 'NARROW-READY');
  renderer = new ScreenRenderer({ runner: new TmuxExecRunner({ socket: tmux.socket }), home });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  renderer?.dispose();
  await tmux?.kill();
  rmSync(home, { recursive: true, force: true });
});

describe('card image on a 390×844 phone', () => {
  it('a 120-column screen of long lines shows its text at ≥ 11 CSS px in the default (phone) frame', async () => {
    const shown = await onPhone('wide', 'card', 'wide-120-phone');
    expect(shown.glyphCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
    // Within Feishu's recommended image size (≤ 1500×3000 px, height:width ≤ 16:9, with a row's slack).
    expect(shown.natural.w).toBeLessThanOrEqual(1500);
    expect(shown.natural.h).toBeLessThanOrEqual(3000);
    expect(shown.natural.h / shown.natural.w).toBeLessThanOrEqual(CARD_IMAGE.maxHeightToWidth + 0.05);
  });

  it('a box-drawing TUI frame above a prompt shows at ≥ 11 CSS px', async () => {
    const shown = await onPhone('box', 'card', 'box-120-phone');
    expect(shown.glyphCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
  });

  it('a Claude reply keeps its composer and status line (⏸) at the bottom, at ≥ 11 CSS px', async () => {
    const shown = await onPhone('reply', 'card', 'reply-120-phone');
    expect(shown.glyphCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
  });

  it('the wide frame (full width, the old default) is what was unreadable', async () => {
    const shown = await onPhone('wide', 'wide', 'wide-120-fullwidth');
    expect(shown.frame.cols).toBe(120);
    expect(shown.glyphCssPx).toBeLessThan(READABLE_CSS_PX);
  });

  it('a narrow pane shows its text at ≥ 11 CSS px too', async () => {
    const shown = await onPhone('narrow', 'card', 'narrow-44-phone');
    expect(shown.frame.cols).toBeLessThanOrEqual(44);
    expect(shown.glyphCssPx).toBeGreaterThanOrEqual(READABLE_CSS_PX);
  });
});
