// Many topics on one host (issue 14): a stream of new topics under small caps — every message answered in its own
// topic, caps held (sampled from outside), the busy session untouched — and a message that arrives while its CLI is
// being stopped is answered, not lost. Real built daemon, fake Feishu, shell CLI, real tmux.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readPid } from '../../src/platform/pid-lock.js';
import { answeredInTopic, cardsFor, headerColour, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { overCap, sampleHost, tmuxCliNames, workerChildren } from '../support/host-sampler.js';
import { until } from '../support/until.js';

/** The issue's rule: over a cap for more than this is a failure; shorter blips are the planner catching up. */
const CAP_GRACE_MS = 2_000;


describe('capacity under a stream of topics', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('40 topics at 4 per second with caps 4/8: every message answered in its own topic, caps never over for more than 2 s, the busy session untouched', async () => {
    rig = await startRig({ botOverrides: { maxLiveWorkers: 4, maxLiveClis: 8 } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    const daemonPid = readPid(r.home.paths.pidFile)!;

    // A session that works until the test releases it: it must keep its worker and its CLI throughout.
    const release = join(r.home.dir, 'release-busy');
    const busy = await r.fake.injectMessage({ chatType: 'p2p', text: `until [ -e ${release} ]; do sleep 0.3; done; echo busy-finished` });
    const busyCard = await r.fake.waitFor(() => cardsFor(r.fake, appId, busy.messageId)[0], 60_000, 'busy card');
    await r.fake.waitFor(() => headerColour(busyCard.content) === 'orange', 60_000, 'busy session working');
    const busyBefore = (await r.status()).sessions.find((s: any) => s.key.startsWith(busy.chatId));
    expect(busyBefore).toMatchObject({ worker: true, lifecycle: 'live' });

    const sampler = sampleHost(daemonPid, r.tmux);
    const group = `oc_capacity_${Date.now().toString(16)}`;
    const topics: { messageId: string; expect: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const m = await r.fake.injectMessage({ chatType: 'group', chatId: group, text: `echo topic${i}-$((${i}*3+1))`, mentionBot: true });
      topics.push({ messageId: m.messageId, expect: `topic${i}-${i * 3 + 1}` });
      await new Promise((res) => setTimeout(res, 250));
    }
    // Generous: 40 cold starts through 3 free worker slots on a loaded 2-core machine (≈15 s a round there).
    const unanswered = () => topics.filter((t) => !answeredInTopic(r.fake, appId, t.messageId, t.expect));
    await r.fake.waitFor(() => unanswered().length === 0, 900_000, 'every topic answered').catch((err: Error) => {
      throw new Error(`${err.message}: ${unanswered().length} of 40 not answered (${unanswered().map((t) => t.expect).join(', ')})`);
    });
    await sampler.stop();

    const workers = overCap(sampler.samples, (s) => s.workers, 4);
    const clis = overCap(sampler.samples, (s) => s.clis, 8);
    expect(sampler.samples.length).toBeGreaterThan(10);
    expect(workers.longestMs, `workers over cap 4 (max seen ${workers.max})`).toBeLessThanOrEqual(CAP_GRACE_MS);
    expect(clis.longestMs, `CLIs over cap 8 (max seen ${clis.max})`).toBeLessThanOrEqual(CAP_GRACE_MS);

    // One worker per launch and none to kill a detached CLI (the daemon ends those through tmux): 40 topics + busy.
    expect(r.logText().match(/"msg":"worker started"/g)).toHaveLength(41);

    // The busy session: same worker, its CLI seen in every sample, still working, not answered yet.
    const busyMissing = sampler.samples.filter((s) => !s.cliNames.includes(busyBefore.tmuxName));
    // On failure, what the daemon said about the busy session (its log lines) names the cause.
    const busyLog = () => r.logText().split('\n').filter((l) => l.includes(busyBefore.id.slice(0, 8))).slice(-40).join('\n');
    expect(busyMissing.map((s) => `${s.at}: ${s.clis} CLIs, ${s.workers} workers${s.tmuxSaid ? `, tmux: ${s.tmuxSaid}` : ''}`), `samples without the busy CLI (of ${sampler.samples.length}; ${sampler.failed} unanswered); busy session's log:\n${busyMissing.length ? busyLog() : ''}`).toEqual([]);
    const busyAfter = (await r.status()).sessions.find((s: any) => s.id === busyBefore.id);
    expect(busyAfter).toMatchObject({ worker: true, lifecycle: 'live', workerPid: busyBefore.workerPid });
    expect(await workerChildren(daemonPid)).toContain(busyBefore.workerPid);
    const busyDone = () => textsIn(r.fake, appId, busy.chatId).some((t) => t.includes('busy-finished'));
    expect(busyDone()).toBe(false);
    writeFileSync(release, '');
    await r.fake.waitFor(busyDone, 60_000, 'busy session finished');
  }, 1_100_000);

  // Issue 31 item 15: queued launches the worker cap cannot admit yet used to count against the CLI cap, so a backlog
  // behind busy sessions stopped every idle CLI (72 launches, 64 stops, live CLIs at 4 of 8).
  it('caps 4/8 with a backlog behind 4 busy sessions: idle CLIs are not stopped while fewer than 8 are live; the backlog drains to 8', async () => {
    rig = await startRig({ botOverrides: { maxLiveWorkers: 4, maxLiveClis: 8 } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    const daemonPid = readPid(r.home.paths.pidFile)!;
    const group = `oc_backlog_${Date.now().toString(16)}`;
    const topic = (text: string) => r.fake.injectMessage({ chatType: 'group', chatId: group, text, mentionBot: true });
    const cliNames = async () => (await tmuxCliNames(r.tmux)) ?? [];
    const stops = () => r.logText().match(/stopped the least recently used idle CLI/g)?.length ?? 0;

    // Two quick topics: idle CLIs. Then four that work until released: their workers push the idle ones out (detached,
    // their CLIs keep running): 6 CLIs live, 4 workers busy.
    const quick = [await topic('echo quick-$((1+1))'), await topic('echo quick-$((2+2))')];
    await r.fake.waitFor(() => answeredInTopic(r.fake, appId, quick[0]!.messageId, 'quick-2') && answeredInTopic(r.fake, appId, quick[1]!.messageId, 'quick-4'), 120_000, 'quick topics answered');
    const release = join(r.home.dir, 'release-busy');
    const busy: { messageId: string }[] = [];
    for (let i = 0; i < 4; i++) busy.push(await topic(`until [ -e ${release} ]; do sleep 0.3; done; echo busy${i}-$((${i}+10))`));
    await r.fake.waitFor(() => busy.every((b) => headerColour(cardsFor(r.fake, appId, b.messageId)[0]?.content) === 'orange'), 120_000, 'four busy sessions working');
    await until('6 CLIs live', async () => (await cliNames()).length === 6, 60_000);
    const before = (await cliNames()).sort();

    // A backlog of six: no worker slot is free, so they wait (each card says it is queued) and nothing is stopped.
    const sampler = sampleHost(daemonPid, r.tmux);
    const backlog: { m: { messageId: string }; expect: string }[] = [];
    for (let i = 0; i < 6; i++) backlog.push({ m: await topic(`echo backlog${i}-$((${i}*7))`), expect: `backlog${i}-${i * 7}` });
    await r.fake.waitFor(() => backlog.every((b) => cardsFor(r.fake, appId, b.m.messageId).some((c) => JSON.stringify(c.content).includes('Queued:'))), 60_000, 'every backlog card says it is queued');
    expect(stops(), 'idle CLIs stopped for launches that could not start').toBe(0);
    expect((await cliNames()).sort(), 'the same 6 CLIs still live').toEqual(before);

    // Released: the backlog drains through the four worker slots; CLIs are stopped only to stay within 8.
    writeFileSync(release, '');
    const unanswered = () => [...busy.map((b, i) => ({ m: b, expect: `busy${i}-${i + 10}` })), ...backlog].filter((t) => !answeredInTopic(r.fake, appId, t.m.messageId, t.expect));
    await r.fake.waitFor(() => unanswered().length === 0, 600_000, 'every topic answered').catch((err: Error) => {
      throw new Error(`${err.message}: not answered: ${unanswered().map((t) => t.expect).join(', ')}`);
    });
    await sampler.stop();
    // 12 sessions, at most 8 CLIs: 8 live at the end, and exactly the 4 stops that made room for them (each stop
    // waited for a launch a worker slot could take; stops finish before those launches, so the count dips between).
    await until('8 CLIs live', async () => (await cliNames()).length === 8, 60_000);
    expect(stops()).toBe(4);
    expect(overCap(sampler.samples, (x) => x.clis, 8).longestMs).toBeLessThanOrEqual(CAP_GRACE_MS);
  }, 900_000);

  it('a message that arrives while its CLI is being stopped is answered, not lost', async () => {
    // Caps 1/1: every message to the other topic stops this topic's CLI; the follow-up arrives right behind it.
    rig = await startRig({ botOverrides: { maxLiveWorkers: 1, maxLiveClis: 1 } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    const group = `oc_stopping_${Date.now().toString(16)}`;
    const a = await r.fake.injectMessage({ chatType: 'group', chatId: group, text: 'echo first-$((1+1))', mentionBot: true });
    await r.fake.waitFor(() => answeredInTopic(r.fake, appId, a.messageId, 'first-2'), 90_000, 'topic A answered');
    let b: string | undefined;
    for (let round = 0; round < 3; round++) {
      // The other topic's message makes the planner stop A's idle CLI; A's own message lands during that stop.
      const other = b
        ? await r.fake.injectMessage({ chatType: 'group', chatId: group, rootId: b, text: `echo other${round}-$((${round}+40))` })
        : await r.fake.injectMessage({ chatType: 'group', chatId: group, text: `echo other${round}-$((${round}+40))`, mentionBot: true });
      b ??= other.messageId;
      const follow = await r.fake.injectMessage({ chatType: 'group', chatId: group, rootId: a.messageId, text: `echo again${round}-$((${round}+70))` });
      await r.fake.waitFor(() => answeredInTopic(r.fake, appId, b!, `other${round}-${round + 40}`), 120_000, `other topic answered (round ${round})`);
      await r.fake.waitFor(() => answeredInTopic(r.fake, appId, a.messageId, `again${round}-${round + 70}`), 120_000, `follow-up answered (round ${round})`);
      // Its card did not stay "Starting": it reached a final state like every answered turn.
      const card = cardsFor(r.fake, appId, a.messageId).find((m) => m.parentId === follow.messageId || JSON.stringify(m.history).includes(`again${round}`));
      expect(card, 'the follow-up got its own card').toBeDefined();
    }
  }, 600_000);
});
