// Capacity per host (issue 29 item 5): sessions on another host count against that host's caps, across bots, and a
// host that is full never holds up a launch on this machine or on another host.
import { describe, expect, it } from 'vitest';
import { HOST_CAP_DEFAULTS, capacityGroup, groupCaps, planCapacity, type CapacityAction, type Caps, type HostSession, type WaitingLaunch } from '../../src/daemon/sessions/capacity.js';

const bots = [
  { appId: 'cli_a', maxLiveWorkers: 5, maxLiveClis: 5, idleDetachMinutes: 10 },
  { appId: 'cli_b', maxLiveWorkers: 1, maxLiveClis: 1 },
];
const hosts = [{ name: 'gpu1', maxLiveWorkers: 1, maxLiveClis: 1 }, { name: 'build', maxLiveWorkers: 2 }, { name: 'bare' }];

describe('capacityGroup and groupCaps', () => {
  it.each<[string, string, string]>([
    ['cli_a', 'local', 'cli_a'],
    ['cli_a', 'gpu1', 'host:gpu1'],
    ['cli_b', 'gpu1', 'host:gpu1'],
  ])('a session of %s on %s counts in %s', (appId, host, group) => expect(capacityGroup(appId, host)).toBe(group));

  it.each<[string, Caps]>([
    ['cli_a', { maxLiveWorkers: 5, maxLiveClis: 5, idleDetachMs: 600_000 }],
    ['cli_b', { maxLiveWorkers: 1, maxLiveClis: 1, idleDetachMs: 0 }],
    ['host:gpu1', { maxLiveWorkers: 1, maxLiveClis: 1 }],
    ['host:build', { maxLiveWorkers: 2, maxLiveClis: HOST_CAP_DEFAULTS.maxLiveClis }],
    ['host:bare', { ...HOST_CAP_DEFAULTS }],
    ['cli_gone', { maxLiveWorkers: Infinity, maxLiveClis: Infinity }],
  ])('%s', (group, caps) => expect(groupCaps(group, bots, hosts)).toEqual(caps));
});

type Opts = Partial<HostSession>;
const busy = (id: string, appId: string, host: string, o: Opts = {}): HostSession => ({
  id, group: capacityGroup(appId, host), status: 'working', lastActivityAt: 1, worker: true, cliRunning: true, pinned: false, ...o,
});
const asleep = (id: string, appId: string, host: string): HostSession => busy(id, appId, host, { status: 'exited', worker: false, cliRunning: false, lastActivityAt: 9 });
const wait = (s: HostSession): WaitingLaunch => ({ id: s.id, group: s.group });
const plan = (sessions: HostSession[], now?: number) =>
  planCapacity({ sessions, waiting: sessions.filter((s) => !s.worker).map(wait), caps: (g) => groupCaps(g, bots, hosts), ...(now === undefined ? {} : { now }) });

describe('planCapacity across hosts', () => {
  it.each<[string, HostSession[], CapacityAction[]]>([
    ['gpu1 full (one busy session): a launch there waits, one here and one on build go', [busy('g1', 'cli_a', 'gpu1'), asleep('g2', 'cli_a', 'gpu1'), asleep('l1', 'cli_a', 'local'), asleep('b1', 'cli_a', 'build')], [
      { kind: 'launch', id: 'l1' },
      { kind: 'launch', id: 'b1' },
    ]],
    ['a host\'s caps count every bot\'s sessions there', [busy('g1', 'cli_a', 'gpu1'), asleep('g2', 'cli_b', 'gpu1')], []],
    ['a bot\'s sessions on another host do not count against its caps here', [busy('g1', 'cli_b', 'gpu1'), asleep('l1', 'cli_b', 'local')], [{ kind: 'launch', id: 'l1' }]],
    ['an idle session on a full host makes room there only', [busy('g1', 'cli_a', 'gpu1', { status: 'idle' }), asleep('g2', 'cli_b', 'gpu1'), busy('l1', 'cli_b', 'local', { status: 'idle' })], [{ kind: 'stop', id: 'g1', via: 'worker' }]],
  ])('%s', (_what, sessions, actions) => expect(plan(sessions)).toEqual(actions));

  it('on another host, each session keeps its own bot\'s idle rule', () => {
    const quiet = (id: string, appId: string, idleDetachMs: number): HostSession => busy(id, appId, 'build', { status: 'idle', idleDetachMs });
    expect(plan([quiet('a', 'cli_a', 600_000), quiet('b', 'cli_b', 0)], 1 + 600_000)).toEqual([{ kind: 'detach', id: 'a', idle: true }]);
  });
});
