// Screenshot pipeline benchmark: typical (fixture) and dense / CJK screens at 120x40 and 200x60, in real tmux panes via the control client.
import { execFileSync, execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { TmuxControlClient } from '../src/worker/backend/tmux-control.js';
import { installFonts } from '../src/worker/render/fonts.js';
import { ScreenRenderer, type RenderTimings } from '../src/worker/render/screenshot.js';

const ROUNDS = { fixture: 2, big: 25, warmup: 3, rssRenders: 50 } as const;
const SIZES = { small: [120, 40], big: [200, 60] } as const;
const socket = `lmx-bench-${randomBytes(4).toString('hex')}`;
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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2) : 0;
};

interface Sample extends Required<RenderTimings> {
  bytes: number;
  eluActiveMs: number;
  loopDelayMaxMs: number;
  cpuMs: number;
}

/** Renders each target `rounds` times (after warm-up) and measures the main thread three ways (see summarise). */
async function measure(renderer: ScreenRenderer, targets: string[], rounds: number): Promise<Sample[]> {
  const hist = monitorEventLoopDelay({ resolution: 1 });
  hist.enable();
  const out: Sample[] = [];
  for (let round = 0; round < rounds + ROUNDS.warmup; round++) {
    for (const t of targets) {
      await new Promise((res) => setImmediate(res));
      hist.reset();
      const elu0 = performance.eventLoopUtilization();
      const cpu0 = process.cpuUsage();
      const r = await renderer.render(t);
      const cpu = process.cpuUsage(cpu0);
      const elu = performance.eventLoopUtilization(elu0);
      await new Promise((res) => setImmediate(res));
      if (!r.ok || !r.changed) throw new Error(`render ${t} failed: ${JSON.stringify(r)}`);
      if (round < ROUNDS.warmup) continue;
      out.push({
        ...r.timings,
        mainThreadMs: r.timings.mainThreadMs ?? Number.NaN,
        bytes: r.png.length,
        eluActiveMs: elu.active,
        loopDelayMaxMs: Math.max(0, hist.max / 1e6 - 1),
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
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
    // Event-loop blocking per frame, three ways: the synchronous sections of render() timed directly; the main thread's busy
    // time over the whole frame (eventLoopUtilization: includes the control client's reply parsing, excludes idle waiting);
    // and the event-loop delay histogram's max, which also counts time this process waited for a core (other load).
    blocking: { syncSectionsMs: f('mainThreadMs'), mainThreadBusyMs: f('eluActiveMs'), eventLoopDelayMaxMs: f('loopDelayMaxMs') },
    // CPU time of this process per frame (main thread + render thread + libuv pool): the cost, independent of other load.
    cpuMs: f('cpuMs'),
    pngBytes: { median: pct(s.map((x) => x.bytes), 50), max: Math.max(...s.map((x) => x.bytes)) },
  };
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

/**
 * Worker-realistic memory: a fresh process with one renderer for one 120x40 pane, after 50 renders of changing fixture
 * screens (the bench process itself holds panes of two sizes and more state). Runs this file with --rss-probe.
 */
async function probeRss(): Promise<void> {
  const home = process.argv[3]!;
  const started = await TmuxControlClient.start({ socket: process.argv[4]!, session: 'ctl' });
  if (!started.ok) throw new Error(started.message);
  const renderer = new ScreenRenderer({ runner: started.client, home });
  const targets = process.argv.slice(5);
  for (let i = 0; i < ROUNDS.rssRenders; i++) {
    const r = await renderer.render(targets[i % targets.length]!);
    if (!r.ok) throw new Error(r.message);
  }
  const m = process.memoryUsage();
  process.stdout.write(JSON.stringify({ rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), renders: ROUNDS.rssRenders }));
  renderer.dispose();
  started.client.dispose();
}

/**
 * Bundles this file and the render thread with esbuild (packages external) into `home`, so the probe runs compiled JavaScript
 * like a deployed worker does: no tsx loader in either thread. Returns the bundled entry.
 */
async function bundleForRssProbe(home: string): Promise<string> {
  const { build } = await import('esbuild');
  const out = join(home, 'compiled');
  const root = join(import.meta.dirname, '..');
  await build({
    entryPoints: { render: import.meta.filename, 'render-thread': join(root, 'src', 'worker', 'render', 'render-thread.ts') },
    bundle: true, format: 'esm', platform: 'node', packages: 'external', outdir: out, outExtension: { '.js': '.mjs' }, logLevel: 'warning',
  });
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  // The host starts `./render-thread.js` beside itself (here: beside the bundle).
  renameSync(join(out, 'render-thread.mjs'), join(out, 'render-thread.js'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  return join(out, 'render.mjs');
}

async function bench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'lmx-bench-render-'));
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const openPane = (name: string, content: string, [cols, rows]: readonly [number, number]) => {
    const file = join(home, `${name}.vt`);
    writeFileSync(file, content); // no trailing newline: a last \n would scroll the top row away
    tmux('new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-e', 'LANG=C.UTF-8', `cat '${file}'; exec sleep 3600`);
  };
  const load0 = loadavg()[0]!;
  try {
    const installed = await installFonts(home);
    if (!installed.ok) log(`font problems: ${JSON.stringify(installed.problems)}`);
    const fixturesDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'screens');
    const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.esc.txt')).sort();
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ctl', '-x', '80', '-y', '24');
    fixtures.forEach((f, i) => openPane(`fx${i}`, readFileSync(join(fixturesDir, f), 'utf8').replace(/\n$/, ''), SIZES.small));
    for (const [size, dims] of Object.entries(SIZES)) {
      openPane(`dense-${size}`, denseScreen(dims[0], dims[1]), dims);
      openPane(`cjk-${size}`, cjkScreen(dims[0], dims[1]), dims);
    }
    await new Promise((r) => setTimeout(r, 500)); // let the panes print
    const fxTargets = fixtures.map((_, i) => `fx${i}`);

    // Memory first, in its own process, before this one warms up: from source (tsx in both threads) and compiled, as a worker runs.
    const probe = (argv: string[]) => new Promise<unknown>((resolve, reject) =>
      execFile(process.execPath, [...argv, '--rss-probe', home, socket, ...fxTargets], (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout)))),
    );
    const rss = { fromSource: await probe([...process.execArgv, import.meta.filename]), compiled: await probe([await bundleForRssProbe(home)]) };

    const started = await TmuxControlClient.start({ socket, session: 'ctl' });
    if (!started.ok) throw new Error(started.message);
    const renderer = new ScreenRenderer({ runner: started.client, home });
    log(`rendering ${fixtures.length} fixtures x ${ROUNDS.fixture}, dense and CJK x ${ROUNDS.big} at two sizes`);
    const result = {
      typical120x40: summarise(await measure(renderer, fxTargets, ROUNDS.fixture)),
      dense120x40: summarise(await measure(renderer, ['dense-small'], ROUNDS.big)),
      cjk120x40: summarise(await measure(renderer, ['cjk-small'], ROUNDS.big)),
      dense200x60: summarise(await measure(renderer, ['dense-big'], ROUNDS.big)),
      cjk200x60: summarise(await measure(renderer, ['cjk-big'], ROUNDS.big)),
      workerRss: rss,
      benchProcessRssMb: mb(process.memoryUsage().rss),
      loadAverage1m: { start: +load0.toFixed(2), end: +loadavg()[0]!.toFixed(2) },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    renderer.dispose();
    started.client.dispose();
  } finally {
    try { tmux('kill-server'); } catch { /* gone */ }
    // tmux leaves the socket file of a killed server behind.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--rss-probe') await probeRss();
else await bench();
