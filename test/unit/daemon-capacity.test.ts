import { describe, expect, it } from 'vitest';
import { planCapacity, type CapacityEntry } from '../../src/daemon/capacity.js';

const e = (id: string, status: CapacityEntry['status'], at: number, worker = true, cliRunning = true): CapacityEntry => ({ id, status, lastActivityAt: at, worker, cliRunning });

describe('planCapacity', () => {
  it.each([
    ['under both caps: nothing', [e('a', 'idle', 1), e('b', 'idle', 2)], { maxLiveWorkers: 2, maxLiveClis: 3 }, undefined, { detach: [], stop: [] }],
    ['one worker too many: the least recent idle one detaches', [e('a', 'idle', 1), e('b', 'idle', 2), e('c', 'idle', 3)], { maxLiveWorkers: 2, maxLiveClis: 3 }, undefined, { detach: ['a'], stop: [] }],
    ['busy sessions are never touched', [e('a', 'working', 1), e('b', 'waiting', 2), e('c', 'idle', 3)], { maxLiveWorkers: 1, maxLiveClis: 1 }, undefined, { detach: [], stop: ['c'] }],
    ['the session being served is kept', [e('a', 'idle', 1), e('b', 'idle', 2)], { maxLiveWorkers: 1, maxLiveClis: 5 }, 'a', { detach: ['b'], stop: [] }],
    ['too many CLIs: least recent stopped; that also frees a worker', [e('a', 'idle', 1), e('b', 'idle', 2), e('c', 'idle', 3), e('d', 'working', 4)], { maxLiveWorkers: 2, maxLiveClis: 3 }, undefined, { detach: ['b'], stop: ['a'] }],
    ['detached CLIs count against the CLI cap, not the worker cap', [e('a', 'idle', 1, false), e('b', 'idle', 2, false), e('c', 'idle', 3)], { maxLiveWorkers: 1, maxLiveClis: 2 }, undefined, { detach: [], stop: ['a'] }],
    ['stopped CLIs count for nothing', [e('a', 'exited', 1, false, false), e('b', 'idle', 2)], { maxLiveWorkers: 1, maxLiveClis: 1 }, undefined, { detach: [], stop: [] }],
    ['six sessions, caps 2 workers / 3 clis', [1, 2, 3, 4, 5, 6].map((i) => e(`s${i}`, 'idle', i)), { maxLiveWorkers: 2, maxLiveClis: 3 }, 's6', { detach: ['s4'], stop: ['s1', 's2', 's3'] }],
  ] as const)('%s', (_name, entries, caps, keep, expected) => {
    expect(planCapacity(entries, caps, keep)).toEqual(expected);
  });
});
