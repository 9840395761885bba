// Free memory in admission (issue 29 item 5): no new CLI starts on a machine — this one or a host — whose free memory
// (MemAvailable) is below the one floor; an unknown amount never blocks; a re-attach (no new CLI) still goes; and a
// host short of memory holds up nothing elsewhere.
import { describe, expect, it } from 'vitest';
import { capacityGroup, groupCaps, MEMORY_FLOOR, memoryFloorBytes, planCapacity, type CapacityAction, type HostSession } from '../../src/daemon/sessions/capacity.js';
import { parseMemAvailable } from '../../src/platform/meminfo.js';
import { lowMemoryNotice } from '../../src/daemon/sessions/session-placement.js';
import { translator } from '../../src/shared/i18n.js';

const MIB = 1024 * 1024;
const FLOOR = 512 * MIB;
const bots = [{ appId: 'cli_a', maxLiveWorkers: 1, maxLiveClis: 1 }];
const hosts = [{ name: 'gpu1', maxLiveWorkers: 1, maxLiveClis: 1 }, { name: 'gpu2' }];

const asleep = (id: string, host: string, o: Partial<HostSession> = {}): HostSession => ({
  id, group: capacityGroup('cli_a', host), status: 'exited', lastActivityAt: 9, worker: false, cliRunning: false, pinned: false, ...o,
});
const idle = (id: string, host: string): HostSession => asleep(id, host, { status: 'idle', worker: true, cliRunning: true, lastActivityAt: 1 });

/** Free memory per machine in MiB (undefined: unknown). */
type Free = Partial<Record<'local' | 'gpu1' | 'gpu2', number>>;
function plan(sessions: HostSession[], free: Free, floor: number | null = FLOOR): CapacityAction[] {
  const of = (g: string) => (g.startsWith('host:') ? g.slice(5) : 'local') as keyof Free;
  return planCapacity({
    sessions, waiting: sessions.filter((s) => !s.worker).map((s) => ({ id: s.id, group: s.group })), caps: (g) => groupCaps(g, bots, hosts),
    memory: (g) => (free[of(g)] === undefined ? null : free[of(g)]! * MIB), ...(floor === null ? {} : { minFreeMemoryBytes: floor }),
  });
}
const short = (id: string, freeMib: number): CapacityAction => ({ kind: 'short', id, availableBytes: freeMib * MIB, floorBytes: FLOOR });

describe('free memory in admission', () => {
  it.each<[string, HostSession[], Free, CapacityAction[]]>([
    ['gpu1 below the floor: its new CLI waits, gpu2\'s and this machine\'s go', [asleep('g1', 'gpu1'), asleep('g2', 'gpu2'), asleep('l1', 'local')], { local: 4096, gpu1: 100, gpu2: 4096 }, [
      { kind: 'launch', id: 'l1' }, short('g1', 100), { kind: 'launch', id: 'g2' },
    ]],
    ['this machine below the floor: waits here, the host still takes one', [asleep('l1', 'local'), asleep('g1', 'gpu1')], { local: 511, gpu1: 4096 }, [
      short('l1', 511), { kind: 'launch', id: 'g1' },
    ]],
    ['exactly the floor is enough', [asleep('g1', 'gpu1')], { gpu1: 512 }, [{ kind: 'launch', id: 'g1' }]],
    ['unknown memory (no /proc/meminfo, no link yet) never blocks', [asleep('g1', 'gpu1'), asleep('l1', 'local')], {}, [{ kind: 'launch', id: 'l1' }, { kind: 'launch', id: 'g1' }]],
    ['a re-attach to a CLI that runs starts no CLI: it goes though memory is short', [asleep('g1', 'gpu1', { cliRunning: true })], { gpu1: 10 }, [{ kind: 'launch', id: 'g1' }]],
    ['a launch waiting for memory makes no room: the idle CLI there is not stopped for it', [idle('g0', 'gpu1'), asleep('g1', 'gpu1')], { gpu1: 10 }, [short('g1', 10)]],
    ['with room made for it when memory is fine', [idle('g0', 'gpu1'), asleep('g1', 'gpu1')], { gpu1: 4096 }, [{ kind: 'stop', id: 'g0', via: 'worker' }]],
    ['every waiting new CLI on the short host waits', [asleep('g1', 'gpu1'), asleep('g2', 'gpu1')], { gpu1: 1 }, [short('g1', 1), short('g2', 1)]],
  ])('%s', (_what, sessions, free, actions) => expect(plan(sessions, free)).toEqual(actions));

  it('without a floor memory is not looked at', () => {
    expect(plan([asleep('g1', 'gpu1')], { gpu1: 1 }, null)).toEqual([{ kind: 'launch', id: 'g1' }]);
  });

  it('memory is asked only for a group with a launch that needs a CLI', () => {
    const asked: string[] = [];
    planCapacity({ sessions: [idle('g0', 'gpu1'), asleep('l1', 'local')], waiting: [{ id: 'l1', group: 'cli_a' }], caps: (g) => groupCaps(g, bots, hosts), memory: (g) => (asked.push(g), null), minFreeMemoryBytes: FLOOR });
    expect(asked).toEqual(['cli_a']);
  });

  it.each<[string | undefined, number]>([
    [undefined, MEMORY_FLOOR.defaultBytes],
    ['1024', 1024 * MIB],
    ['0', 0],
    ['lots', MEMORY_FLOOR.defaultBytes],
    ['-5', MEMORY_FLOOR.defaultBytes],
  ])('LARKMUX_MIN_FREE_MEMORY_MIB=%s → %d bytes', (raw, bytes) => expect(memoryFloorBytes(raw === undefined ? {} : { [MEMORY_FLOOR.env]: raw })).toBe(bytes));

  it.each<[string, string, number | null]>([
    ['Linux', 'MemTotal:       24683520 kB\nMemFree:        22635972 kB\nMemAvailable:   24249012 kB\nBuffers:            1234 kB\n', 24249012 * 1024],
    ['an old kernel without the line', 'MemTotal:       1000 kB\nMemFree:         500 kB\n', null],
    ['not meminfo at all', 'hello', null],
  ])('MemAvailable of %s', (_what, text, bytes) => expect(parseMemAvailable(text)).toBe(bytes));

  it.each<['en' | 'zh-CN', string, string]>([
    ['en', 'gpu1', 'Waiting: host gpu1 has 300 MiB of memory free, below the 512 MiB a new CLI needs.'],
    ['en', 'local', 'Waiting: this machine has 300 MiB of memory free, below the 512 MiB a new CLI needs.'],
    ['zh-CN', 'gpu1', '等待中：主机 gpu1 只剩 300 MiB 可用内存，低于新 CLI 所需的 512 MiB。'],
    ['zh-CN', 'local', '等待中：本机只剩 300 MiB 可用内存，低于新 CLI 所需的 512 MiB。'],
  ])('the topic is told (%s, %s)', (locale, host, head) => {
    expect(lowMemoryNotice({ host, availableBytes: 300 * MIB + 5, floorBytes: FLOOR }, translator(locale)).startsWith(head)).toBe(true);
  });
});
