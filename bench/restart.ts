// Restart cost: daemon start → all 50 stored sessions registered, and the first message after a restart (take-over included).
import { writeFileSync } from 'node:fs';
import { newSessionCore } from '../src/daemon/ground/session-core.js';
import { STORE_FORMAT_VERSION } from '../src/platform/durable-file.js';
import { textsIn } from '../test/support/cards.js';
import { startRig, type E2eRig } from '../test/support/e2e-daemon.js';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, runLarkmux as runFrom } from '../test/support/larkmux-cli.js';

/** The built command, as a user runs it (`npx larkmux`): the daemon then runs compiled JavaScript, not tsx. */
const runLarkmux = (args: string[], env: NodeJS.ProcessEnv) => runFrom(args, env, { from: 'built' });

const BENCH = {
  /** Issue 8: 50 stored sessions. */
  storedSessions: 50,
  /** Restarts measured for each number (the median and p95 of a handful is what a person feels). */
  runs: 7,
  /** A take-over plus one shell command finishes well within this. */
  turnTimeoutMs: 30_000,
} as const;

const log = (s: string) => process.stderr.write(`${s}\n`);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
const round = (n: number) => Math.round(n * 10) / 10;

async function statusJson(rig: E2eRig): Promise<{ sessions: unknown[] } | null> {
  const res = await runLarkmux(['status', '--json'], rig.home.env);
  return res.code === 0 ? JSON.parse(res.stdout) : null;
}

/** Writes a session store of stored (sleeping) sessions, as a long-running daemon leaves it. */
function writeStore(rig: E2eRig, n: number): void {
  const appId = rig.appIds[0]!;
  const now = Date.now();
  const records = Array.from({ length: n }, (_, i) =>
    ({ ...newSessionCore({ appId, anchorId: `oc_bench${String(i).padStart(4, '0')}`, scope: 'chat', chatId: `oc_bench${i}`, chatType: 'p2p', cli: 'shell', cwd: rig.home.dir, ownerId: rig.user, now: now - i * 1000 }), status: 'idle', lifecycle: 'detached' }),
  );
  writeFileSync(rig.home.paths.sessionStore(appId), JSON.stringify({ format: 'larkmux-sessions', version: STORE_FORMAT_VERSION, records }, null, 2));
}

async function startToRegistered(): Promise<number[]> {
  const rig = await startRig();
  const out: number[] = [];
  try {
    for (let run = 0; run < BENCH.runs; run++) {
      writeStore(rig, BENCH.storedSessions);
      const t0 = performance.now();
      const started = await runLarkmux(['start'], rig.home.env);
      if (started.code !== 0) throw new Error(`start failed: ${started.stderr}`);
      for (;;) {
        const st = await statusJson(rig);
        if (st && st.sessions.length === BENCH.storedSessions) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      out.push(performance.now() - t0);
      await runLarkmux(['stop'], rig.home.env);
      log(`start → ${BENCH.storedSessions} sessions registered: ${Math.round(out[out.length - 1]!)} ms`);
    }
  } finally {
    await rig.cleanup();
  }
  return out;
}

async function firstMessageAfterRestart(): Promise<{ answer: number[]; reaction: number[] }> {
  const rig = await startRig();
  const answer: number[] = [];
  const reaction: number[] = [];
  try {
    await rig.start();
    const appId = rig.appIds[0]!;
    const first = await rig.fake.injectMessage({ chatType: 'p2p', text: 'echo warm-$((1+1))' });
    const chatId = first.chatId;
    await rig.fake.waitFor(() => textsIn(rig.fake, appId, chatId).some((t) => t.includes('warm-2')), BENCH.turnTimeoutMs, 'warm-up');
    for (let run = 0; run < BENCH.runs; run++) {
      const restarted = await runLarkmux(['restart'], rig.home.env);
      if (restarted.code !== 0) throw new Error(`restart failed: ${restarted.stderr}`);
      await rig.fake.waitFor(() => rig.fake.connectionCount(appId) > 0, 15_000, 'reconnected');
      const t0 = performance.now();
      const m = await rig.fake.injectMessage({ chatType: 'p2p', chatId, text: `echo after-restart-$((${run}+100))` });
      await rig.fake.waitFor(() => rig.fake.reactions.some((r) => r.messageId === m.messageId), BENCH.turnTimeoutMs, 'delivered');
      reaction.push(performance.now() - t0);
      await rig.fake.waitFor(() => textsIn(rig.fake, appId, chatId).some((t) => t.includes(`after-restart-${run + 100}`)), BENCH.turnTimeoutMs, 'answer');
      answer.push(performance.now() - t0);
      log(`first message after restart ${run + 1}: delivered ${Math.round(reaction[run]!)} ms, answered ${Math.round(answer[run]!)} ms`);
    }
  } finally {
    await rig.cleanup();
  }
  return { answer, reaction };
}

// Build first so the measured daemon is the current code (incremental: quick when nothing changed).
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const registered = await startToRegistered();
const after = await firstMessageAfterRestart();
process.stdout.write(
  `${JSON.stringify({
    storedSessions: BENCH.storedSessions,
    runs: BENCH.runs,
    startToRegisteredMedianMs: round(quantile(registered, 0.5)),
    startToRegisteredP95Ms: round(quantile(registered, 0.95)),
    firstMessageDeliveredMedianMs: round(quantile(after.reaction, 0.5)),
    firstMessageDeliveredP95Ms: round(quantile(after.reaction, 0.95)),
    firstMessageAnsweredMedianMs: round(quantile(after.answer, 0.5)),
    firstMessageAnsweredP95Ms: round(quantile(after.answer, 0.95)),
    loadAverage1m: round((await import('node:os')).loadavg()[0]!),
  })}\n`,
);
