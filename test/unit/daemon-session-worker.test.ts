// The one wake rule for messages to a session's worker, with a real in-memory channel standing in for the pool.
import { describe, expect, it } from 'vitest';
import type { DaemonToWorker } from '../../src/shared/ipc.js';
import { SessionWorker, WAKE_RULE, delivered, type WorkerChannel } from '../../src/daemon/workers/session-worker.js';

const ID = 'a'.repeat(32);

/** Holds which sessions have a worker and what each was sent; `startable` says whether a wake can fork one. */
class FakeChannel implements WorkerChannel {
  readonly running = new Set<string>();
  readonly sent: DaemonToWorker[] = [];
  wakes = 0;
  failSends = false;
  constructor(private readonly startable: boolean) {}
  has(id: string): boolean {
    return this.running.has(id);
  }
  send(id: string, msg: DaemonToWorker): boolean {
    if (!this.running.has(id) || this.failSends) return false;
    this.sent.push(msg);
    return true;
  }
  wake(id: string): boolean {
    this.wakes++;
    if (this.startable) this.running.add(id);
    return this.startable;
  }
}

const worker = (ch: FakeChannel) => new SessionWorker(ID, ch, () => ch.wake(ID));
const by = { userId: 'ou_alice' };
const calls: Record<keyof typeof WAKE_RULE, (w: SessionWorker) => ReturnType<SessionWorker['key']>> = {
  input: (w) => w.input('om_1', 'hi', by),
  raw_input: (w) => w.rawInput('om_1', '/model x'),
  key: (w) => w.key('esc', by),
  selection_choice: (w) => w.choose('p1', 0, by, 'typed'),
  capture_now: (w) => w.captureNow(),
  set_display: (w) => w.setDisplay('text'),
  web_revoke: (w) => w.revokeWrites(),
  hurry: (w) => w.hurry('om_2', 'interrupt', by),
};

describe('SessionWorker: the wake rule', () => {
  it.each([
    // A sleeping worker that can be forked:
    { type: 'key', running: false, startable: true, outcome: 'sent', wakes: 1 },
    { type: 'selection_choice', running: false, startable: true, outcome: 'sent', wakes: 1 },
    { type: 'capture_now', running: false, startable: true, outcome: 'sent', wakes: 1 },
    // The display mode and web revocations need no CLI: a sleeping worker is left asleep.
    { type: 'set_display', running: false, startable: true, outcome: 'skipped', wakes: 0 },
    { type: 'web_revoke', running: false, startable: true, outcome: 'skipped', wakes: 0 },
    // A waiting message lives in a running worker's queue: a sleeping one has none to hurry, and is not woken for it.
    { type: 'hurry', running: false, startable: true, outcome: 'skipped', wakes: 0 },
    // A prompt is launched through the capacity keeper first; never a second launch around the caps.
    { type: 'input', running: false, startable: true, outcome: 'no_worker', wakes: 0 },
    { type: 'raw_input', running: false, startable: true, outcome: 'no_worker', wakes: 0 },
    // A worker that cannot start:
    { type: 'key', running: false, startable: false, outcome: 'no_worker', wakes: 1 },
    // A running worker gets everything without a wake.
    ...Object.keys(WAKE_RULE).map((type) => ({ type, running: true, startable: false, outcome: 'sent', wakes: 0 })),
  ])('$type, running=$running, startable=$startable → $outcome', ({ type, running, startable, outcome, wakes }) => {
    const ch = new FakeChannel(startable);
    if (running) ch.running.add(ID);
    const got = calls[type as keyof typeof WAKE_RULE](worker(ch));
    expect(got).toBe(outcome);
    expect(ch.wakes).toBe(wakes);
    expect(ch.sent.map((m) => m.type)).toEqual(outcome === 'sent' ? [type] : []);
  });

  it('builds messages the worker accepts, the typed answer only when given', () => {
    const ch = new FakeChannel(true);
    ch.running.add(ID);
    const w = worker(ch);
    w.choose('p1', 2, by);
    w.choose('p1', 1, by, '改成 50');
    w.key('ctrl_c');
    expect(ch.sent).toEqual([
      { type: 'selection_choice', promptId: 'p1', optionIndex: 2, by },
      { type: 'selection_choice', promptId: 'p1', optionIndex: 1, by, text: '改成 50' },
      { type: 'key', key: 'ctrl_c' },
    ]);
  });

  it('a send the pool refuses is reported, not delivered', () => {
    const ch = new FakeChannel(true);
    ch.running.add(ID);
    ch.failSends = true;
    const o = worker(ch).key('enter', by);
    expect(o).toBe('send_failed');
    expect(delivered(o)).toBe(false);
    expect(delivered('skipped')).toBe(true);
  });
});
