// Idle sessions cost no worker (issue 14): after idleDetachMinutes without activity the daemon detaches the worker,
// the CLI keeps running in tmux (the same shell, with its variables), and the next message re-attaches and is
// answered; a session a web terminal is watching keeps its worker until the terminal closes. Real built daemon,
// fake Feishu, shell CLI, real tmux.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readPid } from '../../src/platform/pid-lock.js';
import { WEBTERM_WS_PATH } from '../../src/shared/webterm-protocol.js';
import { answeredInTopic, cardsFor, elementsOf, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { workerChildren } from '../support/host-sampler.js';
import { until } from '../support/until.js';

/**
 * 15 s: long enough for the test to read the live session after the answer even on a machine whose load average is
 * near 20 (3 s was not: the worker was already detached when the test looked), short enough to wait for.
 */
const IDLE_MINUTES = 0.25;
/** 3 s for the watched session: the 12 s it is watched must span several idle periods (it polls for the worker). */
const WATCHED_IDLE_MINUTES = 0.05;
const IDLE_LOG = /"msg":"idle: detached the worker/g;

async function sessionOf(r: E2eRig, chatId: string): Promise<any> {
  return (await r.status()).sessions.find((s: any) => s.key.startsWith(chatId));
}

function viewUrlOf(card: unknown): string | undefined {
  const b = elementsOf(card).find((e) => e.tag === 'button' && e.text?.content === 'Web terminal');
  return b?.behaviors?.find((x: any) => x.type === 'open_url')?.default_url;
}

describe('idle sessions give their worker up', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('an idle session is detached (its CLI keeps running), and the next message re-attaches to the same CLI and is answered', async () => {
    rig = await startRig({ botOverrides: { idleDetachMinutes: IDLE_MINUTES } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;
    const daemonPid = readPid(r.home.paths.pidFile)!;

    // A shell variable proves later that the very same CLI process answered.
    const first = await r.fake.injectMessage({ chatType: 'p2p', text: 'LMX_IDLE_MARK=kept-$((6*7)); echo set-$LMX_IDLE_MARK' });
    await r.fake.waitFor(() => textsIn(r.fake, appId, first.chatId).some((t) => t.includes('set-kept-42')), 60_000, 'first answer');
    const before = await sessionOf(r, first.chatId);
    expect(before).toMatchObject({ worker: true, lifecycle: 'live' });

    await until('worker detached for being idle', async () => (await sessionOf(r, first.chatId))?.lifecycle === 'detached', 60_000);
    const detached = await sessionOf(r, first.chatId);
    expect(detached).toMatchObject({ worker: false, lifecycle: 'detached' });
    expect(await workerChildren(daemonPid)).not.toContain(before.workerPid);
    expect(r.logText().match(IDLE_LOG)).toHaveLength(1);
    // The CLI is still there in tmux: nothing was stopped.
    expect((await r.tmux.run(['has-session', '-t', before.tmuxName])).code).toBe(0);
    expect(r.logText()).not.toMatch(/stopped the least recently used/);

    const second = await r.fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: 'echo again-$LMX_IDLE_MARK' });
    await r.fake.waitFor(() => textsIn(r.fake, appId, first.chatId).some((t) => t.includes('again-kept-42')), 60_000, 'answer after re-attach');
    const after = await sessionOf(r, first.chatId);
    expect(after.id).toBe(before.id);
    expect(after.tmuxName).toBe(before.tmuxName);
    expect(second.messageId).toBeDefined();
    // Idle again: detached a second time (the timer is re-armed by the new turn, not spent once).
    await r.fake.waitFor(() => (r.logText().match(IDLE_LOG) ?? []).length === 2, 60_000, 'second idle detach');
  }, 240_000);

  it('a web terminal on the session keeps its worker while it is open; once it closes the idle worker goes', async () => {
    rig = await startRig({ botOverrides: { idleDetachMinutes: WATCHED_IDLE_MINUTES } });
    await rig.start();
    const r = rig;
    const appId = r.appIds[0]!;

    const msg = await r.fake.injectMessage({ chatType: 'group', text: 'echo watched-$((40+2))', mentionBot: true });
    await r.fake.waitFor(() => answeredInTopic(r.fake, appId, msg.messageId, 'watched-42'), 60_000, 'answer');
    const viewUrl = await r.fake.waitFor(() => viewUrlOf(cardsFor(r.fake, appId, msg.messageId)[0]?.content), 20_000, 'view link on the card');

    // The read-only terminal's socket, as the page opens it (the view token in the query).
    const wsUrl = new URL(WEBTERM_WS_PATH, viewUrl);
    wsUrl.protocol = 'ws:';
    wsUrl.search = new URL(viewUrl).search;
    const ws = new WebSocket(wsUrl);
    let screen = '';
    ws.on('message', (d) => (screen += d.toString()));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await r.fake.waitFor(() => screen.length > 0, 30_000, 'the pane shown through the socket');
    const watched = await until('worker live while watched', async () => {
      const s = (await r.status()).sessions[0];
      return s?.worker ? s : undefined;
    }, 30_000);
    const detachesBefore = (r.logText().match(IDLE_LOG) ?? []).length;

    // Four idle periods with the terminal open: the worker stays, the socket stays open.
    await new Promise((res) => setTimeout(res, 12_000));
    const still = (await r.status()).sessions[0];
    expect(still).toMatchObject({ worker: true, lifecycle: 'live', workerPid: watched.workerPid });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect((r.logText().match(IDLE_LOG) ?? []).length).toBe(detachesBefore);

    ws.close();
    await until('detached once the terminal closed', async () => (await r.status()).sessions[0]?.lifecycle === 'detached', 30_000);
    expect((r.logText().match(IDLE_LOG) ?? []).length).toBe(detachesBefore + 1);
  }, 240_000);
});
