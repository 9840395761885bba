// A real Scheduler over a real store in a fresh temp home, not started (nothing fires): what command tests hand a context.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/platform/log.js';
import { ScheduleStore } from '../../src/daemon/schedules/schedule-store.js';
import { Scheduler, type FireReason } from '../../src/daemon/schedules/scheduler.js';
import type { Schedule } from '../../src/shared/schedule.js';

export interface SchedulerRig {
  scheduler: Scheduler;
  store: ScheduleStore;
  home: string;
  fired: { id: string; due: number; reason: FireReason }[];
  skipped: { id: string; due: number }[];
}

export function schedulerRig(opts: { home?: string; timezone?: string; catchUp?: 'once' | 'skip'; now?: () => number } = {}): SchedulerRig {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'lmx-sched-'));
  const log = createLogger({ level: 'silent' });
  const store = new ScheduleStore({ home, appId: 'cli_0123456789abcdef', log, debounceMs: 10 });
  const fired: SchedulerRig['fired'] = [];
  const skipped: SchedulerRig['skipped'] = [];
  const scheduler = new Scheduler({
    store,
    log,
    catchUp: () => opts.catchUp ?? 'once',
    timezone: () => opts.timezone ?? 'Asia/Shanghai',
    fire: async (s: Schedule, due, reason) => void fired.push({ id: s.id, due, reason }),
    skipped: async (s: Schedule, due) => void skipped.push({ id: s.id, due }),
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { scheduler, store, home, fired, skipped };
}
