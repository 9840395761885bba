// Benchmark: launch → ready and message → delivered (median, p95 over 30 messages) per CLI, and the re-pressed Enter rate.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkerToDaemon } from '../src/shared/ipc.js';
import { startCliRig } from '../test/support/cli-rig.js';
import { testCliCommand, type TestCliName } from '../test/support/clis.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../test/support/worker-session.js';

const MESSAGES_PER_CLI = Number(process.env.LMX_BENCH_MESSAGES ?? 30);
/** Generous: a turn against the fake takes 0.5–3 s; a stuck one should not hang the benchmark. */
const TURN_TIMEOUT_MS = 60_000;

interface CliNumbers {
  launchToReadyMs: number | null;
  deliveredMedianMs: number | null;
  deliveredP95Ms: number | null;
  messages: number;
  enterRepresses: number;
  failed: number;
}

function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function indexOf(w: WorkerSession, pred: (m: WorkerToDaemon) => boolean, from: number, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => {
      for (let i = from; i < w.messages.length; i++) if (pred(w.messages[i]!)) return resolve(i);
      if (Date.now() - t0 > ms) return reject(new Error('timed out'));
      setTimeout(tick, 5);
    };
    tick();
  });
}

/** Resolves when the newest status message (from `from` on, or before it when none came since) is `status`. */
async function lastStatusIs(w: WorkerSession, status: string, from: number, ms: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const last = [...w.messages].reverse().find((m) => m.type === 'status');
    const newest = w.messages.slice(from).some((m) => m.type === 'status');
    if (last?.type === 'status' && last.status === status && (newest || w.messages.length > from)) return;
    if (Date.now() - t0 > ms) throw new Error(`status never became ${status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function measure(w: WorkerSession, prompt: (i: number) => string): Promise<CliNumbers> {
  const out: CliNumbers = { launchToReadyMs: null, deliveredMedianMs: null, deliveredP95Ms: null, messages: 0, enterRepresses: 0, failed: 0 };
  const delivered: number[] = [];
  for (let i = 0; i < MESSAGES_PER_CLI; i++) {
    const from = w.messages.length;
    const turnId = `b${i}`;
    const sentAt = Date.now();
    w.input(turnId, prompt(i));
    try {
      if (i === 0) {
        // Cold start, as a user sees it: from the first message to the CLI passing the readiness gate.
        const ready = await indexOf(w, (m) => m.type === 'status' && m.status === 'idle', from, TURN_TIMEOUT_MS);
        out.launchToReadyMs = w.arrivals[ready]! - sentAt;
      }
      const d = await indexOf(w, (m) => (m.type === 'input_delivered' || m.type === 'input_failed') && m.turnId === turnId, from, TURN_TIMEOUT_MS);
      const msg = w.messages[d]!;
      if (msg.type === 'input_failed') {
        out.failed += 1;
        process.stderr.write(`input_failed: ${msg.reason}\n`);
      }
      else {
        // The first message includes the launch; only warm messages count for delivery latency.
        if (i > 0) delivered.push(w.arrivals[d]! - sentAt);
        out.enterRepresses += msg.type === 'input_delivered' ? msg.enterRetries : 0;
      }
      const fin = await indexOf(w, (m) => m.type === 'final_output' && m.turnId === turnId, from, TURN_TIMEOUT_MS);
      await lastStatusIs(w, 'idle', Math.max(fin, d), TURN_TIMEOUT_MS);
    } catch (err) {
      out.failed += 1;
      process.stderr.write(`turn ${turnId}: ${(err as Error).message}; since send: ${JSON.stringify(w.messages.slice(from).filter((m) => m.type !== 'heartbeat').map((m) => ({ ...m, screenText: undefined }))).slice(0, 800)}\n`);
      if (process.env.LMX_BENCH_DEBUG) process.stderr.write(w.logText().split('\n').slice(-25).join('\n'));
    }
    out.messages += 1;
  }
  delivered.sort((a, b) => a - b);
  out.deliveredMedianMs = quantile(delivered, 0.5);
  out.deliveredP95Ms = quantile(delivered, 0.95);
  return out;
}

async function benchShell(): Promise<CliNumbers> {
  const home = tempDir('lmx-bench-sh-');
  writeFileSync(join(home.dir, '.bash_profile'), "PS1='$ '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  const w = startWorkerSession({ cli: 'shell', cwd: home.dir, env: { HOME: home.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  try {
    return await measure(w, (i) => `echo bench-${i}`);
  } finally {
    await w.cleanup();
    home.remove();
  }
}

async function benchCli(name: TestCliName): Promise<CliNumbers | null> {
  if (!testCliCommand(name)) return null;
  const rig = await startCliRig({ name, seed: true });
  try {
    return await measure(rig.worker, (i) => `bench message ${i}`);
  } finally {
    await rig.cleanup();
  }
}

const results: Record<string, CliNumbers | null> = { shell: await benchShell() };
for (const name of ['claude', 'codex', 'gemini'] as const) {
  process.stderr.write(`bench lifecycle: ${name}\n`);
  results[name] = await benchCli(name);
}
const all = Object.values(results).filter((r): r is CliNumbers => r !== null);
const delivered = all.reduce((n, r) => n + r.messages - r.failed, 0);
const out: Record<string, number | null> = {};
for (const [name, r] of Object.entries(results)) {
  out[`${name}_launch_to_ready_ms`] = r?.launchToReadyMs ?? null;
  out[`${name}_delivered_median_ms`] = r?.deliveredMedianMs ?? null;
  out[`${name}_delivered_p95_ms`] = r?.deliveredP95Ms ?? null;
  out[`${name}_failed`] = r?.failed ?? null;
}
out.messages_per_cli = MESSAGES_PER_CLI;
out.enter_repress_rate = delivered ? all.reduce((n, r) => n + r.enterRepresses, 0) / delivered : null;
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
