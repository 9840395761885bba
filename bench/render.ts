// Screenshot pipeline benchmark on the production path (DESIGN §12): a worker process captures each pane with one tmux
// process per frame and sends the `screen` message; the daemon's part (this process) checks it against the IPC schema
// and draws a phone card in one shared render process (RenderProcessHost, the built bundle when there is one). Typical
// (fixture), dense and CJK screens at 120x40 and 200x60, then eight sessions at once for the render process's memory.
// One JSON object on stdout; everything else on stderr.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultRenderEntry } from '../src/daemon/workers/worker-pool.js';
import { RenderProcessHost } from '../src/platform/render-process.js';
import { WorkerToDaemonSchema } from '../src/shared/ipc.js';
import { installFonts } from '../src/worker/render/fonts.js';
import { runWorkerSide, wallMs, type BenchScreen, type BenchToWorker } from './support/render-worker-side.js';

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
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
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
  parseMs: number;
  paintMs: number;
  encodeMs: number;
  /** Capture start in the worker → PNG in the daemon's hand. */
  totalMs: number;
  bytes: number;
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
  async frames(targets: string[]): Promise<Sample[]> {
    const arrivals = targets.map(() => new Promise<BenchScreen>((r) => this.waiting.push(r)));
    this.worker.send({ type: 'next', targets } satisfies BenchToWorker);
    return Promise.all(arrivals.map(async (arrival) => this.draw(await arrival)));
  }

  private async draw(m: BenchScreen): Promise<Sample> {
    if ('failed' in m) throw new Error(`capture failed: ${m.failed}`);
    this.crossings.screensIn += 1;
    const parsed = WorkerToDaemonSchema.safeParse(m.msg);
    if (!parsed.success || parsed.data.type !== 'screen') throw new Error(`not a screen message: ${parsed.error?.message ?? parsed.data?.type}`);
    const ipcMs = wallMs() - m.startedAt - m.captureMs;
    const r = await this.host.render(parsed.data.screen, 'card');
    if (!r.ok) throw new Error(`render ${m.target} failed: ${r.message}`);
    this.crossings.frames += 1;
    return { captureMs: m.captureMs, ipcMs, ...r.timings, totalMs: wallMs() - m.startedAt, bytes: r.png.length };
  }
}

/** Frames of `targets` one after another (`rounds` times, after warm-up), with the render process's CPU and faults per frame. */
async function measure(daemon: DaemonSide, host: RenderProcessHost, targets: string[], rounds: number) {
  const out: Sample[] = [];
  for (let round = 0; round < ROUNDS.warmup; round++) for (const t of targets) await daemon.frames([t]);
  const before = procCounters(host.pid!);
  for (let round = 0; round < rounds; round++) for (const t of targets) out.push(...(await daemon.frames([t])));
  const after = procCounters(host.pid!);
  const f = (k: keyof Sample) => ({ median: pct(out.map((x) => x[k]), 50), p90: pct(out.map((x) => x[k]), 90), p95: pct(out.map((x) => x[k]), 95) });
  return {
    frames: out.length,
    captureMs: f('captureMs'), ipcMs: f('ipcMs'), parseMs: f('parseMs'), paintMs: f('paintMs'), encodeMs: f('encodeMs'), totalMs: f('totalMs'),
    // The render process's own CPU and page faults per frame: its cost whatever else the machine runs (/proc, 10 ms ticks).
    renderProcessPerFrame: { cpuMs: +((after.cpuMs - before.cpuMs) / out.length).toFixed(2), minorFaults: Math.round((after.minflt - before.minflt) / out.length) },
    pngBytes: { median: pct(out.map((x) => x.bytes), 50), max: Math.max(...out.map((x) => x.bytes)) },
  };
}

/** The render process the daemon runs: the built bundle when `npm run build` made one, else the source under tsx. */
function renderEntry(): { entry: string; kind: 'bundle' | 'source' } {
  const bundle = join(root, 'dist', 'worker', 'bundle', 'render-thread.js');
  return existsSync(bundle) ? { entry: bundle, kind: 'bundle' } : { entry: defaultRenderEntry(), kind: 'source' };
}

/** A fresh render process drawing `targets` (eight sessions' panes) all at once, round after round: its peak and last RSS. */
async function eightSessions(worker: ChildProcess, home: string, targets: string[]) {
  const host = new RenderProcessHost({ entry: renderEntry().entry, home });
  try {
    const daemon = new DaemonSide(worker, host);
    let rssMaxKb = 0;
    for (let round = 0; round < ROUNDS.eightSessions; round++) {
      await daemon.frames(targets);
      rssMaxKb = Math.max(rssMaxKb, procStatus(host.pid!, 'VmRSS'));
    }
    return { peakMb: mb(procStatus(host.pid!, 'VmHWM')), afterRoundsMaxMb: mb(rssMaxKb), frames: daemon.crossings.frames };
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
  const worker = fork(import.meta.filename, ['--worker-side', socket], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

    log(`render process: ${kind} (${entry}); ${fixtures.length} fixtures x ${ROUNDS.fixture}, dense and CJK x ${ROUNDS.big} at two sizes`);
    const eight = await eightSessions(worker, home, fxTargets.filter((_, i) => i % Math.floor(fxTargets.length / 8) === 0).slice(0, 8));
    const daemon = new DaemonSide(worker, host);
    const result = {
      typical120x40: await measure(daemon, host, fxTargets, ROUNDS.fixture),
      dense120x40: await measure(daemon, host, ['dense-small'], ROUNDS.big),
      cjk120x40: await measure(daemon, host, ['cjk-small'], ROUNDS.big),
      dense200x60: await measure(daemon, host, ['dense-big'], ROUNDS.big),
      cjk200x60: await measure(daemon, host, ['cjk-big'], ROUNDS.big),
      ipcCrossingsPerFrame: +((daemon.crossings.screensIn + daemon.crossings.picturesOut) / daemon.crossings.frames).toFixed(2),
      renderProcessRssMb: { eightSessions: eight.peakMb, eightSessionsAfterRoundsMax: eight.afterRoundsMaxMb, afterAllFrames: mb(procStatus(host.pid!, 'VmRSS')) },
      renderProcess: kind,
      loadAverage1m: { start: +load0.toFixed(2), end: +loadavg()[0]!.toFixed(2) },
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    host.dispose();
    worker.send({ type: 'stop' } satisfies BenchToWorker);
    try { tmux('kill-server'); } catch { /* gone */ }
    // tmux leaves the socket file of a killed server behind.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--worker-side') runWorkerSide(process.argv[3]!);
else await bench();
