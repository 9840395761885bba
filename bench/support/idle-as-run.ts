// What idle sessions cost as a user runs them (issue 31 item 20). The worker-side figure (idle-measure.ts) forks
// workers itself with screenshots off; this one counts what `larkmux start` runs: the built daemon with a bot's
// defaults — the default display mode (screenshots), so the shared render process draws every card — N topics
// answered, then left idle with their workers attached (idleDetachMinutes' default, 10 min, is longer than settle +
// measurement). Counted: the daemon and every child of it (workers, the render process, the tmux clients they run)
// plus the tmux server; not the CLIs (shells). Memory: the daemon, the workers, and the render process beside its
// goal. Built daemon, fake Feishu, shell CLI; Linux only (/proc). Same knobs as idle-measure.ts:
// LMX_BENCH_IDLE_SESSIONS, LMX_BENCH_IDLE_SECONDS, LMX_BENCH_IDLE_SETTLE_SECONDS.
import { readPid } from '../../src/platform/pid-lock.js';
import { answeredInTopic } from '../../test/support/cards.js';
import { startRig } from '../../test/support/e2e-daemon.js';
import { startBuilt } from './built-daemon.js';
import { childrenMatching, memoryShares, procAvailable, processCpu, processTreeCpu, rss, tmuxServerPid } from './proc.js';

const SESSIONS = Number(process.env.LMX_BENCH_IDLE_SESSIONS ?? 30);
const MEASURE_S = Math.max(Number(process.env.LMX_BENCH_IDLE_SECONDS ?? 120), 10);
const SETTLE_S = Number(process.env.LMX_BENCH_IDLE_SETTLE_SECONDS ?? 60);
/**
 * The render process ends a minute after the last frame (RENDER_THREAD_LIMITS.idleReleaseMs); its exit would add its
 * whole life's CPU to the daemon's reaped-children count inside the window, so the window starts after it (or this).
 */
const RELEASE_WAIT_MS = 150_000;
const GOALS = {
  idleCpuSPer10Min: 1,
  /** notes/render-stack.md's target for the renderer process (measured there: 93–117 MB). */
  renderProcessRssMB: 150,
} as const;
/** Command-line marks of the daemon's children (dist/worker/bundle/main.js and render-thread.js). */
const WORKER_MARK = 'bundle/main.js';
const RENDER_MARK = 'render-thread';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number | null, d = 1) => (n === null ? null : Math.round(n * 10 ** d) / 10 ** d);
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null);
const log = (s: string) => process.stderr.write(`${s}\n`);

export async function measureIdleAsRun(): Promise<Record<string, unknown>> {
  if (!procAvailable) return { error: 'reads /proc: Linux only' };
  // Caps raised to the session count so every session stays live (the defaults, 30 workers / 20 CLIs, would stop
  // some CLIs of a 30-session run); everything else, display mode included, is the bot's default.
  const caps = { maxLiveWorkers: SESSIONS, maxLiveClis: SESSIONS };
  const rig = await startRig({ botOverrides: caps });
  try {
    await startBuilt(rig);
    const appId = rig.appIds[0]!;
    const daemon = readPid(rig.home.paths.pidFile)!;
    const renderMB = () => childrenMatching(daemon, RENDER_MARK).reduce((sum, p) => sum + (rss(p) ?? 0), 0);
    let renderPeakMB = 0;
    const sampler = setInterval(() => (renderPeakMB = Math.max(renderPeakMB, renderMB())), 250);
    const group = `oc_idlerun_${Date.now().toString(16)}`;
    const topics: { root: string; needle: string }[] = [];
    const allAnswered = () => topics.every((t) => answeredInTopic(rig.fake, appId, t.root, t.needle));
    for (let i = 0; i < SESSIONS; i++) {
      const m = await rig.fake.injectMessage({ chatType: 'group', chatId: group, text: `echo run${i}-$((${i}+700))`, mentionBot: true });
      topics.push({ root: m.messageId, needle: `run${i}-${i + 700}` });
      // A few at a time, as in the other idle measurements: cold starts at once only measure the scheduler.
      if (i % 5 === 4) await rig.fake.waitFor(allAnswered, 120_000, 'answers');
    }
    await rig.fake.waitFor(allAnswered, 120_000, 'answers');
    const answeredAt = Date.now();
    // The last cards' frames are drawn after the answer text: a few seconds in, the render process has done them.
    await sleep(5_000);
    const renderAfterAnswersMB = renderMB();
    const renderPrivateMB = childrenMatching(daemon, RENDER_MARK).map((p) => memoryShares(p)?.privateMB ?? 0).reduce((a, b) => a + b, 0);
    const renderProcessStarted = /render process started/.test(rig.logText());
    while (renderProcessStarted && !/render process released/.test(rig.logText()) && Date.now() - answeredAt < RELEASE_WAIT_MS) await sleep(1_000);
    clearInterval(sampler);
    const renderProcessReleased = /render process released/.test(rig.logText());
    const releasedAfterS = renderProcessReleased ? round((Date.now() - answeredAt) / 1000, 0) : null;
    log(`idle as run: ${SESSIONS} sessions answered; render process RSS peak ${round(renderPeakMB)} MB (goal ≤ ${GOALS.renderProcessRssMB} MB), released ${releasedAfterS ?? 'not'} s after; settling ${SETTLE_S} s`);
    await sleep(SETTLE_S * 1000);

    const server = tmuxServerPid(rig.tmux.socket);
    const larkmuxCpu = () => processTreeCpu(daemon) ?? 0;
    const daemonCpu = () => processCpu(daemon) ?? 0;
    const serverCpu = () => (server === null ? 0 : processCpu(server) ?? 0);
    const [l0, d0, s0, t0] = [larkmuxCpu(), daemonCpu(), serverCpu(), Date.now()];
    await sleep(MEASURE_S * 1000);
    const seconds = (Date.now() - t0) / 1000;
    const per10Min = (used: number) => round((used / seconds) * 600, 2);
    const larkmuxUsed = larkmuxCpu() - l0;
    const serverUsed = serverCpu() - s0;
    const workers = childrenMatching(daemon, WORKER_MARK);
    const workerRss = workers.map((p) => rss(p)).filter((r): r is number => r !== null);
    const workerPrivate = workers.map((p) => memoryShares(p)?.privateMB).filter((m): m is number => m !== undefined);
    const status = await rig.status();
    return {
      sessions: SESSIONS, caps, display: 'screenshot (the default)', measuredS: round(seconds, 0), settledFirstS: SETTLE_S,
      workersAttached: status.sessions.filter((s: { worker: boolean }) => s.worker).length,
      cpuSPer10Min: per10Min(larkmuxUsed + serverUsed),
      ofWhichDaemonProcess: per10Min(daemonCpu() - d0),
      ofWhichTmuxServer: per10Min(serverUsed),
      goalCpuSPer10Min: GOALS.idleCpuSPer10Min,
      daemonRssMB: round(rss(daemon)),
      workerRssMB: { median: round(median(workerRss)), max: workerRss.length ? round(Math.max(...workerRss)) : null },
      workerPrivateMedianMB: round(median(workerPrivate)),
      renderProcessRssMB: { peak: round(renderPeakMB), afterAnswers: round(renderAfterAnswersMB), goal: GOALS.renderProcessRssMB },
      renderProcessPrivateAfterAnswersMB: round(renderPrivateMB),
      renderProcessStarted, renderProcessReleased, renderProcessReleasedAfterS: releasedAfterS,
      counted: 'the daemon and all its children (workers, render process, their tmux clients) + the tmux server; not the CLIs (shells); window after the render process released',
    };
  } finally {
    await rig.cleanup();
  }
}
