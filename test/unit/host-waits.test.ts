// The waits of prompts whose host could not be reached (host-waits.ts) over a real store file: they keep their order
// through failed tries and new messages, survive a new HostWaits on the same file (a daemon restart) without telling
// the topic again, and a refused host key is tried again only when known_hosts changes (or after an hour).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { HostWaitStore } from '../../src/daemon/sessions/host-wait-store.js';
import { HOST_RETRY, HostWaits, type HostWaitReason, type WaitingPrompt } from '../../src/daemon/sessions/host-waits.js';
import type { SendOutcome, SessionWorker } from '../../src/daemon/workers/session-worker.js';

const APP = 'cli_waits';
const prompt = (n: string): WaitingPrompt => ({ type: 'input', turnId: `om_${n}`, text: `echo ${n}`, requester: { userId: 'ou_1' } });

/** One session on host gpu1 and what its host does: the prompts that reached it, the notices its topic got. */
class Rig {
  readonly session: SessionCore = newSessionCore({ appId: APP, anchorId: 'om_root', scope: 'thread', chatId: 'oc_1', chatType: 'group', cli: 'shell', cwd: '/srv', host: 'gpu1', ownerId: 'ou_1', backend: 'tmux', now: 0 });
  hostUp = false;
  stamp = 'k1';
  reached: string[] = [];
  told: HostWaitReason[] = [];
  waits!: HostWaits;
  readonly store: HostWaitStore;
  private readonly worker = {
    // A prompt that was in flight reaches the host marked so (`@` when it was first handed over).
    input: (turnId: string, _t: string, _r: unknown, since?: number): SendOutcome => (this.hostUp ? (this.reached.push(since === undefined ? turnId : `${turnId}@${since}`), 'sent') : 'no_worker'),
    rawInput: (turnId: string): SendOutcome => (this.hostUp ? (this.reached.push(turnId), 'sent') : 'no_worker'),
  } as unknown as SessionWorker;

  constructor(home: string) {
    this.store = new HostWaitStore({ home, appId: APP, debounceMs: 0 });
  }

  async open(): Promise<HostWaits> {
    this.waits = new HostWaits({
      session: (id) => (id === this.session.id ? this.session : undefined),
      inOrder: (_s, job) => void job(),
      launch: async () => this.hostUp,
      worker: () => this.worker,
      notify: (_s, _since, why) => this.told.push(why),
      keysStamp: () => this.stamp,
      store: this.store,
    });
    await this.waits.load();
    return this.waits;
  }
}

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-waits-'));
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(home, { recursive: true, force: true });
});

describe('HostWaits', () => {
  it('keeps the order: what a failed try handed over goes before what joined since, and each reaches the host once', async () => {
    const rig = new Rig(home);
    const waits = await rig.open();
    waits.hold(rig.session.id, [{ type: 'capture_now' }, prompt('a')]);
    expect(waits.join(rig.session.id, prompt('b'))).toBe(true);
    expect(rig.told).toEqual(['unreachable']);
    await vi.advanceTimersByTimeAsync(HOST_RETRY.firstMs);
    // The try failed (launch false): a and b wait again, in order; c came meanwhile.
    waits.join(rig.session.id, prompt('c'));
    rig.hostUp = true;
    await vi.advanceTimersByTimeAsync(HOST_RETRY.maxMs);
    expect(rig.reached).toEqual(['om_a', 'om_b', 'om_c']);
    expect(rig.told).toEqual(['unreachable']);
    waits.recovered(rig.session.id);
    await vi.advanceTimersByTimeAsync(10 * HOST_RETRY.maxMs);
    expect(rig.reached).toEqual(['om_a', 'om_b', 'om_c']);
  });

  it('a prompt in flight when the link dropped goes first, marked in flight (through a restart too); the unsent after it', async () => {
    const first = new Rig(home);
    const waits = await first.open();
    waits.hold(first.session.id, [prompt('b')], 'unreachable', [{ ...prompt('a'), inFlightSince: 1234 }]);
    expect(first.told).toEqual(['unreachable']);
    await waits.dispose();
    const second = new Rig(home);
    Object.assign(second, { session: first.session });
    second.hostUp = true;
    await second.open();
    await vi.advanceTimersByTimeAsync(HOST_RETRY.firstMs);
    expect(second.reached).toEqual(['om_a@1234', 'om_b']);
    expect(second.told).toEqual([]);
  });

  it('a new HostWaits on the same file (a daemon restart) sends what waited, in order, without telling the topic again', async () => {
    const first = new Rig(home);
    const waits = await first.open();
    waits.hold(first.session.id, [prompt('a'), prompt('b')]);
    // The daemon stops: what waits is on disk once its dispose settles.
    await waits.dispose();

    const again = new Rig(home);
    Object.assign(again, { session: first.session });
    await again.open();
    again.hostUp = true;
    await vi.advanceTimersByTimeAsync(HOST_RETRY.firstMs);
    expect(again.reached).toEqual(['om_a', 'om_b']);
    expect(again.told).toEqual([]);
  });

  it('a changed host key: told once, not tried while known_hosts is unchanged (until an hour passed), tried soon after it changes', async () => {
    const rig = new Rig(home);
    const waits = await rig.open();
    waits.hold(rig.session.id, [prompt('a')], 'host-key-changed');
    rig.hostUp = true;
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(rig.reached).toEqual([]);
    expect(rig.told).toEqual(['host-key-changed']);
    rig.stamp = 'k2';
    await vi.advanceTimersByTimeAsync(HOST_RETRY.maxMs);
    expect(rig.reached).toEqual(['om_a']);

    // Unchanged known_hosts: tried again after the hour.
    waits.recovered(rig.session.id);
    rig.hostUp = false;
    waits.hold(rig.session.id, [prompt('b')], 'host-key-changed');
    rig.hostUp = true;
    await vi.advanceTimersByTimeAsync(HOST_RETRY.keyChangedMs - 2 * HOST_RETRY.maxMs);
    expect(rig.reached).toEqual(['om_a']);
    await vi.advanceTimersByTimeAsync(3 * HOST_RETRY.maxMs);
    expect(rig.reached).toEqual(['om_a', 'om_b']);
  });
});
