// Remote sessions (issue 29, Benchmark): the real daemon (the build, whose worker bundle is what ships to the host), the
// fake Feishu, a real sshd on 127.0.0.1 as host "b" (test/support/sshd.ts) and the shell CLI. Measures, for a session
// on b against one on this machine: message → pane and screen change → card; then 50 idle sessions on b (CPU-s per
// 10 min on the daemon's side and the host's, RSS); then the link dropped (sshd and the ControlMaster killed) with a
// prompt waiting, restored, and the time to that prompt in b's pane. `--quick`: fewer samples and shorter windows.
// b is in a network namespace of its own behind a veth pair, shaped to 25 ms each way where tc's netem exists; elsewhere
// the link is unshaped (said on stderr, rttMs 0). See support/shaped-link.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPid } from '../src/platform/pid-lock.js';
import { knownHostsName, pinInKnownHosts } from '../src/platform/ssh/known-hosts.js';
import { controlPath } from '../src/platform/ssh/ssh-argv.js';
import { sshPlaces } from '../src/platform/ssh/ssh-run.js';
import { tmuxSocketName } from '../src/shared/tmux-socket.js';
import { textsIn } from '../test/support/cards.js';
import { startRig, type E2eRig } from '../test/support/e2e-daemon.js';
import { startTestSshd, type TestSshd } from '../test/support/sshd.js';
import { log, messageTimer, PaneWatcher, quantile, round, screenToCard, sleep, waitFor, type TimedChat } from './support/pane-timing.js';
import { connectRttMs, makeHostLink, type HostLink } from './support/shaped-link.js';
import { memoryShares, procAvailable, processCpu, processesMatching, processTree, rss, tmuxServerPid, treesCpu } from './support/proc.js';

const QUICK = process.argv.includes('--quick');
const BENCH = {
  messages: QUICK ? 12 : 30,
  pauseBetweenMessagesMs: 1_000,
  ticks: QUICK ? 15 : 40,
  idleSessions: 50,
  /** After the last idle session's first answer: GC tails of the cold starts (see bench/support/idle-measure.ts). */
  idleSettleS: QUICK ? 20 : 60,
  idleMeasureS: QUICK ? 40 : 180,
  /** The link stays down this long with a prompt waiting (issue 29's fault: 20 s). */
  linkDownS: QUICK ? 6 : 20,
} as const;
const GOALS = { overheadOverRttMs: 30, idleDaemonCpuSPer10Min: 1, reconnectMs: 5_000 } as const;
const HOST = 'b';

interface Session { key: string; tmuxName: string; host?: string }

/** A rig with bot0 on this machine and bot1 whose sessions run on host b (pinned as `larkmux hosts add` pins it). */
async function remoteRig(sshd: TestSshd, link: HostLink, hostRoot: string, srv: string): Promise<E2eRig> {
  const caps = { maxLiveWorkers: 60, maxLiveClis: 60 };
  const rig = await startRig({ daemon: 'built', bots: 2, perBot: [{}, { host: HOST, workingDir: srv, ...caps }] });
  // No workingDirs: with roots the folder picker would ask every new chat where to run (both bots' chats).
  const hosts = [{ name: HOST, ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey, ...caps }];
  rig.home.writeConfig({ ...JSON.parse(readFileSync(rig.home.paths.config, 'utf8')), hosts });
  const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
  writeFileSync(sshPlaces(rig.home.paths).knownHosts, pinInKnownHosts('', knownHostsName(link.address, sshd.port), { type: type!, blob: blob! }));
  rig.home.env.LARKMUX_REMOTE_ROOT = hostRoot;
  await rig.start();
  return rig;
}

async function sessionOf(rig: E2eRig, chatId: string): Promise<Session> {
  const sessions = (await rig.status()).sessions as Session[];
  const s = sessions.find((x) => x.key.startsWith(`${chatId}::`));
  if (!s) throw new Error(`no session for chat ${chatId}`);
  return s;
}

/** A new p2p chat with `appId` whose first answer has arrived. */
async function openChat(rig: E2eRig, appId: string, word: string): Promise<string> {
  const { chatId } = await rig.fake.injectMessage({ chatType: 'p2p', appId, text: `echo ${word}-$((6*7))` });
  await waitFor(`${word}'s first answer`, () => textsIn(rig.fake, appId, chatId).some((t) => t.includes(`${word}-42`)), 120_000);
  return chatId;
}

/** Who pays for idle sessions: the daemon's side (its tree, ssh's ControlMaster, its tmux) and the host's (sshd's tree, b's tmux). */
function sides(rig: E2eRig, sshd: TestSshd, hostSocket: string, master: string) {
  const daemon = readPid(rig.home.paths.pidFile);
  const sshdPid = Number(readFileSync(join(sshd.dir, 'sshd.pid'), 'utf8').trim());
  if (!daemon || !sshdPid) throw new Error('the daemon or sshd has no pid');
  const daemonPids = () => {
    const tree = new Set(processTree(daemon));
    const masters = processesMatching([master]).filter((p) => !tree.has(p));
    const tmux = tmuxServerPid(rig.tmux.socket);
    return [daemon, ...masters, ...(tmux ? [tmux] : [])];
  };
  const hostPids = () => {
    const tmux = tmuxServerPid(hostSocket);
    return [sshdPid, ...(tmux ? [tmux] : [])];
  };
  const cpu = (roots: number[]) => treesCpu(roots);
  const rssOf = (roots: number[]) => roots.flatMap((r) => processTree(r)).reduce((sum, p) => sum + (rss(p) ?? 0), 0);
  // RSS counts node's shared code once per process; PSS splits shared pages among their users (the memory really used).
  const pssOf = (roots: number[]) => roots.flatMap((r) => processTree(r)).reduce((sum, p) => sum + (memoryShares(p)?.pssMB ?? 0), 0);
  return {
    cpu: () => ({ daemon: cpu(daemonPids()), host: cpu(hostPids()) }),
    rssMB: () => ({ daemon: rssOf(daemonPids()), host: rssOf(hostPids()), daemonPss: pssOf(daemonPids()), hostPss: pssOf(hostPids()) }),
    hostProcesses: () => hostPids().flatMap((r) => processTree(r)).length,
    daemonPid: daemon,
    masterAlive: () => processesMatching([master]).some((p) => processCpu(p) !== null),
  };
}

async function idleFifty(rig: E2eRig, measure: ReturnType<typeof sides>) {
  const appId = rig.appIds[1]!;
  const opened: Array<Promise<string>> = [];
  for (let i = 0; i < BENCH.idleSessions; i++) {
    opened.push(openChat(rig, appId, `idle${i}`));
    // A few at a time: 50 cold starts at once on a loaded 2-core box only measure the scheduler.
    if (i % 5 === 4) {
      await Promise.all(opened.slice(-5));
      log(`idle sessions on ${HOST}: ${i + 1} answered`);
    }
  }
  await Promise.all(opened);
  log(`settling ${BENCH.idleSettleS} s, then measuring ${BENCH.idleMeasureS} s of idle (scaled to 10 min)`);
  await sleep(BENCH.idleSettleS * 1000);
  const c0 = measure.cpu();
  const t0 = Date.now();
  await sleep(BENCH.idleMeasureS * 1000);
  const c1 = measure.cpu();
  const scale = 600 / ((Date.now() - t0) / 1000);
  const mem = measure.rssMB();
  const out = {
    sessions: BENCH.idleSessions,
    measuredS: BENCH.idleMeasureS,
    daemonCpuSPer10Min: (c1.daemon - c0.daemon) * scale,
    hostCpuSPer10Min: (c1.host - c0.host) * scale,
    daemonRssMB: mem.daemon,
    hostRssMB: mem.host,
    daemonPssMB: mem.daemonPss,
    hostPssMB: mem.hostPss,
    hostProcesses: measure.hostProcesses(),
  };
  log(`idle ${BENCH.idleSessions} on ${HOST}: daemon ${round(out.daemonCpuSPer10Min)} CPU-s/10 min, host ${round(out.hostCpuSPer10Min)} CPU-s/10 min; RSS daemon ${round(mem.daemon)} MB, host ${round(mem.host)} MB; PSS daemon ${round(mem.daemonPss)} MB, host ${round(mem.hostPss)} MB (${out.hostProcesses} processes on the host)`);
  return out;
}

/** Drops the link with a prompt waiting, restores it, and times link-up → the prompt in b's pane. */
async function reconnect(rig: E2eRig, sshd: TestSshd, chat: TimedChat, measure: ReturnType<typeof sides>, master: string): Promise<number> {
  await sshd.stop();
  for (const p of processesMatching([master])) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* it ended with its connection */
    }
  }
  await waitFor('the ControlMaster to end', () => !measure.masterAlive(), 10_000);
  const marker = `#LMXRECONNECT${Date.now() % 1000}Q`;
  const seen = chat.watcher.expect(marker);
  await rig.fake.injectMessage({ chatType: 'p2p', appId: chat.appId, chatId: chat.chatId, text: `echo waited ${marker}` });
  const told = () => rig.fake.messages.some((m) => m.appId === chat.appId && JSON.stringify(m.content).includes(`host ${HOST} unreachable since`));
  await waitFor('the topic told the host is unreachable', told, 60_000);
  log(`link down (sshd and ControlMaster killed), prompt waiting; restoring in ${BENCH.linkDownS} s`);
  await sleep(BENCH.linkDownS * 1000);
  await sshd.start();
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const at = await Promise.race([seen, new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Number.NaN), 150_000)))]);
  clearTimeout(timer);
  if (Number.isNaN(at)) throw new Error('the waiting prompt never reached the pane after the link returned');
  log(`link restored: the waiting prompt was in ${HOST}'s pane ${at - t0} ms later`);
  // Why it took that long: the daemon's connection attempts (each a log line), in ms from the link's return.
  const attempts = rig.logText().split('\n').filter((l) => l.includes('connecting to the host')).map((l) => Number(/"time":(\d+)/.exec(l)?.[1]) - t0);
  log(`connection attempts, ms from the link's return: ${attempts.filter((ms) => ms > -BENCH.linkDownS * 2000).join(', ')}`);
  return at - t0;
}

async function main(): Promise<void> {
  if (!procAvailable) throw new Error('bench remote needs Linux /proc for its CPU and memory numbers');
  const link = makeHostLink();
  log(link.shaped ? `host ${HOST} at ${link.address}: netem delays each way by ${link.delayMs} ms` : `link unshaped (rttMs 0): ${link.why}`);
  const sshd = await startTestSshd({ address: link.address, wrap: link.wrap }).catch((e: unknown) => {
    link.remove();
    throw e;
  });
  const rttMs = link.shaped ? await connectRttMs(link.address, sshd.port) : 0;
  if (link.shaped) log(`measured round trip to ${HOST}: ${round(rttMs)} ms`);
  const hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-bench-b-')));
  const srv = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-bench-srv-')));
  mkdirSync(join(srv, 'w'));
  const hostSocket = tmuxSocketName(null, hostRoot);
  const watchers: PaneWatcher[] = [];
  let rig: E2eRig | undefined;
  try {
    rig = await remoteRig(sshd, link, hostRoot, srv);
    const master = controlPath({ name: HOST, ssh: sshd.target, port: sshd.port }, sshPlaces(rig.home.paths));
    const measure = sides(rig, sshd, hostSocket, master);

    // Idle first: nothing else has run on this daemon yet, so its CPU is the remote sessions' alone.
    const idle = await idleFifty(rig, measure);

    const chatFor = async (appIdx: number, word: string, socket: string, dir: string): Promise<TimedChat> => {
      const appId = rig!.appIds[appIdx]!;
      const chatId = await openChat(rig!, appId, word);
      const s = await sessionOf(rig!, chatId);
      const watcher = new PaneWatcher(socket, s.tmuxName);
      watchers.push(watcher);
      await sleep(500);
      return { fake: rig!.fake, appId, chatId, watcher, dir, label: word };
    };
    const local = await chatFor(0, 'local', rig.tmux.socket, rig.home.dir);
    const remote = await chatFor(1, 'remote', hostSocket, join(srv, 'w'));
    const localTimer = messageTimer(local);
    const remoteTimer = messageTimer(remote);
    // Interleaved, so load from the other helpers on this box falls on both alike.
    const localPane: number[] = [];
    const remotePane: number[] = [];
    for (let i = 0; i < BENCH.messages; i++) {
      localPane.push(...(await localTimer(1, BENCH.pauseBetweenMessagesMs)).toPane);
      remotePane.push(...(await remoteTimer(1, BENCH.pauseBetweenMessagesMs)).toPane);
    }
    const localCard = await screenToCard(local, BENCH.ticks);
    const remoteCard = await screenToCard(remote, BENCH.ticks);

    const reconnectMs = await reconnect(rig, sshd, remote, measure, master);

    const overheadMedian = quantile(remotePane, 0.5) - quantile(localPane, 0.5);
    const result = {
      'remote.quick': QUICK ? 1 : 0,
      'remote.rttMs': round(rttMs),
      'remote.linkShaped': link.shaped ? 1 : 0,
      'remote.overheadMs.median': round(overheadMedian),
      'remote.overheadMs.p95': round(quantile(remotePane, 0.95) - quantile(localPane, 0.95)),
      'remote.messageToPaneMs.median': round(quantile(remotePane, 0.5)),
      'remote.messageToPaneMs.p95': round(quantile(remotePane, 0.95)),
      'remote.local.messageToPaneMs.median': round(quantile(localPane, 0.5)),
      'remote.local.messageToPaneMs.p95': round(quantile(localPane, 0.95)),
      'remote.messages': remotePane.length,
      'remote.frameToCardMs.median': round(quantile(remoteCard.toCard, 0.5)),
      'remote.frameToCardMs.p95': round(quantile(remoteCard.toCard, 0.95)),
      'remote.frameToCardNeverShown': remoteCard.neverShown,
      'remote.local.frameToCardMs.median': round(quantile(localCard.toCard, 0.5)),
      'remote.local.frameToCardMs.p95': round(quantile(localCard.toCard, 0.95)),
      'remote.idle50.sessions': idle.sessions,
      'remote.idle50.measuredS': idle.measuredS,
      'remote.idle50.daemonCpuSPer10Min': round(idle.daemonCpuSPer10Min),
      'remote.idle50.hostCpuSPer10Min': round(idle.hostCpuSPer10Min),
      'remote.idle50.daemonRssMB': round(idle.daemonRssMB),
      'remote.idle50.hostRssMB': round(idle.hostRssMB),
      'remote.idle50.daemonPssMB': round(idle.daemonPssMB),
      'remote.idle50.hostPssMB': round(idle.hostPssMB),
      'remote.idle50.hostProcesses': idle.hostProcesses,
      'remote.linkDownS': BENCH.linkDownS,
      'remote.reconnectMs': reconnectMs,
      'remote.meetsOverhead': overheadMedian <= rttMs + GOALS.overheadOverRttMs ? 1 : 0,
      'remote.meetsIdle': idle.daemonCpuSPer10Min <= GOALS.idleDaemonCpuSPer10Min ? 1 : 0,
      'remote.meetsReconnect': reconnectMs <= GOALS.reconnectMs ? 1 : 0,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (e) {
    // Why, from the daemon's side: its last log lines (stderr only; the rig's folder goes with the cleanup below).
    if (rig) {
      const kept = join(tmpdir(), 'larkmux-bench-remote-daemon.log');
      writeFileSync(kept, rig.logText());
      log(`the daemon's whole log is in ${kept}; its last lines:\n${rig.logText().split('\n').slice(-60).join('\n')}`);
    }
    throw e;
  } finally {
    for (const w of watchers) w.dispose();
    await rig?.cleanup();
    await sshd.cleanup();
    link.remove();
    // b's tmux server (larkmux's workers there started it) ends with the benchmark.
    spawnSync('tmux', ['-L', hostSocket, 'kill-server']);
    for (const d of [hostRoot, srv]) rmSync(d, { recursive: true, force: true });
  }
}

// Exits when done: the fake Feishu's and the watchers' last sockets need not hold the result back.
main().then(() => process.exit(0), (e: unknown) => {
  log(`bench remote failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
