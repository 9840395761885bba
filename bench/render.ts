// Screenshot pipeline benchmark on the production path (DESIGN §12): a worker process captures each pane with one tmux
// process per frame and sends the `screen` message; the daemon's part (this process) checks it against the IPC schema
// and draws a phone card in one shared render process (RenderProcessHost, the built bundle when there is one). Typical
// (fixture), dense and CJK screens at 120x40 and 200x60, then eight sessions at once for the render process's memory.
// One JSON object on stdout; everything else on stderr.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultRenderEntry } from '../src/daemon/workers/worker-pool.js';
import { RenderProcessHost } from '../src/platform/render-process.js';
import { WorkerToDaemonSchema } from '../src/shared/ipc.js';
import { installFonts } from '../src/worker/render/fonts.js';
import { build } from 'esbuild';
import { forkWorkerProcess } from '../src/platform/worker-process.js';
import { wallMs, type BenchScreen, type BenchToWorker } from './support/render-worker-side.js';
import { tmuxSocketPath } from '../test/support/tmux.js';

const ROUNDS = { fixture: 3, big: 20, warmup: 2, eightSessions: 8 } as const;
const SIZES = { small: [120, 40], big: [200, 60] } as const;
const socket = `lmx-bench-${randomBytes(4).toString('hex')}`;
const root = join(import.meta.dirname, '..');
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
const mb = (kb: number) => +(kb / 1024).toFixed(1);

/** A field of /proc/<pid>/status in kB, or /proc/<pid>/stat counters: minor faults and CPU ticks (Linux; else NaN). */
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssFile'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return Number.NaN;
  }
}
function procCounters(pid: number): { minflt: number; cpuMs: number } {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { minflt: Number(f[7]), cpuMs: (Number(f[11]) + Number(f[12])) * 10 };
  } catch {
    return { minflt: Number.NaN, cpuMs: Number.NaN };
  }
}

interface Sample {
  captureMs: number;
  /** Worker → daemon: the screen message's trip and its schema check. */
  ipcMs: number;
  /** Daemon → render process → daemon: the screen's and the PNG's trips and the wait in its queue (the time the daemon waited beyond the render process's own parse + paint + encode). */
  handoffMs: number;
  parseMs: number;
  paintMs: number;
  encodeMs: number;
  /** Capture start in the worker → PNG in the daemon's hand. */
  totalMs: number;
  bytes: number;
  /** Bands of the frame and how many kept their compressed bytes from the stream's previous frame. */
  bands: number;
  bandsReused: number;
}

/** What the daemon draws a capture as: a session's stream (SessionCards passes its id), started afresh when `fresh`. */
interface Draw {
  target: string;
  stream: string;
  fresh?: boolean;
}

/** The daemon's half: receives screens from the worker process, draws each in the shared render process. */
class DaemonSide {
  /** Messages that crossed between worker and daemon for frames: screens in, pictures back (none, by design). */
  readonly crossings = { screensIn: 0, picturesOut: 0, frames: 0 };
  private waiting: ((s: BenchScreen) => void)[] = [];

  constructor(private readonly worker: ChildProcess, private readonly host: RenderProcessHost) {
    worker.on('message', (m: BenchScreen) => this.waiting.shift()?.(m));
  }

  /** One capture of each target, drawn as the daemon draws a card: all in flight together, one render process. */
  async frames(draws: Draw[]): Promise<Sample[]> {
    const arrivals = draws.map(() => new Promise<BenchScreen>((r) => this.waiting.push(r)));
    this.worker.send({ type: 'next', targets: draws.map((d) => d.target) } satisfies BenchToWorker);
    return Promise.all(arrivals.map(async (arrival, i) => this.draw(await arrival, draws[i]!)));
  }

  private async draw(m: BenchScreen, d: Draw): Promise<Sample> {
    if ('failed' in m) throw new Error(`capture failed: ${m.failed}`);
    this.crossings.screensIn += 1;
    const parsed = WorkerToDaemonSchema.safeParse(m.msg);
    if (!parsed.success || parsed.data.type !== 'screen') throw new Error(`not a screen message: ${parsed.error?.message ?? parsed.data?.type}`);
    const ipcMs = wallMs() - m.startedAt - m.captureMs;
    // forget goes to the render process before the frame, on the same channel: the frame starts with no bands.
    if (d.fresh) this.host.forget(d.stream);
    const asked = wallMs();
    const r = await this.host.render(parsed.data.screen, 'card', d.stream);
    if (!r.ok) throw new Error(`render ${m.target} failed: ${r.message}`);
    const handoffMs = wallMs() - asked - (r.timings.parseMs + r.timings.paintMs + r.timings.encodeMs);
    this.crossings.frames += 1;
    const bands = r.bands ?? { total: 1, reused: 0 };
    return { captureMs: m.captureMs, ipcMs, handoffMs, ...r.timings, totalMs: wallMs() - m.startedAt, bytes: r.png.length, bands: bands.total, bandsReused: bands.reused };
  }
}

/** Frames of `draws` one after another (`rounds` times, after warm-up), with the render process's CPU and faults per frame. */
async function measure(daemon: DaemonSide, host: RenderProcessHost, draws: Draw[], rounds: number) {
  const out: Sample[] = [];
  for (let round = 0; round < ROUNDS.warmup; round++) for (const d of draws) await daemon.frames([d]);
  const before = procCounters(host.pid!);
  for (let round = 0; round < rounds; round++) for (const d of draws) out.push(...(await daemon.frames([d])));
  const after = procCounters(host.pid!);
  const f = (k: keyof Sample) => ({ median: pct(out.map((x) => x[k]), 50), p90: pct(out.map((x) => x[k]), 90), p95: pct(out.map((x) => x[k]), 95) });
  return {
    frames: out.length,
    captureMs: f('captureMs'), ipcMs: f('ipcMs'), handoffMs: f('handoffMs'), parseMs: f('parseMs'), paintMs: f('paintMs'), encodeMs: f('encodeMs'), totalMs: f('totalMs'),
    // The render process's own CPU and page faults per frame: its cost whatever else the machine runs (/proc, 10 ms ticks).
    renderProcessPerFrame: { cpuMs: +((after.cpuMs - before.cpuMs) / out.length).toFixed(2), minorFaults: Math.round((after.minflt - before.minflt) / out.length) },
    pngBytes: { median: pct(out.map((x) => x.bytes), 50), max: Math.max(...out.map((x) => x.bytes)) },
    bandsReusedShare: +(out.reduce((n, x) => n + x.bandsReused, 0) / Math.max(1, out.reduce((n, x) => n + x.bands, 0))).toFixed(3),
  };
}

/** The first frame of a session (no bands kept: every band painted and deflated), one per target: median and p95. */
async function coldFrames(daemon: DaemonSide, targets: string[]) {
  const totals: number[] = [];
  for (const target of targets) totals.push(...(await daemon.frames([{ target, stream: `cold-${target}`, fresh: true }])).map((x) => x.totalMs));
  return { median: pct(totals, 50), p95: pct(totals, 95) };
}

/** The render process the daemon runs: the built bundle when `npm run build` made one, else the source under tsx. */
function renderEntry(): { entry: string; kind: 'bundle' | 'source' } {
  const bundle = join(root, 'dist', 'worker', 'bundle', 'render-thread.js');
  return existsSync(bundle) ? { entry: bundle, kind: 'bundle' } : { entry: defaultRenderEntry(), kind: 'source' };
}

/**
 * The worker's half, started as production starts a worker: a bundle (not sources under tsx) forked with the worker's
 * V8 flags and malloc settings (forkWorkerProcess), capturing through the worker's capture runner (its tmux clients
 * started by a small sh, TmuxLauncher, not forked from this process). A real worker holds 57 MB idle and 62 MB after
 * 50 frames (`bench -- idle`), a little more than this one: `workerSideRssMb` in the result says which was measured.
 */
async function startWorkerSide(home: string): Promise<ChildProcess> {
  const outfile = join(home, 'render-worker-side.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'support', 'render-worker-main.ts')],
    bundle: true, format: 'esm', platform: 'node', target: ['node20'], outfile, logLevel: 'warning',
    banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  });
  const { child, stderrTail } = forkWorkerProcess(outfile, process.env, { LARKMUX_BENCH_TMUX_SOCKET: socket }, 'bench-render');
  child.on('exit', (code, signal) => { if (code || signal) log(`worker side ended (${code ?? signal}): ${stderrTail()}`); });
  return child;
}

/**
 * A fresh render process drawing eight sessions' frames (screens of `targets`) all at once, round after round: its peak
 * RSS, the highest RSS read after a round, and its file-backed RSS at the end. With `cjk`, session 0 draws that screen
 * every other round, as a Chinese-speaking user's session shows Chinese: the CJK face file's pages become resident as
 * hanzi are drawn (measured in this render process: 5.8 MB of the 16 MB file after the Latin rounds, which show the
 * 310-hanzi fixture now and then; all of it after these). Most of that is the kernel mapping the cached pages around
 * each page read (fault-around): 310 one-byte reads at random offsets of the 19 MB collection left 12.6 MB resident.
 */
async function eightSessions(worker: ChildProcess, home: string, targets: string[], cjk?: string) {
  const host = new RenderProcessHost({ entry: renderEntry().entry, home });
  try {
    const daemon = new DaemonSide(worker, host);
    let rssMaxKb = 0;
    for (let round = 0; round < ROUNDS.eightSessions; round++) {
      // Session k draws a different screen each round (its stream's bands mostly change), as busy sessions do.
      await daemon.frames(Array.from({ length: 8 }, (_, k) => ({ target: cjk && k === 0 && round % 2 === 0 ? cjk : targets[(k * 7 + round) % targets.length]!, stream: `session-${k}` })));
      rssMaxKb = Math.max(rssMaxKb, procStatus(host.pid!, 'VmRSS'));
    }
    // File-backed pages (node's binary ~40 MB, the canvas library ~9, font files): shared with the page cache and other
    // node processes, but counted in RSS; the rest is the process's own memory.
    return { peakMb: mb(procStatus(host.pid!, 'VmHWM')), afterRoundsMaxMb: mb(rssMaxKb), fileBackedMb: mb(procStatus(host.pid!, 'RssFile')), frames: daemon.crossings.frames };
  } finally {
    host.dispose();
  }
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
  const worker = await startWorkerSide(home);
  const { entry, kind } = renderEntry();
  const host = new RenderProcessHost({ entry, home });
  try {
    const installed = await installFonts(home);
    if (!installed.ok) log(`font problems: ${JSON.stringify(installed.problems)}`);
    const fixturesDir = join(root, 'test', 'fixtures', 'screens');
    const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.esc.txt')).sort();
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'ctl', '-x', '80', '-y', '24');
    fixtures.forEach((f, i) => openPane(`fx${i}`, readFileSync(join(fixturesDir, f), 'utf8').replace(/\n$/, ''), SIZES.small));
    for (const [size, dims] of Object.entries(SIZES)) {
      openPane(`dense-${size}`, denseScreen(dims[0], dims[1]), dims);
      openPane(`cjk-${size}`, cjkScreen(dims[0], dims[1]), dims);
    }
    await new Promise((r) => setTimeout(r, 500)); // let the panes print
    const fxTargets = fixtures.map((_, i) => `fx${i}`);
    // The fixtures are screens of real sessions in order (claude-01 … claude-28, codex-00 …): one stream per CLI, so a
    // frame follows the screen before it in that session, as a card's frames do (rounds start the sequence again).
    const fxDraws = fixtures.map((f, i) => ({ target: `fx${i}`, stream: f.replace(/-.*/, '') }));
    // The dense and CJK panes never change, and a worker never sends an unchanged screen: each of their frames starts
    // its stream afresh, i.e. it is measured as a screen that changed everywhere.
    const whole = (target: string): Draw[] => [{ target, stream: target, fresh: true }];

    log(`render process: ${kind} (${entry}); ${fixtures.length} fixtures x ${ROUNDS.fixture}, dense and CJK x ${ROUNDS.big} at two sizes`);
    const eight = await eightSessions(worker, home, fxTargets);
    const cjkFixture = fixtures.findIndex((f) => f.startsWith('synthetic-cjk'));
    const eightCjk = cjkFixture >= 0 ? await eightSessions(worker, home, fxTargets, `fx${cjkFixture}`) : null;
    const daemon = new DaemonSide(worker, host);
    const result = {
      typical120x40: await measure(daemon, host, fxDraws, ROUNDS.fixture),
      coldTotalMs: await coldFrames(daemon, fxTargets),
      dense120x40: await measure(daemon, host, whole('dense-small'), ROUNDS.big),
      cjk120x40: await measure(daemon, host, whole('cjk-small'), ROUNDS.big),
      dense200x60: await measure(daemon, host, whole('dense-big'), ROUNDS.big),
      cjk200x60: await measure(daemon, host, whole('cjk-big'), ROUNDS.big),
      ipcCrossingsPerFrame: +((daemon.crossings.screensIn + daemon.crossings.picturesOut) / daemon.crossings.frames).toFixed(2),
      renderProcessRssMb: { eightSessions: eight.peakMb, eightSessionsAfterRoundsMax: eight.afterRoundsMaxMb, ...(eightCjk ? { eightSessionsWithCjk: eightCjk.peakMb } : {}), afterAllFrames: mb(procStatus(host.pid!, 'VmRSS')), fileBacked: { eightSessions: eight.fileBackedMb, ...(eightCjk ? { eightSessionsWithCjk: eightCjk.fileBackedMb } : {}) } },
      renderProcess: kind,
      workerSideRssMb: mb(procStatus(worker.pid!, 'VmHWM')),
      loadAverage1m: { start: +load0.toFixed(2), end: +loadavg()[0]!.toFixed(2) },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    host.dispose();
    worker.send({ type: 'stop' } satisfies BenchToWorker);
    try { tmux('kill-server'); } catch { /* gone */ }
    rmSync(tmuxSocketPath(socket), { force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

await bench();
