// Screenshot pipeline benchmark: fixture screens (120x40) and dense / CJK screens (200x60) in real tmux panes via the control client.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { TmuxControlClient } from '../src/worker/backend/tmux-control.js';
import { installFonts } from '../src/worker/render/fonts.js';
import { ScreenRenderer, type RenderTimings } from '../src/worker/render/screenshot.js';
import { ScreenModel } from '../src/worker/render/screen-model.js';
import { RunPainter } from '../src/worker/render/painter.js';
import { capturePane } from '../src/worker/render/capture.js';

const ROUNDS = { fixture: 3, big: 30, warmup: 3 } as const;
const socket = `lmx-bench-${randomBytes(4).toString('hex')}`;
const home = mkdtempSync(join(tmpdir(), 'lmx-bench-render-'));
const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
const log = (s: string) => process.stderr.write(`${s}\n`);

function denseScreen(cols: number, rows: number): string {
  const words = ['const', 'render', 'screen', 'buffer', 'value', 'return', 'await', 'frame', 'pixel', 'cursor'];
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    let len = 0;
    for (let k = 0; len < cols; k++) {
      const w = words[(r * 7 + k) % words.length]!;
      const take = Math.min(w.length + 1, cols - len);
      line += `\x1b[${k % 5 === 0 ? '1;' : ''}38;5;${16 + ((r * 31 + k * 17) % 216)}m${`${w} `.slice(0, take)}\x1b[0m`;
      len += take;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

function cjkScreen(cols: number, rows: number): string {
  const han = '终端截图渲染器把一个屏幕画成图片发送到手机上用户在飞书里查看代码助手的工作进度因此中文字形必须使用简体';
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let s = '';
    for (let c = 0; c < cols / 2; c++) s += han[(r * 3 + c) % han.length];
    lines.push(`\x1b[38;5;${16 + ((r * 13) % 216)}m${s}\x1b[0m`);
  }
  return lines.join('\n');
}

function openPane(name: string, content: string, cols: number, rows: number): void {
  const file = join(home, `${name}.vt`);
  writeFileSync(file, content); // no trailing newline: a 40th \n would scroll the top row away
  tmux('new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-e', 'LANG=C.UTF-8', `cat '${file}'; exec sleep 3600`);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2) : 0;
};

interface Sample extends RenderTimings { bytes: number; blockingMs: number; cpuMs: number }

async function measure(renderer: ScreenRenderer, targets: string[], rounds: number): Promise<Sample[]> {
  const hist = monitorEventLoopDelay({ resolution: 1 });
  hist.enable();
  const out: Sample[] = [];
  for (let round = 0; round < rounds + ROUNDS.warmup; round++) {
    for (const t of targets) {
      hist.reset();
      const cpu0 = process.cpuUsage();
      const r = await renderer.render(t);
      const cpu = process.cpuUsage(cpu0);
      await new Promise((res) => setImmediate(res));
      if (!r.ok || !r.changed) throw new Error(`render ${t} failed: ${JSON.stringify(r)}`);
      if (round >= ROUNDS.warmup) out.push({ ...r.timings, bytes: r.png.length, blockingMs: Math.max(0, hist.max / 1e6 - 1), cpuMs: (cpu.user + cpu.system) / 1000 });
    }
  }
  hist.disable();
  return out;
}

function summarise(s: Sample[]) {
  const f = (k: keyof Sample) => ({ median: pct(s.map((x) => x[k]), 50), p90: pct(s.map((x) => x[k]), 90) });
  return {
    frames: s.length,
    captureMs: f('captureMs'), parseMs: f('parseMs'), paintMs: f('paintMs'), encodeMs: f('encodeMs'), totalMs: f('totalMs'),
    eventLoopBlockingMs: f('blockingMs'),
    // CPU time of this process per frame (main thread + libuv pool): the cost, independent of other load on the machine.
    cpuMs: f('cpuMs'),
    pngBytes: { median: pct(s.map((x) => x.bytes), 50), max: Math.max(...s.map((x) => x.bytes)) },
  };
}

/** Skia's own PNG encoder on the same canvases, for the encoder choice (see png-writer.ts). */
async function skiaEncode(targets: string[], runner: TmuxControlClient) {
  const model = new ScreenModel();
  const painter = new RunPainter();
  const ms: number[] = [];
  const bytes: number[] = [];
  for (const t of targets) {
    const cap = await capturePane(runner, t);
    if (!cap.ok) throw new Error(cap.message);
    const canvas = painter.paint(await model.load(cap.screen));
    const t0 = performance.now();
    const png = await canvas.encode('png');
    ms.push(performance.now() - t0);
    bytes.push(png.length);
  }
  model.dispose();
  return { encodeMs: { median: pct(ms, 50), p90: pct(ms, 90) }, pngBytes: { median: pct(bytes, 50) } };
}

try {
  const installed = await installFonts(home);
  if (!installed.ok) log(`font problems: ${JSON.stringify(installed.problems)}`);
  const fixturesDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'screens');
  const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.esc.txt')).sort();
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ctl', '-x', '80', '-y', '24');
  fixtures.forEach((f, i) => openPane(`fx${i}`, readFileSync(join(fixturesDir, f), 'utf8').replace(/\n$/, ''), 120, 40));
  openPane('dense', denseScreen(200, 60), 200, 60);
  openPane('cjk', cjkScreen(200, 60), 200, 60);
  await new Promise((r) => setTimeout(r, 500)); // let the panes print
  const started = await TmuxControlClient.start({ socket, session: 'ctl' });
  if (!started.ok) throw new Error(started.message);
  const renderer = new ScreenRenderer({ runner: started.client, home });
  const fxTargets = fixtures.map((_, i) => `fx${i}`);
  log(`rendering ${fixtures.length} fixtures x ${ROUNDS.fixture}, dense and CJK x ${ROUNDS.big}`);
  const typical = summarise(await measure(renderer, fxTargets, ROUNDS.fixture));
  const dense = summarise(await measure(renderer, ['dense'], ROUNDS.big));
  const cjk = summarise(await measure(renderer, ['cjk'], ROUNDS.big));
  const skia = {
    fixtures120x40: await skiaEncode(fxTargets, started.client),
    dense200x60: await skiaEncode(Array(10).fill('dense'), started.client),
    cjk200x60: await skiaEncode(Array(10).fill('cjk'), started.client),
  };
  const mem = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({
    fixtures120x40: typical,
    dense200x60: dense,
    cjk200x60: cjk,
    skiaPngEncoderForComparison: skia,
    rssMb: +(mem.rss / 2 ** 20).toFixed(1),
    heapUsedMb: +(mem.heapUsed / 2 ** 20).toFixed(1),
  })}\n`);
  renderer.dispose();
  started.client.dispose();
} finally {
  try { tmux('kill-server'); } catch { /* gone */ }
  rmSync(home, { recursive: true, force: true });
}
