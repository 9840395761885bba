// The session owner (issue 11): wake rules, per-topic order, status kept once, capacity actions. The worker side is a
// small real class recording what the owner asks of it (no worker process); cards go through the real Lark adapter
// to the fake Feishu, so a card a test expects is a card a person would see.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionService, type WorkerControl } from '../../src/daemon/sessions/session-service.js';
import type { Anchor } from '../../src/daemon/ground/anchor.js';
import type { SessionCore } from '../../src/daemon/ground/session-core.js';
import { CapacityKeeper } from '../../src/daemon/sessions/capacity-keeper.js';
import { until } from '../support/until.js';
import { createLogger } from '../../src/platform/log.js';
import { larkmuxPaths } from '../../src/platform/paths.js';
import { BotConfigSchema } from '../../src/shared/config.js';
import { translator } from '../../src/shared/i18n.js';
import type { DaemonToWorker } from '../../src/shared/ipc.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';

type Init = Extract<DaemonToWorker, { type: 'init' }>;

/** A worker pool that runs no processes: it records starts, messages and stops, and can refuse to start. */
class RecordingWorkers implements WorkerControl {
  readonly running = new Set<string>();
  /** Every start and stop in order, and the most workers that ran at once. */
  readonly log: string[] = [];
  maxRunning = 0;
  readonly starts: Init[] = [];
  readonly sent: { sessionId: string; msg: DaemonToWorker }[] = [];
  readonly stops: { sessionId: string; mode: 'kill' | 'detach' }[] = [];
  refuseStarts = false;
  has(id: string): boolean {
    return this.running.has(id);
  }
  send(id: string, msg: DaemonToWorker): boolean {
    if (!this.running.has(id)) return false;
    this.sent.push({ sessionId: id, msg });
    return true;
  }
  start(id: string, init: Init): boolean {
    if (this.refuseStarts) return false;
    this.starts.push(init);
    this.running.add(id);
    this.log.push(`start:${id}`);
    this.maxRunning = Math.max(this.maxRunning, this.running.size);
    return true;
  }
  async stop(id: string, mode: 'kill' | 'detach'): Promise<void> {
    this.stops.push({ sessionId: id, mode });
    this.running.delete(id);
    this.log.push(`${mode}:${id}`);
  }
  types(id: string): string[] {
    return this.sent.filter((s) => s.sessionId === id).map((s) => s.msg.type);
  }
}

/** The capacity keeper's side of the owner: what it was told; a launch starts the worker at once (caps never full here). */
class RecordingCapacity {
  readonly events: string[] = [];
  async launch(group: SessionService, session: SessionCore): Promise<boolean> {
    this.events.push(`launch:${session.id}`);
    return group.workerLive(session.id) || group.ensureWorker(session);
  }
  schedule(): void {
    this.events.push('schedule');
  }
  turnDone(id: string): void {
    this.events.push(`turnDone:${id}`);
  }
  workerGone(id: string): void {
    this.events.push(`workerGone:${id}`);
  }
}

let h: LarkHarness;
let home: string;
beforeEach(async () => {
  h = await startHarness();
  home = mkdtempSync(join(tmpdir(), 'lmx-svc-'));
});
const keepers: CapacityKeeper[] = [];
afterEach(async () => {
  for (const k of keepers.splice(0)) k.dispose();
  await h.cleanup();
  rmSync(home, { recursive: true, force: true });
});

async function owner(opts: { backend?: 'tmux' | 'pty'; maxLiveWorkers?: number } = {}) {
  const p = h.makeAdapter();
  await connectProbe(p);
  const app = TEST_APPS[0]!;
  const caps = opts.maxLiveWorkers ? { maxLiveWorkers: opts.maxLiveWorkers } : {};
  const bot = BotConfigSchema.parse({ name: 'alpha', appId: app.appId, appSecret: app.appSecret, cli: 'shell', workingDir: home, locale: 'en', ...caps });
  const workers = new RecordingWorkers();
  const capacity = new RecordingCapacity();
  const killed: string[][] = [];
  const log = createLogger({ file: join(home, 'test.log') });
  // With caps, the real keeper plans (capacity.ts); without, a recording one that never makes anyone wait.
  const keeper = opts.maxLiveWorkers ? new CapacityKeeper({ groups: () => [service], log }) : null;
  keepers.push(...(keeper ? [keeper] : []));
  const service: SessionService = new SessionService({
    bot, home, log, t: translator('en'), im: p.adapter, workers, tmuxSocket: null,
    backend: opts.backend ?? 'pty', capacity: keeper ?? capacity, frames: testFrames(home),
    killTmux: async (_socket, names) => void killed.push(names),
  });
  expect(await service.load()).toEqual([]);
  const anchor = (chatId: string): Anchor => ({ anchorId: chatId, scope: 'chat', sessionKey: `${app.appId}:${chatId}`, place: { chatId, chatType: 'p2p' }, replyTo: 'om_x' });
  return { service, workers, capacity, killed, anchor, adapter: p.adapter };
}

describe('SessionService: wake rules', () => {
  it('a key wakes a sleeping session: the worker starts (fresh session → mode new), then the key is sent', async () => {
    const { service, workers, anchor } = await owner();
    const s = service.create(anchor('oc_1'), 'ou_owner');
    expect(service.launchesFresh(s.id)).toBe(true);
    expect(service.worker(s).key('esc')).toBe('sent');
    expect(workers.starts.map((i) => i.resume.mode)).toEqual(['new']);
    expect(workers.types(s.id)).toEqual(['key']);
    expect(service.launchesFresh(s.id)).toBe(false);
    expect(service.get(s.id)?.lifecycle).toBe('live');
  });

  it('an old session re-attaches when woken; a failed start is reported, not sent', async () => {
    const { service, workers, anchor } = await owner();
    const s = service.create(anchor('oc_2'), 'ou_owner');
    service.ensureWorker(s);
    await service.detach(s.id);
    expect(service.worker(s).captureNow()).toBe('sent');
    expect(workers.starts.map((i) => i.resume.mode)).toEqual(['new', 'attach']);
    await service.detach(s.id);
    workers.refuseStarts = true;
    expect(service.worker(s).key('enter')).toBe('no_worker');
    expect(workers.types(s.id)).toEqual(['capture_now']);
  });

  it('a prompt never starts a worker itself (the capacity keeper launches within the caps)', async () => {
    const { service, workers, anchor } = await owner();
    const s = service.create(anchor('oc_3'), 'ou_owner');
    expect(service.worker(s).input('t1', 'hello', { userId: 'ou_owner' })).toBe('no_worker');
    expect(workers.starts).toEqual([]);
  });

  it('/display and the Display button do the same: the card mode changes, a sleeping worker is not woken for it', async () => {
    const { service, workers, anchor } = await owner();
    const s = service.create(anchor('oc_4'), 'ou_owner');
    expect(await service.setDisplay(s, 'text')).toBe('skipped');
    expect(workers.starts).toEqual([]);
    // The next worker starts in that mode (its init carries it).
    service.ensureWorker(s);
    expect(workers.starts[0]!.display).toBe('text');
    expect(await service.setDisplay(s, 'hidden')).toBe('sent');
    expect(workers.sent.at(-1)?.msg).toEqual({ type: 'set_display', mode: 'hidden' });
  });
});

describe('SessionService: submit owns the turn', () => {
  /** Every card and text the bot posted in a chat, as one string (what a person could read there). */
  const seenIn = (chatId: string) => JSON.stringify(h.fake.messages.filter((m) => m.chatId === chatId).map((m) => [m.content, m.history]));

  it.each([
    { kind: 'prompt' as const, refuse: false, notices: [], sent: 'input', card: [] as string[] },
    { kind: 'passthrough' as const, refuse: false, notices: [], sent: 'raw_input', card: [] },
    { kind: 'prompt' as const, refuse: false, notices: ['Saved: a.png'], sent: 'input', card: ['Saved: a.png'] },
    { kind: 'prompt' as const, refuse: true, notices: [], sent: null, card: ['The session worker is not running'] },
  ])('$kind (start refused: $refuse, notices: $notices): launched through the keeper, sent as $sent, the card says $card', async (c) => {
    const { service, workers, capacity, anchor } = await owner();
    const chatId = `oc_submit_${c.kind}_${c.refuse}_${c.notices.length}`;
    const s = service.create(anchor(chatId), 'ou_owner');
    workers.refuseStarts = c.refuse;
    const msg = await h.fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo hi' });
    await service.submit(s, { messageId: msg.messageId, requester: { userId: 'ou_asker' }, kind: c.kind, text: 'echo hi', notices: c.notices });
    expect(capacity.events).toContain(`launch:${s.id}`);
    expect(workers.sent.map((x) => x.msg)).toEqual(c.sent ? [expect.objectContaining({ type: c.sent, turnId: msg.messageId, text: 'echo hi' })] : []);
    expect(service.get(s.id)?.requesterId).toBe('ou_asker');
    await h.fake.waitFor(() => seenIn(chatId).includes('echo hi'), 10_000, 'the turn card');
    for (const line of c.card) await h.fake.waitFor(() => seenIn(chatId).includes(line), 10_000, `card says ${line}`);
  });
});

describe('SessionService: a web visit wakes a worker within the caps', () => {
  // Caps 1: session A's worker runs, B sleeps (detached); a web visit to B must not make two workers run.
  it.each([
    { other: 'idle' as const, then: null, rule: 'the idle worker is detached first, then the visited one starts' },
    { other: 'working' as const, then: 'idle' as const, rule: 'the visit waits while the other works, and starts once it is idle' },
  ])('other session $other: $rule', async (c) => {
    const { service, workers, anchor } = await owner({ maxLiveWorkers: 1 });
    const b = service.create(anchor('oc_web_b'), 'ou_owner');
    service.ensureWorker(b);
    await service.detach(b.id);
    const a = service.create(anchor('oc_web_a'), 'ou_owner');
    service.ensureWorker(a);
    service.onWorkerMessage(a.id, { type: 'status', status: c.other });
    workers.log.length = 0;

    const port = service.wakeForWeb(b.id);
    if (c.then) {
      // A working session keeps its worker: the visit waits. The keeper plans on the next turn of the event loop
      // (setImmediate); two turns later it has planned with the visit waiting.
      for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
      expect(workers.log, 'nothing started or stopped while the other session works').toEqual([]);
      service.onWorkerMessage(a.id, { type: 'status', status: c.then });
    }
    await until('the visited session\'s worker started', () => workers.running.has(b.id), 10_000);
    service.onWorkerMessage(b.id, { type: 'ready', webPort: 4321 });
    expect(await port).toEqual({ port: 4321 });
    expect(workers.log).toEqual([`detach:${a.id}`, `start:${b.id}`]);
    expect(workers.maxRunning, 'workers running at once').toBe(1);
  });
});

describe('SessionService: per-topic order', () => {
  it('jobs of one topic run one after another, other topics do not wait, and a failure does not stop the next', async () => {
    const { service } = await owner();
    const order: string[] = [];
    let releaseA!: () => void;
    const gateA = new Promise<void>((r) => (releaseA = r));
    const a1 = service.inSessionOrder('topic-a', async () => {
      order.push('a1 start');
      await gateA;
      order.push('a1 end');
    });
    const a2 = service.inSessionOrder('topic-a', async () => {
      order.push('a2');
      throw new Error('boom');
    });
    const a3 = service.inSessionOrder('topic-a', async () => void order.push('a3'));
    await service.inSessionOrder('topic-b', async () => void order.push('b1'));
    expect(order).toEqual(['a1 start', 'b1']);
    releaseA();
    await Promise.all([a1, a2, a3]);
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2', 'a3']);
  });
});

describe('SessionService: status kept once', () => {
  it("a worker's status report moves the record (what the capacity keeper reads), and tells the keeper", async () => {
    const { service, capacity, anchor } = await owner();
    const s = service.create(anchor('oc_5'), 'ou_owner');
    service.ensureWorker(s);
    capacity.events.length = 0;
    service.onWorkerMessage(s.id, { type: 'status', status: 'working' });
    await expect.poll(() => service.get(s.id)?.status).toBe('working');
    expect(service.statusOf(s)).toBe('working');
    expect(service.statusOf(s)).toBe('working');
    expect(capacity.events).toContain('schedule');
    service.onWorkerMessage(s.id, { type: 'input_failed', turnId: 't9', reason: 'x' });
    expect(capacity.events).toContain(`turnDone:${s.id}`);
    service.onWorkerExit(s.id, false);
    expect(capacity.events).toContain(`workerGone:${s.id}`);
  });

  it('close: the worker is killed, the record says closed/exited, and it is persisted', async () => {
    const { service, workers, anchor } = await owner();
    const s = service.create(anchor('oc_6'), 'ou_owner');
    service.ensureWorker(s);
    expect(await service.close(s.id)).toBe(true);
    expect(workers.stops).toEqual([{ sessionId: s.id, mode: 'kill' }]);
    expect(service.get(s.id)).toMatchObject({ lifecycle: 'closed', status: 'exited' });
    expect(await service.close(s.id)).toBe(false);
    await service.dispose();
    const stored = JSON.parse(readFileSync(larkmuxPaths(home).sessionStore(TEST_APPS[0]!.appId), 'utf8')) as unknown;
    expect(JSON.stringify(stored)).toContain(s.id);
    expect(JSON.stringify(stored)).toMatch(/"lifecycle":\s*"closed"/);
  });
});

describe('SessionService: capacity actions', () => {
  it('detach keeps the CLI (lifecycle detached); stop via worker kills it (stopped, exited)', async () => {
    const { service, workers, anchor } = await owner();
    const a = service.create(anchor('oc_7'), 'ou_owner');
    const b = service.create(anchor('oc_8'), 'ou_owner');
    service.ensureWorker(a);
    service.ensureWorker(b);
    expect(service.counts()).toEqual({ liveWorkers: 2, liveClis: 2 });
    await service.detach(a.id);
    await service.stopCli(b.id, 'worker');
    expect(workers.stops).toEqual([{ sessionId: a.id, mode: 'detach' }, { sessionId: b.id, mode: 'kill' }]);
    expect(service.get(a.id)).toMatchObject({ lifecycle: 'detached' });
    expect(service.get(b.id)).toMatchObject({ lifecycle: 'stopped', status: 'exited' });
    expect(service.counts()).toEqual({ liveWorkers: 0, liveClis: 1 });
  });

  it('a detached CLI is stopped through tmux (no worker is forked to kill it); a pty session has nothing left to end', async () => {
    const tmux = await owner({ backend: 'tmux' });
    const s = tmux.service.create(tmux.anchor('oc_9'), 'ou_owner');
    tmux.service.ensureWorker(s);
    await tmux.service.detach(s.id);
    await tmux.service.stopCli(s.id, 'tmux');
    expect(tmux.killed).toEqual([[s.tmuxName]]);
    expect(tmux.workers.starts).toHaveLength(1);
    const pty = await owner({ backend: 'pty' });
    const p = pty.service.create(pty.anchor('oc_10'), 'ou_owner');
    await pty.service.stopCli(p.id, 'tmux');
    expect(pty.killed).toEqual([]);
    expect(pty.service.get(p.id)).toMatchObject({ lifecycle: 'stopped' });
  });

  it('a fresh session that never launched counts as no CLI', async () => {
    const { service, anchor } = await owner();
    service.create(anchor('oc_11'), 'ou_owner');
    expect(service.counts()).toEqual({ liveWorkers: 0, liveClis: 0 });
  });
});
