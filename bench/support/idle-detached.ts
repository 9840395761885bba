// What idle sessions cost the host once their workers are detached (issue 14, daemon side): 30 topics answered, then
// idleDetachMinutes passes; measured are the workers left, the CPU of every larkmux process (the daemon and all its
// children) plus the tmux server over LMX_BENCH_IDLE_SECONDS (scaled to 10 min), the daemon's RSS, and the first
// answer after a detach (the re-attach a person waits for). Built daemon, fake Feishu, shell CLI; Linux only (/proc).
import { readPid } from '../../src/platform/pid-lock.js';
import { answeredInTopic } from '../../test/support/cards.js';
import { startRig } from '../../test/support/e2e-daemon.js';
import { startBuilt } from './built-daemon.js';
import { procAvailable, processCpu, processTreeCpu, rss, tmuxServerPid } from './proc.js';

const SESSIONS = Number(process.env.LMX_BENCH_IDLE_SESSIONS ?? 30);
const MEASURE_S = Math.max(Number(process.env.LMX_BENCH_IDLE_SECONDS ?? 120), 10);
/** 15 s: the rule's real default is 10 min; what it leaves behind is the same, only sooner. */
const IDLE_DETACH_MINUTES = 0.25;
/** After the last detach: the daemon's own GC tail and the shared render process's idle release. */
const SETTLE_S = Number(process.env.LMX_BENCH_IDLE_SETTLE_SECONDS ?? 60);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const log = (s: string) => process.stderr.write(`${s}\n`);

export async function measureIdleDetached(): Promise<Record<string, unknown>> {
  if (!procAvailable) return { error: 'reads /proc: Linux only' };
  const rig = await startRig({ botOverrides: { idleDetachMinutes: IDLE_DETACH_MINUTES, maxLiveWorkers: SESSIONS, maxLiveClis: SESSIONS } });
  try {
    await startBuilt(rig);
    const appId = rig.appIds[0]!;
    const daemon = readPid(rig.home.paths.pidFile)!;
    const group = `oc_idle_${Date.now().toString(16)}`;
    const topics: { root: string; needle: string }[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const m = await rig.fake.injectMessage({ chatType: 'group', chatId: group, text: `echo idle${i}-$((${i}+500))`, mentionBot: true });
      topics.push({ root: m.messageId, needle: `idle${i}-${i + 500}` });
      // A few at a time, as in the worker-side measurement: cold starts at once only measure the scheduler.
      if (i % 5 === 4) await rig.fake.waitFor(() => topics.every((t) => answeredInTopic(rig.fake, appId, t.root, t.needle)), 120_000, 'answers');
    }
    await rig.fake.waitFor(() => topics.every((t) => answeredInTopic(rig.fake, appId, t.root, t.needle)), 120_000, 'answers');
    const answeredAt = Date.now();
    const workersAfterAnswers = (await rig.status()).sessions.filter((s: { worker: boolean }) => s.worker).length;
    for (;;) {
      const st = await rig.status();
      if (st.sessions.every((s: { worker: boolean; lifecycle: string }) => !s.worker && s.lifecycle === 'detached')) break;
      if (Date.now() - answeredAt > 180_000) throw new Error('sessions were not all detached within 3 minutes');
      await sleep(500);
    }
    const allDetachedAfterS = round((Date.now() - answeredAt) / 1000);
    // The shared render process ends a minute after the last frame; its exit would add its whole life's CPU to the
    // daemon's reaped-children count inside the window, so the window starts after it.
    const releasedBy = Date.now() + 150_000;
    while (!/render process released/.test(rig.logText()) && Date.now() < releasedBy) await sleep(1_000);
    const renderProcessReleased = /render process released/.test(rig.logText());
    log(`idle-detached: ${SESSIONS} sessions detached ${allDetachedAfterS} s after the last answer; settling ${SETTLE_S} s`);
    await sleep(SETTLE_S * 1000);
    const server = tmuxServerPid(rig.tmux.socket);
    const larkmuxCpu = () => processTreeCpu(daemon) ?? 0;
    const serverCpu = () => (server === null ? 0 : processCpu(server) ?? 0);
    const [l0, s0, t0] = [larkmuxCpu(), serverCpu(), Date.now()];
    await sleep(MEASURE_S * 1000);
    const seconds = (Date.now() - t0) / 1000;
    const larkmuxUsed = larkmuxCpu() - l0;
    const serverUsed = serverCpu() - s0;
    const status = await rig.status();
    const workersLeft = status.sessions.filter((s: { worker: boolean }) => s.worker).length;
    const clisLeft = (await rig.tmux.run(['list-sessions', '-F', '#{session_name}'])).stdout.split('\n').filter((n) => n.startsWith('lmx-')).length;
    const daemonRssMB = rss(daemon);

    // The person comes back: a message to a detached session re-attaches a worker to the same CLI and is answered.
    const back = topics[0]!;
    const tBack = performance.now();
    await rig.fake.injectMessage({ chatType: 'group', chatId: group, rootId: back.root, text: 'echo back-$((7*6))' });
    await rig.fake.waitFor(() => answeredInTopic(rig.fake, appId, back.root, 'back-42'), 60_000, 'answer after re-attach');
    const firstAnswerAfterDetachMs = round(performance.now() - tBack, 0);
    return {
      sessions: SESSIONS, idleDetachMinutes: IDLE_DETACH_MINUTES, measuredS: round(seconds, 0), settledFirstS: SETTLE_S,
      workersAfterAnswers, allDetachedAfterS, renderProcessReleased, workersLeft, clisStillRunning: clisLeft,
      larkmuxCpuSPer10Min: round((larkmuxUsed / seconds) * 600, 2),
      tmuxServerCpuSPer10Min: round((serverUsed / seconds) * 600, 2),
      cpuSPer10Min: round(((larkmuxUsed + serverUsed) / seconds) * 600, 2),
      daemonRssMB: daemonRssMB === null ? null : round(daemonRssMB),
      workerRssPerIdleSessionMB: 0,
      firstAnswerAfterDetachMs,
      goalCpuSPer10Min: 1,
      counted: 'the daemon and all its children (workers, render process) + the tmux server; not the CLIs (shells)',
    };
  } finally {
    await rig.cleanup();
  }
}
