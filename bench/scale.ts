// Many topics on one host (issue 14): what idle sessions cost and worker memory (support/idle-measure.ts: workers
// alone; support/idle-as-run.ts: as `larkmux start` runs them, daemon, screenshots and render process counted), and what
// they cost once idleDetachMinutes has detached their workers (support/idle-detached.ts); a stream
// of 100 new topics under caps 8/20 — caps sampled from outside (workers = the daemon's worker children, CLIs = tmux
// sessions), messages served, per-topic latency; and a restart with 500 stored sessions (registered, first answer).
// Built daemon, fake Feishu, shell CLI.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readPid } from '../src/platform/pid-lock.js';
import { newSessionCore } from '../src/daemon/ground/session-core.js';
import { STORE_FORMAT_VERSION } from '../src/platform/durable-file.js';
import { controlCall } from '../src/platform/control-client.js';
import { answeredInTopic, textsIn } from '../test/support/cards.js';
import { startRig, type E2eRig } from '../test/support/e2e-daemon.js';
import { overCap, sampleHost, type HostSample } from '../test/support/host-sampler.js';
import { ROOT } from '../test/support/larkmux-cli.js';
import { expect0, runLarkmux, startBuilt } from './support/built-daemon.js';
import { measureIdleDetached } from './support/idle-detached.js';
import { measureIdle } from './support/idle-measure.js';
import { measureIdleAsRun } from './support/idle-as-run.js';
import { READINESS_TIMING } from '../src/worker/lifecycle/readiness.js';

const BENCH = {
  /** Issue 14's stream: 100 new topics, then 20 follow-ups in the oldest topics (their CLIs were stopped meanwhile). */
  topics: 100,
  followUps: 20,
  /** New topics arrive this often (5 per second: faster than a 2-core host can start shells, so the caps are tested). */
  arrivalEveryMs: 200,
  caps: { maxLiveWorkers: 8, maxLiveClis: 20 },
  /** Everything answered within this, or the rest count as not served. */
  streamTimeoutMs: 600_000,
  storedSessions: 500,
  restartRuns: 3,
  turnTimeoutMs: 30_000,
} as const;

const log = (s: string) => process.stderr.write(`${s}\n`);
const round = (n: number) => Math.round(n * 10) / 10;
function quantile(xs: number[], q: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}


/** Total time spent over a cap (sum of runs of consecutive samples over it), in seconds. */
function secondsOver(samples: readonly HostSample[], pick: (s: HostSample) => number, cap: number): number {
  let total = 0;
  for (let i = 1; i < samples.length; i++) if (pick(samples[i - 1]!) > cap && pick(samples[i]!) > cap) total += samples[i]!.at - samples[i - 1]!.at;
  return total / 1000;
}

async function stream() {
  const rig = await startRig({ botOverrides: BENCH.caps });
  try {
    await startBuilt(rig);
    const appId = rig.appIds[0]!;
    const sampler = sampleHost(readPid(rig.home.paths.pidFile)!, rig.tmux);
    const group = `oc_scale_${Date.now().toString(16)}`;
    const pending: { root: string; needle: string; sentAt: number; newTopic: boolean; answeredAt?: number }[] = [];
    const watch = setInterval(() => {
      for (const p of pending) if (p.answeredAt === undefined && answeredInTopic(rig.fake, appId, p.root, p.needle)) p.answeredAt = Date.now();
    }, 50);
    for (let i = 0; i < BENCH.topics; i++) {
      const sentAt = Date.now();
      const m = await rig.fake.injectMessage({ chatType: 'group', chatId: group, text: `echo t${i}-$((${i}+1000))`, mentionBot: true });
      pending.push({ root: m.messageId, needle: `t${i}-${i + 1000}`, sentAt, newTopic: true });
      await new Promise((r) => setTimeout(r, BENCH.arrivalEveryMs));
    }
    for (let i = 0; i < BENCH.followUps; i++) {
      const root = pending[i]!.root;
      const sentAt = Date.now();
      await rig.fake.injectMessage({ chatType: 'group', chatId: group, rootId: root, text: `echo f${i}-$((${i}+2000))` });
      pending.push({ root, needle: `f${i}-${i + 2000}`, sentAt, newTopic: false });
      await new Promise((r) => setTimeout(r, BENCH.arrivalEveryMs));
    }
    const deadline = Date.now() + BENCH.streamTimeoutMs;
    while (Date.now() < deadline && pending.some((p) => p.answeredAt === undefined)) await new Promise((r) => setTimeout(r, 200));
    clearInterval(watch);
    await sampler.stop();
    const s = sampler.samples;
    const workers = overCap(s, (x) => x.workers, BENCH.caps.maxLiveWorkers);
    const clis = overCap(s, (x) => x.clis, BENCH.caps.maxLiveClis);
    const newTopic = pending.filter((p) => p.newTopic && p.answeredAt !== undefined).map((p) => p.answeredAt! - p.sentAt);
    const logText = rig.logText();
    const result = {
      caps: BENCH.caps,
      arrivalPerSecond: 1000 / BENCH.arrivalEveryMs,
      maxWorkersSeen: workers.max,
      maxClisSeen: clis.max,
      longestOverWorkerCapS: round(workers.longestMs / 1000),
      longestOverCliCapS: round(clis.longestMs / 1000),
      secondsOverWorkerCap: round(secondsOver(s, (x) => x.workers, BENCH.caps.maxLiveWorkers)),
      secondsOverCliCap: round(secondsOver(s, (x) => x.clis, BENCH.caps.maxLiveClis)),
      samples: s.length,
      samplesUnanswered: sampler.failed,
      messagesSent: pending.length,
      messagesServed: pending.filter((p) => p.answeredAt !== undefined).length,
      newTopicMedianMs: quantile(newTopic, 0.5),
      newTopicP95Ms: quantile(newTopic, 0.95),
      workersStarted: (logText.match(/"msg":"worker started"/g) ?? []).length,
      clisStoppedThroughTmux: (logText.match(/"via":"tmux"/g) ?? []).length,
    };
    log(`stream: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await rig.cleanup();
  }
}

/** A session store of stored (sleeping) sessions, as a long-running daemon leaves it; `keep` records stay as they are. */
function writeStore(rig: E2eRig, n: number, keep: unknown[]): void {
  const appId = rig.appIds[0]!;
  const now = Date.now();
  const records = Array.from({ length: n - keep.length }, (_, i) => ({
    ...newSessionCore({ appId, anchorId: `oc_scale${String(i).padStart(4, '0')}`, scope: 'chat', chatId: `oc_scale${i}`, chatType: 'p2p', cli: 'shell', cwd: rig.home.dir, ownerId: rig.user, now: now - i * 1000 }),
    status: 'idle',
    lifecycle: 'stopped',
  }));
  writeFileSync(rig.home.paths.sessionStore(appId), JSON.stringify({ format: 'larkmux-sessions', version: STORE_FORMAT_VERSION, records: [...keep, ...records] }, null, 2));
}

/**
 * Restarts with 500 stored sessions and one live CLI, then a message to that CLI. The first restart comes right after
 * the CLI's launch (its prompt gets the readiness gate's full settle, in case a late start-up dialog comes: reported
 * apart as youngCliFirstAnswerMs); the measured runs restart a daemon whose CLI is past its start-up, as on a host that
 * has been up a while (READINESS_TIMING.startupOverAfterMs).
 */
async function restart() {
  const rig = await startRig();
  const registered: number[] = [];
  const daemonReady: number[] = [];
  const answered: number[] = [];
  let youngCliFirstAnswerMs = 0;
  try {
    await startBuilt(rig);
    const appId = rig.appIds[0]!;
    const launchedAt = performance.now();
    const warm = await rig.fake.injectMessage({ chatType: 'p2p', text: 'echo warm-$((1+1))' });
    await rig.fake.waitFor(() => textsIn(rig.fake, appId, warm.chatId).some((t) => t.includes('warm-2')), BENCH.turnTimeoutMs, 'warm-up');
    const restartAndAsk = async (run: number): Promise<number> => {
      expect0((await runLarkmux(['stop'], rig.home.env)).code, 'stop');
      expect0((await runLarkmux(['start'], rig.home.env)).code, 'start');
      await rig.fake.waitFor(() => rig.fake.connectionCount(appId) > 0, 15_000, 'reconnected');
      const t1 = performance.now();
      await rig.fake.injectMessage({ chatType: 'p2p', chatId: warm.chatId, text: `echo young-$((${run}+100))` });
      await rig.fake.waitFor(() => textsIn(rig.fake, appId, warm.chatId).some((t) => t.includes(`young-${run + 100}`)), BENCH.turnTimeoutMs, 'answer');
      return performance.now() - t1;
    };
    youngCliFirstAnswerMs = await restartAndAsk(0);
    log(`restart right after the CLI's launch: first answer ${Math.round(youngCliFirstAnswerMs)} ms`);
    await new Promise((r) => setTimeout(r, Math.max(0, READINESS_TIMING.startupOverAfterMs + 1_000 - (performance.now() - launchedAt))));
    for (let run = 0; run < BENCH.restartRuns; run++) {
      expect0((await runLarkmux(['stop'], rig.home.env)).code, 'stop');
      const kept = JSON.parse(readFileSync(rig.home.paths.sessionStore(appId), 'utf8')).records.filter((r: { chatId: string }) => r.chatId === warm.chatId);
      writeStore(rig, BENCH.storedSessions, kept);
      const t0 = performance.now();
      const started = runLarkmux(['start'], rig.home.env);
      for (;;) {
        const res = await controlCall(rig.home.paths.controlSocket, { cmd: 'status' }, 2000);
        const st = res.ok ? (res.data as { sessions: unknown[]; restore?: { state: string; tookMs?: number } }) : null;
        if (st && st.sessions.length === BENCH.storedSessions && (st.restore === undefined || st.restore.state === 'ready')) {
          registered.push(performance.now() - t0);
          if (st.restore?.tookMs !== undefined) daemonReady.push(st.restore.tookMs);
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      expect0((await started).code, 'start');
      await rig.fake.waitFor(() => rig.fake.connectionCount(appId) > 0, 15_000, 'reconnected');
      const t1 = performance.now();
      await rig.fake.injectMessage({ chatType: 'p2p', chatId: warm.chatId, text: `echo after-restart-$((${run}+100))` });
      await rig.fake.waitFor(() => textsIn(rig.fake, appId, warm.chatId).some((t) => t.includes(`after-restart-${run + 100}`)), BENCH.turnTimeoutMs, 'answer');
      answered.push(performance.now() - t1);
      log(`restart ${run + 1}: ${BENCH.storedSessions} registered ${Math.round(registered[run]!)} ms from start, first answer ${Math.round(answered[run]!)} ms`);
    }
  } finally {
    await rig.cleanup();
  }
  return {
    storedSessions: BENCH.storedSessions,
    runs: BENCH.restartRuns,
    registeredMedianMs: round(quantile(registered, 0.5)!),
    registeredMaxMs: round(Math.max(...registered)),
    daemonReadyMedianMs: daemonReady.length ? round(quantile(daemonReady, 0.5)!) : null,
    firstAnswerMedianMs: round(quantile(answered, 0.5)!),
    firstAnswerMaxMs: round(Math.max(...answered)),
    youngCliFirstAnswerMs: round(youngCliFirstAnswerMs),
  };
}

// Build first so the measured daemon is the current code (incremental: quick when nothing changed).
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
// `bench -- scale [idle|detached|stream|restart]` runs one part (`idle-as-run`: only that half of idle); without it
// all four, idle first (it wants a quiet host).
const only = process.argv[2];
const idle = only === undefined || only === 'idle' ? await measureIdle() : null;
// The same idle sessions as a user runs them: the daemon, the default display mode (screenshots), the render process.
const idleAsRun = only === undefined || only === 'idle' || only === 'idle-as-run' ? await measureIdleAsRun() : null;
const idleDetached = only === undefined || only === 'detached' ? await measureIdleDetached() : null;
const topics = only === undefined || only === 'stream' ? await stream() : null;
const restarted = only === undefined || only === 'restart' ? await restart() : null;
process.stdout.write(`${JSON.stringify({ idle, idleDetached, topics, restart: restarted, idleAsRun, loadAverage1m: round(loadavg()[0]!) })}\n`);
