// Benchmark (issue 12): does every prompt reach each real CLI's model exactly once, and does the worker say so truly?
// Drives claude-code, codex, gemini (against the fake model servers) and a shell through the real worker with varied
// prompts (single/multi-line, 5–20 KB, CJK/emoji, leading ! / # @ ? &, tabs, some while busy) plus cold starts in an
// untrusted folder; the fake's request log (or, for the shell, a file the command appends to) is the truth.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkerToDaemon } from '../src/shared/ipc.js';
import { comparableText } from '../src/worker/cli/literal-text.js';
import { startCliRig, type CliRig } from '../test/support/cli-rig.js';
import { testCliCommand, type TestCliName } from '../test/support/clis.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../test/support/worker-session.js';

const PROMPTS = Number(process.env.LMX_BENCH_PROMPTS ?? 100);
const COLD = Number(process.env.LMX_BENCH_COLD ?? 10);
const ONLY = process.env.LMX_BENCH_CLIS?.split(',');
/** A turn against the fake takes 0.5–5 s; a stuck one must not hang the benchmark. */
const TURN_TIMEOUT_MS = 120_000;

interface Tally {
  sent: number;
  delivered_true: number;
  /** Reported delivered, but the model (or shell) never got it. */
  delivered_lost: number;
  /** Got it more than once. */
  duplicated: number;
  /** Reported failed, but it did arrive. */
  false_failed: number;
  /** Reported failed and it did not arrive (the truth, but still a miss). */
  failed_true: number;
  /** Arrived, but not as sent (beyond whitespace the CLI itself folds). */
  altered: number;
  /** No report at all within the timeout. */
  unreported: number;
  latencies: number[];
}

const tally = (): Tally => ({ sent: 0, delivered_true: 0, delivered_lost: 0, duplicated: 0, false_failed: 0, failed_true: 0, altered: 0, unreported: 0, latencies: [] });
const nonce = () => `N${randomBytes(5).toString('hex')}`;

function quantile(values: number[], q: number): number | null {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : null;
}

/** The i-th prompt: every kind the issue lists, in rotation; the nonce is always in it. */
function promptFor(i: number, n: string): { text: string; busy: boolean } {
  const cjk = '你好，世界。请把这段中文原样保留：测试🎉✅';
  const big = (kb: number) => `${n} large ${kb}KB: ${Array.from({ length: kb * 16 }, (_, k) => `w${k}`).join(' ')}`.slice(0, kb * 1024);
  const kinds = [
    () => `plain single line ${n}`,
    () => `multi-line ${n}\nsecond line\n  indented third\nlast`,
    () => big(5 + (i % 16)),
    () => `${cjk} ${n}`,
    () => `!touch /var/tmp/lmx-bench-should-not-exist-${n} ${n}`,
    () => `/notacommand ${n} tell me`,
    () => `#heading ${n}`,
    () => `@nofile ${n}`,
    () => `? ${n} what`,
    () => `& ${n} and`,
    () => `tabs\there\tand there ${n}`,
    () => `${cjk}\n${n}\n${big(6)}`,
  ];
  return { text: kinds[i % kinds.length]!(), busy: i % 10 === 9 };
}

type UserTexts = (body: unknown) => string[];
const asText = (c: unknown): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : '')).join('\n') : '';
const USER_TEXTS: Record<TestCliName, UserTexts> = {
  claude: (b) => ((b as { messages?: { role: string; content: unknown }[] }).messages ?? []).filter((m) => m.role === 'user').map((m) => asText(m.content)),
  codex: (b) => ((b as { input?: { role?: string; content?: unknown }[] }).input ?? []).filter((m) => m.role === 'user').map((m) => asText(m.content)),
  gemini: (b) => ((b as { contents?: { role: string; parts?: unknown }[] }).contents ?? []).filter((m) => m.role === 'user').map((m) => asText(m.parts)),
};

/** What the model received for this nonce: how many user messages carried it (max over requests), and whether intact. */
function modelTruth(rig: CliRig, name: TestCliName, n: string, sent: string): { copies: number; intact: boolean } {
  let copies = 0;
  let intact = false;
  const want = comparableText(sent);
  for (const q of rig.fake.requests) {
    const users = USER_TEXTS[name](q.body).filter((t) => t.includes(n));
    copies = Math.max(copies, users.length);
    if (users.some((t) => comparableText(t).includes(want))) intact = true;
  }
  return { copies, intact };
}

function waitIndex(w: WorkerSession, pred: (m: WorkerToDaemon) => boolean, from: number, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const tick = () => {
      for (let i = from; i < w.messages.length; i++) if (pred(w.messages[i]!)) return resolve(i);
      if (Date.now() - t0 > ms) return resolve(null);
      setTimeout(tick, 10);
    };
    tick();
  });
}

interface Sent { turnId: string; n: string; text: string; at: number; from: number }

async function settle(w: WorkerSession, s: Sent, t: Tally, truth: (s: Sent) => { copies: number; intact: boolean }): Promise<void> {
  const d = await waitIndex(w, (m) => (m.type === 'input_delivered' || m.type === 'input_failed') && m.turnId === s.turnId, s.from, TURN_TIMEOUT_MS);
  const report = d === null ? null : w.messages[d]!;
  if (report?.type === 'input_delivered') {
    t.latencies.push(w.arrivals[d!]! - s.at);
    await waitIndex(w, (m) => m.type === 'final_output' && m.turnId === s.turnId, s.from, TURN_TIMEOUT_MS);
  }
  await new Promise((r) => setTimeout(r, 300)); // the last request of a turn is logged by now
  const { copies, intact } = truth(s);
  t.sent += 1;
  if (copies > 1) t.duplicated += 1;
  if (copies >= 1 && !intact) t.altered += 1;
  if (report === null) t.unreported += 1;
  else if (report.type === 'input_delivered') {
    if (copies === 0) t.delivered_lost += 1;
    else if (copies === 1) t.delivered_true += 1;
  } else if (copies > 0) t.false_failed += 1;
  else t.failed_true += 1;
  if (report?.type === 'input_failed' || copies !== 1 || !intact) {
    process.stderr.write(`  ${s.turnId}: report=${report?.type ?? 'none'}${report?.type === 'input_failed' ? ` (${report.reason})` : ''} copies=${copies} intact=${intact} text=${JSON.stringify(s.text.slice(0, 60))}\n`);
  }
}

/** Warm prompts through one worker; every tenth goes right after the previous one was delivered (the CLI is busy). */
async function warm(w: WorkerSession, t: Tally, make: (i: number, n: string) => string, truth: (s: Sent) => { copies: number; intact: boolean }): Promise<void> {
  let pending: Sent[] = [];
  for (let i = 0; i < PROMPTS; i++) {
    const n = nonce();
    const { busy } = promptFor(i, n);
    const s: Sent = { turnId: `p${i}`, n, text: make(i, n), at: Date.now(), from: w.messages.length };
    w.input(s.turnId, s.text);
    pending.push(s);
    if (busy && i + 1 < PROMPTS) {
      // Sent while the previous turn is still running: it queues, or is typed ahead where the CLI takes that.
      await waitIndex(w, (m) => (m.type === 'input_delivered' || m.type === 'input_failed') && m.turnId === s.turnId, s.from, TURN_TIMEOUT_MS);
      continue;
    }
    for (const p of pending) await settle(w, p, t, truth);
    pending = [];
  }
  for (const p of pending) await settle(w, p, t, truth);
}

async function benchCli(name: TestCliName): Promise<Tally | null> {
  if (!testCliCommand(name)) return null;
  const t = tally();
  process.stderr.write(`delivery-truth: ${name}, ${PROMPTS} warm prompts\n`);
  const rig = await startCliRig({ name, seed: true });
  try {
    await warm(rig.worker, t, (i, n) => promptFor(i, n).text, (s) => modelTruth(rig, name, s.n, s.text));
  } finally {
    await rig.cleanup();
  }
  process.stderr.write(`delivery-truth: ${name}, ${COLD} cold starts in an untrusted folder\n`);
  for (let c = 0; c < COLD; c++) {
    const cold = await startCliRig({ name, seed: true, untrusted: true });
    try {
      const n = nonce();
      const s: Sent = { turnId: `cold${c}`, n, text: c % 2 ? `!echo cold ${n}` : `cold start ${n}`, at: Date.now(), from: 0 };
      cold.worker.input(s.turnId, s.text);
      await settle(cold.worker, s, t, (x) => modelTruth(cold, name, x.n, x.text));
    } finally {
      await cold.cleanup();
    }
  }
  return t;
}

/** The shell: each prompt is a command appending its payload to a file; the file is the truth. */
async function benchShell(): Promise<Tally> {
  const t = tally();
  const home = tempDir('lmx-bench-truth-sh-');
  writeFileSync(join(home.dir, '.bash_profile'), "PS1='$ '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  const log = join(home.dir, 'arrived.log');
  writeFileSync(log, '');
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  // The payload is the varied prompt, made one line per command so each arrival is one line in the file.
  const payloads = new Map<string, string>();
  const payload = (i: number, n: string) => {
    const p = promptFor(i, n).text.replace(/\n/g, ' / ');
    payloads.set(n, p);
    return p;
  };
  const truth = (s: Sent) => {
    const lines = readFileSync(log, 'utf8').split('\n').filter((l) => l.includes(s.n));
    return { copies: lines.length, intact: lines.some((l) => l === payloads.get(s.n)) };
  };
  process.stderr.write(`delivery-truth: shell, ${PROMPTS} warm prompts\n`);
  const w = startWorkerSession({ cli: 'shell', cwd: home.dir, env: { HOME: home.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  try {
    await warm(w, t, (i, n) => `printf '%s\\n' ${quote(payload(i, n))} >> ${log}`, truth);
  } finally {
    await w.cleanup();
  }
  process.stderr.write(`delivery-truth: shell, ${COLD} cold starts\n`);
  for (let c = 0; c < COLD; c++) {
    const w2 = startWorkerSession({ cli: 'shell', cwd: home.dir, env: { HOME: home.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    try {
      const n = nonce();
      payloads.set(n, `cold\t${n}`);
      const s: Sent = { turnId: `cold${c}`, n, text: `printf '%s\\n' ${quote(`cold\t${n}`)} >> ${log}`, at: Date.now(), from: 0 };
      w2.input(s.turnId, s.text);
      await settle(w2, s, t, truth);
    } finally {
      await w2.cleanup();
    }
  }
  home.remove();
  return t;
}

const results: Record<string, Tally | null> = {};
for (const name of ['claude', 'codex', 'gemini', 'shell'] as const) {
  const key = name === 'claude' ? 'claude-code' : name;
  if (ONLY && !ONLY.includes(key)) continue;
  results[key] = name === 'shell' ? await benchShell() : await benchCli(name);
}
const out: Record<string, unknown> = { prompts_per_cli: PROMPTS, cold_starts_per_cli: COLD };
for (const [name, r] of Object.entries(results)) {
  if (!r) {
    out[name] = null;
    continue;
  }
  const { latencies, ...counts } = r;
  out[name] = { ...counts, delivered_median_ms: quantile(latencies, 0.5), delivered_p95_ms: quantile(latencies, 0.95) };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
