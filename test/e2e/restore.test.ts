// Nothing is lost: restarts, daemon and worker kills, damaged stores and capacity caps, with the real daemon and shells.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { cardsFor, headerColour, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v) return v as T;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

// Caps, not expectations: each cold start holds the readiness gate for its settle time, and on a loaded CI box six
// sessions with a restart took 184 s of the old 240 s limit.
describe('restore and capacity', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  async function panePids(r: E2eRig): Promise<Map<string, string>> {
    const res = await r.tmux.run(['list-panes', '-a', '-F', '#{session_name} #{pane_pid}']);
    return new Map(res.stdout.trim().split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
  }

  /** Sends `echo <tag>-$((n+1))` in a chat and waits for the answer `<tag>-<n+1>`. */
  async function ask(r: E2eRig, chatId: string | undefined, tag: string, n: number): Promise<{ chatId: string; messageId: string }> {
    const appId = r.appIds[0]!;
    const m = await r.fake.injectMessage({ chatType: 'p2p', ...(chatId ? { chatId } : {}), text: `echo ${tag}-$((${n}+1))` });
    await r.fake.waitFor(() => textsIn(r.fake, appId, m.chatId).some((t) => t.includes(`${tag}-${n + 1}`)), 40_000, `answer ${tag}`);
    return { chatId: m.chatId, messageId: m.messageId };
  }

  it.each([
    ['larkmux restart', async (r: E2eRig) => expect((await runLarkmux(['restart'], r.home.env)).code).toBe(0)],
    [
      'kill -9 of the daemon, then larkmux start',
      async (r: E2eRig) => {
        const pid = readPid(r.home.paths.pidFile)!;
        process.kill(pid, 'SIGKILL');
        await until('daemon gone', () => !isAlive(pid));
        expect((await runLarkmux(['start'], r.home.env)).code).toBe(0);
      },
    ],
  ] as const)('five live sessions survive %s: same CLIs, no duplicated cards or replies', async (_name, bounce) => {
    rig = await startRig();
    await rig.start();
    const r = rig;
    const chats: string[] = [];
    for (let i = 0; i < 5; i++) chats.push((await ask(r, undefined, `s${i}`, i)).chatId);
    const pidsBefore = await panePids(r);
    expect(pidsBefore.size).toBe(5);
    await new Promise((res) => setTimeout(res, 1500)); // let the last cards settle
    const countBefore = r.fake.messages.length;
    const historyBefore = r.fake.messages.map((m) => m.history.length);

    await bounce(r);
    await r.fake.waitFor(() => r.fake.connectionCount(r.appIds[0]) > 0, 15_000, 'reconnected');
    await new Promise((res) => setTimeout(res, 1500));
    // Nothing new was sent by the restart itself.
    expect(r.fake.messages.length).toBe(countBefore);
    const st = await r.status();
    expect(st.sessions).toHaveLength(5);
    expect(st.workers).toBe(0); // restored with metadata only

    for (let i = 0; i < 5; i++) {
      const before = r.fake.messages.length;
      const { messageId } = await ask(r, chats[i], `t${i}`, 10 + i);
      expect(cardsFor(r.fake, r.appIds[0]!, messageId)).toHaveLength(1);
      const answers = textsIn(r.fake, r.appIds[0]!, chats[i]!).filter((t) => t.includes(`t${i}-${11 + i}`));
      expect(answers).toHaveLength(1);
      expect(r.fake.messages.length - before).toBe(2); // one card, one answer
    }
    expect(await panePids(r)).toEqual(pidsBefore);
    // Old messages were never re-sent; old cards were patched at most to freeze them.
    r.fake.messages.slice(0, countBefore).forEach((m, i) => expect(m.history.length).toBeGreaterThanOrEqual(historyBefore[i]!));
  }, 360_000);

  it('kill -9 of one worker mid-turn: the other sessions never notice; the next message re-attaches to the same CLI', async () => {
    rig = await startRig();
    await rig.start();
    const r = rig;
    const a = await ask(r, undefined, 'a', 1);
    const b = await ask(r, undefined, 'b', 1);
    const st = await r.status();
    const sa = st.sessions.find((s: any) => s.key.startsWith(a.chatId));
    const sb = st.sessions.find((s: any) => s.key.startsWith(b.chatId));
    expect(sa?.workerPid).toBeDefined();
    const pidsBefore = await panePids(r);

    await r.fake.injectMessage({ chatType: 'p2p', chatId: a.chatId, text: 'sleep 2; echo slow-done' });
    await new Promise((res) => setTimeout(res, 700));
    process.kill(sa.workerPid, 'SIGKILL');
    // The other session carries on with the same worker.
    await ask(r, b.chatId, 'b2', 5);
    expect((await r.status()).sessions.find((s: any) => s.id === sb.id).workerPid).toBe(sb.workerPid);
    expect((await r.status()).pid).toBe(st.pid);

    // The next message in the killed worker's chat reaches the same CLI process.
    await ask(r, a.chatId, 'a2', 7);
    expect(await panePids(r)).toEqual(pidsBefore);
    const pane = await r.tmux.run(['capture-pane', '-p', '-t', sa.tmuxName]);
    expect(pane.stdout).toContain('slow-done');
  }, 120_000);

  it('a store truncated to half: the daemon starts, keeps the damaged file aside, and reports it', async () => {
    rig = await startRig();
    await rig.start();
    const r = rig;
    await ask(r, undefined, 'x', 1);
    await runLarkmux(['stop'], r.home.env);
    const store = r.home.paths.sessionStore(r.appIds[0]!);
    const text = readFileSync(store, 'utf8');
    writeFileSync(store, text.slice(0, Math.floor(text.length / 2)));

    expect((await runLarkmux(['start'], r.home.env)).code).toBe(0);
    const st = await r.status();
    expect(st.bots[0].detail).toMatch(/sessions: .*not valid JSON.*kept aside as .*corrupt-/);
    const aside = readdirSync(r.home.dir).filter((f) => f.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(`${r.home.dir}/${aside[0]}`, 'utf8')).toBe(text.slice(0, Math.floor(text.length / 2)));
    const doctor = JSON.parse((await runLarkmux(['doctor', '--json'], r.home.env)).stdout) as { level: string; label: string; detail: string }[];
    expect(doctor.find((l) => l.label === 'store')).toMatchObject({ level: 'WARN' });
    // The CLI that lost its record is an orphan now: doctor lists it and prune removes it.
    expect(doctor.find((l) => l.label === 'tmux orphans')?.detail).toMatch(/lmx-[0-9a-f]{8}/);
    const pruned = await runLarkmux(['sessions', 'prune'], r.home.env);
    expect(pruned.stdout).toMatch(/removed 1 tmux session/);
    // And the bot still works.
    await ask(r, undefined, 'y', 2);
  }, 120_000);

  it('maxLiveWorkers=2 and maxLiveClis=3 with six sessions: caps hold, busy sessions are untouched, every session comes back', async () => {
    rig = await startRig({ botOverrides: { maxLiveWorkers: 2, maxLiveClis: 3 } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    // A busy session first: it must never be detached or stopped while it works. It works until the test says so
    // (a file appears), not for a fixed time: on a loaded machine the five other sessions can take longer than any
    // sleep, and a busy session that finished early is rightly detached as the least recently used idle one.
    const release = join(r.home.dir, 'release-busy');
    const busy = await r.fake.injectMessage({ chatType: 'p2p', text: `until [ -e ${release} ]; do sleep 0.3; done; echo busy-finished` });
    const busyCard = await until('busy card', () => cardsFor(r.fake, appId, busy.messageId)[0]);
    await r.fake.waitFor(() => headerColour(busyCard.content) === 'orange', 20_000, 'busy working');
    const busyUntouched = async () => {
      const s = (await r.status()).sessions.find((x: any) => x.key.startsWith(busy.chatId));
      expect(s, 'the busy session was detached or stopped while it worked').toMatchObject({ worker: true, lifecycle: 'live' });
    };
    const chats: string[] = [];
    for (let i = 0; i < 5; i++) {
      chats.push((await ask(r, undefined, `c${i}`, i)).chatId);
      await busyUntouched();
    }

    const check = async () => {
      const st = await r.status();
      const bot = st.bots[0];
      return bot.liveWorkers <= 2 && bot.liveClis <= 3 ? st : undefined;
    };
    const st = await until('caps hold', check, 30_000);
    const busySession = st.sessions.find((s: any) => s.key.startsWith(busy.chatId));
    expect(busySession).toMatchObject({ worker: true, lifecycle: 'live' });
    expect(st.sessions.filter((s: any) => s.lifecycle === 'stopped').length).toBeGreaterThanOrEqual(2);
    expect(textsIn(r.fake, appId, busy.chatId).some((t) => t.includes('busy-finished'))).toBe(false);
    writeFileSync(release, '');
    await r.fake.waitFor(() => textsIn(r.fake, appId, busy.chatId).some((t) => t.includes('busy-finished')), 40_000, 'busy session finished untouched');

    // Every stopped or detached session answers again (stopped shells start fresh and say so).
    for (let i = 0; i < 5; i++) await ask(r, chats[i], `back${i}`, 20 + i);
    const after = await until('caps hold again', check, 30_000);
    expect(after.bots[0].liveClis).toBeLessThanOrEqual(3);
    const notices = r.fake.messages.filter((m) => m.msgType === 'interactive').map((m) => JSON.stringify(m.history));
    expect(notices.join('\n')).toContain('started fresh');
  }, 480_000);
});
