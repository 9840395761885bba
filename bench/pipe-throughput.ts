// Bench: pane throughput of `seq 1 3000000` with and without a PipePaneObserver attached (the issue wants ratio ≥ 0.9).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSessionId } from '../src/shared/session-key.js';
import { TmuxBackend } from '../src/worker/backend/tmux.js';
import { tmuxSocketPath } from '../test/support/tmux.js';

const SEQ_MAX = 3_000_000;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

/** without: no pipe; devnull: `pipe-pane 'cat > /dev/null'` (tmux's own cost of a pipe); with: our observer. */
type Mode = 'without' | 'devnull' | 'with';
const MODES: readonly Mode[] = ['without', 'devnull', 'with'];

/** Bytes the pane prints for `seq 1 SEQ_MAX`, lines ending in \r\n after the tty's ONLCR. */
function seqBytes(max: number): number {
  let total = 0;
  for (let digits = 1, lo = 1; lo <= max; digits++, lo *= 10) total += (Math.min(max, lo * 10 - 1) - lo + 1) * (digits + 2);
  return total;
}

function tmux(socket: string, args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-L', socket, ...args], { timeout: timeoutMs }, (err) => (err ? reject(err) : resolve()));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(): Promise<void> {
  const socket = `lmx-b-${randomBytes(5).toString('hex')}`;
  const socketPath = tmuxSocketPath(socket);
  const home = mkdtempSync(join(tmpdir(), 'lmx-bench-'));
  const backend = new TmuxBackend({ sessionId: newSessionId(), home, socket });
  let observedChars = 0;
  backend.onOutput((text) => { observedChars += text.length; });
  const times: Record<Mode, number[]> = { without: [], devnull: [], with: [] };
  let observedPerRun = 0;
  let observerCpuMs = 0;
  try {
    const started = await backend.start({ argv: ['sh'], cwd: home, env: {}, cols: 120, rows: 40 });
    if (!started.ok) throw new Error(started.message);
    await backend.sendText('stty -echo; PS1=');
    await backend.sendKey('enter');
    for (let run = 0; run < RUNS * MODES.length; run++) {
      const mode = MODES[run % MODES.length]!;
      await backend.detach();
      if (mode === 'with') { const r = await backend.start(); if (!r.ok) throw new Error(r.message); }
      if (mode === 'devnull') await tmux(socket, ['pipe-pane', '-O', '-t', `=${backend.name}:`, 'exec cat > /dev/null']);
      const channel = `lmx-bench-${run}`;
      const out = join(home, `ms-${run}`);
      // Timed inside the pane; completion is signalled with `tmux wait-for`, so the bench's own latency is not counted.
      // The pane's shell has no TMUX variable (the backend's environment policy leaves it out), so it names the server's
      // socket by path.
      const cmd = `S=$(date +%s%N); seq 1 ${SEQ_MAX}; E=$(date +%s%N); echo $(( (E - S) / 1000000 )) > '${out}'; tmux -S '${socketPath}' wait-for -S ${channel}`;
      const before = observedChars;
      const cpuBefore = process.cpuUsage();
      const waiting = tmux(socket, ['wait-for', channel]);
      await backend.sendText(cmd);
      await backend.sendKey('enter');
      await waiting;
      times[mode].push(Number(readFileSync(out, 'utf8').trim()));
      if (mode === 'with') {
        await new Promise((r) => setTimeout(r, 200));
        observedPerRun = observedChars - before;
        const cpu = process.cpuUsage(cpuBefore);
        observerCpuMs = Math.round((cpu.user + cpu.system) / 1000);
      }
      if (mode === 'devnull') await tmux(socket, ['pipe-pane', '-t', `=${backend.name}:`]);
    }
  } finally {
    await backend.dispose();
    await tmux(socket, ['kill-server']).catch(() => undefined);
    rmSync(socketPath, { force: true });
    rmSync(home, { recursive: true, force: true });
  }
  const without = times.without;
  const withObs = times.with;
  const withoutMs = median(without);
  const withMs = median(withObs);
  process.stdout.write(`${JSON.stringify({
    withoutMs, withMs, ratio: Number((withoutMs / withMs).toFixed(3)), runs: RUNS, bytes: seqBytes(SEQ_MAX),
    devNullPipeMs: median(times.devnull), observedBytesLastRun: observedPerRun, observerCpuMsLastRun: observerCpuMs,
    withoutMinMs: Math.min(...without), withMinMs: Math.min(...withObs), loadAvg1m: Number(loadavg()[0]!.toFixed(2)),
  })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
