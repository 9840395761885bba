// What a worker on a host leaves behind when its link drops (remote-worker.ts): messages never written come back as
// `unsent`; prompts written whose delivery the host never reported come back as `inFlight`, marked with when they were
// first handed over; prompts the host reported delivered whose answer has not come come back first, marked `delivered`
// (only their answer is due); failed ones and other messages are neither.
import { describe, expect, it } from 'vitest';
import type { DaemonToAgent } from '../../src/shared/host-agent-protocol.js';
import type { DaemonToWorker } from '../../src/shared/ipc.js';
import { RemoteWorker } from '../../src/daemon/workers/remote-worker.js';
import type { WorkerLinkExit } from '../../src/daemon/workers/worker-link.js';

const input = (n: string, extra: object = {}): DaemonToWorker => ({ type: 'input', turnId: `om_${n}`, text: `echo ${n}`, requester: { userId: 'ou_1' }, ...extra });

function linked(): { worker: RemoteWorker; written: DaemonToAgent[]; exits: WorkerLinkExit[] } {
  const worker = new RemoteWorker('s1');
  const written: DaemonToAgent[] = [];
  const exits: WorkerLinkExit[] = [];
  worker.listen({ message: () => undefined, error: () => undefined, exit: (e) => void exits.push(e) });
  return { worker, written, exits };
}

const send = (w: RemoteWorker, m: DaemonToWorker) => w.send(m, () => undefined);

describe('RemoteWorker: the link lost', () => {
  it('never linked: what was queued is unsent, nothing in flight', () => {
    const { worker, exits } = linked();
    send(worker, input('a'));
    worker.exit({ code: null, signal: null, cause: 'link_lost' });
    expect(exits[0]!.unsent?.map((m) => m.type === 'input' && m.turnId)).toEqual(['om_a']);
    expect(exits[0]!.inFlight).toBeUndefined();
  });

  it('linked: prompts without a delivery report are in flight (the first hand-over time kept), the rest are not', () => {
    const { worker, written, exits } = linked();
    send(worker, input('queued'));
    const before = Date.now();
    worker.linked((f) => (written.push(f), true), '/home/h/.larkmux', {});
    send(worker, input('delivered'));
    send(worker, input('failed'));
    send(worker, input('again', { inFlightSince: 42 }));
    send(worker, { type: 'raw_input', turnId: 'om_raw', text: '/model' });
    send(worker, { type: 'capture_now' });
    worker.message({ type: 'input_delivered', turnId: 'om_delivered', evidence: 'busy', enterRetries: 0 });
    worker.message({ type: 'input_failed', turnId: 'om_failed', reason: 'x' });
    worker.exit({ code: null, signal: null, cause: 'link_lost' });
    const inFlight = exits[0]!.inFlight ?? [];
    // om_delivered is running there (no answer yet): it comes back first, marked delivered.
    expect(inFlight.map((m) => m.turnId)).toEqual(['om_delivered', 'om_queued', 'om_again', 'om_raw']);
    expect(inFlight.filter((m) => m.type === 'input' && m.delivered).map((m) => m.turnId)).toEqual(['om_delivered']);
    expect(inFlight.find((m) => m.turnId === 'om_again')!.inFlightSince).toBe(42);
    expect(inFlight.find((m) => m.turnId === 'om_queued')!.inFlightSince).toBeGreaterThanOrEqual(before);
    expect(exits[0]!.unsent).toBeUndefined();
    expect(written.filter((f) => f.kind === 'msg')).toHaveLength(6);
  });

  it('delivered prompts still running come back first, marked delivered, until their answer (or the CLI exit) comes', () => {
    const { worker, exits } = linked();
    worker.linked(() => true, '/home/h/.larkmux', {});
    for (const n of ['answered', 'joined', 'running', 'raw', 'handed']) send(worker, n === 'raw' ? { type: 'raw_input', turnId: 'om_raw', text: '/model' } : input(n));
    for (const n of ['answered', 'joined', 'running', 'raw']) worker.message({ type: 'input_delivered', turnId: `om_${n}`, evidence: 'transcript', enterRetries: 0 });
    worker.message({ type: 'final_output', turnId: 'om_answered', joined: ['om_joined'], text: 'done' });
    worker.exit({ code: null, signal: null, cause: 'link_lost' });
    const inFlight = exits[0]!.inFlight ?? [];
    expect(inFlight.map((m) => [m.turnId, m.type === 'input' && m.delivered === true])).toEqual([['om_running', true], ['om_handed', false]]);
  });

  it('a CLI that exited leaves no running turn to follow', () => {
    const { worker, exits } = linked();
    worker.linked(() => true, '/home/h/.larkmux', {});
    send(worker, input('a'));
    worker.message({ type: 'input_delivered', turnId: 'om_a', evidence: 'busy', enterRetries: 0 });
    worker.message({ type: 'cli_exit', code: 0, logTail: '' });
    worker.exit({ code: null, signal: null, cause: 'link_lost' });
    expect(exits[0]!.inFlight).toBeUndefined();
  });

  it('an exit of the worker itself (not the link) leaves nothing to check', () => {
    const { worker, exits } = linked();
    worker.linked(() => true, '/home/h/.larkmux', {});
    send(worker, input('a'));
    worker.exit({ code: 1, signal: null });
    expect(exits[0]!.inFlight).toBeUndefined();
  });
});
