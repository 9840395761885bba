// The scheduler over a real store on disk: one firing per due time, recorded on disk before the prompt goes out,
// what came due while it was not running decided by catchUp, and pause/resume/delete re-arming its one timer.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { schedulerRig, type SchedulerRig } from '../support/schedule-book.js';
import type { NewSchedule } from '../../src/daemon/schedules/scheduler.js';
import type { ScheduleSpec } from '../../src/shared/schedule.js';

const TOPIC = { sessionKey: 'oc_chat::cli_0123456789abcdef', anchorId: 'oc_chat', scope: 'chat', chatId: 'oc_chat', chatType: 'p2p', cwd: '/w', creatorId: 'ou_admin', timezone: 'UTC' } as const;
const input = (spec: ScheduleSpec, prompt = 'p'): NewSchedule => ({ ...TOPIC, spec, prompt, text: prompt });

describe('Scheduler', () => {
  const rigs: SchedulerRig[] = [];
  const rig = (...a: Parameters<typeof schedulerRig>) => {
    const r = schedulerRig(...a);
    rigs.push(r);
    return r;
  };
  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.scheduler.dispose();
  });

  it('fires a one-shot once, after its due time is on disk, and forgets it', async () => {
    const r = rig();
    let onDiskAtFire: unknown;
    const s = r.scheduler.add(input({ kind: 'once', at: Date.now() + 300 }));
    // Read what the store file says at the moment of firing.
    const origFire = r.fired.push.bind(r.fired);
    r.fired.push = (...items) => {
      onDiskAtFire = JSON.parse(readFileSync(r.store.path, 'utf8')).records;
      return origFire(...items);
    };
    r.scheduler.start();
    await until('fired', () => r.fired.length === 1);
    expect(r.fired[0]).toMatchObject({ id: s.id, reason: 'due' });
    expect(onDiskAtFire).toEqual([]);
    expect(r.scheduler.get(s.id)).toBeUndefined();
  });

  it('fires an interval again and again, each due time once, and records the last', async () => {
    const r = rig();
    const start = Date.now() + 200;
    const s = r.scheduler.add(input({ kind: 'interval', everyMs: 1000, startAt: start }));
    r.scheduler.start();
    await until('two firings', () => r.fired.length >= 2);
    expect(r.fired.slice(0, 2).map((f) => f.due)).toEqual([start, start + 1000]);
    expect(r.scheduler.get(s.id)?.lastDueAt).toBeGreaterThanOrEqual(start + 1000);
    const onDisk = JSON.parse(readFileSync(r.store.path, 'utf8')).records[0];
    expect(onDisk.lastDueAt).toBeGreaterThanOrEqual(start + 1000);
  });

  it.each([
    ['once', 1, 0],
    ['skip', 0, 1],
  ] as const)('missed many due times while not running, catchUp %s: fires %i, skips %i', async (catchUp, fires, skips) => {
    const first = rig();
    const s = first.scheduler.add(input({ kind: 'interval', everyMs: 1000, startAt: Date.now() - 60_000 }));
    await first.scheduler.dispose();
    const second = rig({ home: first.home, catchUp });
    expect((await second.scheduler.load()).ok).toBe(true);
    second.scheduler.start();
    await until('decided', () => second.fired.length + second.skipped.length >= 1);
    expect(second.fired.map((f) => [f.id, f.reason])).toEqual(fires ? [[s.id, 'caughtUp']] : []);
    expect(second.skipped.map((f) => f.id)).toEqual(skips ? [s.id] : []);
    // The next one is counted from now: no second catch-up for the other 59 missed times.
    expect(second.scheduler.get(s.id)!.nextRunAt!).toBeGreaterThan(Date.now() - 1000);
  });

  it('a paused schedule does not fire; resumed, it does; deleted, it is gone', async () => {
    const r = rig();
    const a = r.scheduler.add(input({ kind: 'once', at: Date.now() + 300 }, 'a'));
    const b = r.scheduler.add(input({ kind: 'once', at: Date.now() + 400 }, 'b'));
    r.scheduler.setPaused(a.id, true);
    expect(r.scheduler.remove(b.id)).toBe(true);
    r.scheduler.start();
    const c = r.scheduler.add(input({ kind: 'once', at: Date.now() + 600 }, 'c'));
    await until('c fired', () => r.fired.some((f) => f.id === c.id));
    expect(r.fired.map((f) => f.id)).toEqual([c.id]);
    r.scheduler.setPaused(a.id, false);
    await until('a fired after resume', () => r.fired.some((f) => f.id === a.id));
    expect(r.scheduler.inTopic(TOPIC.sessionKey)).toEqual([]);
  });
});
