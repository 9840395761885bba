// One bot's schedules, stored with its sessions (sessions-<appId>.schedules.json) by the same durable machinery.
import { SCHEDULE_STORE_FORMAT, ScheduleSchema, type Schedule } from '../../shared/schedule.js';
import { SiblingStore, siblingStorePath, type StoreOptions } from '../ground/store.js';

/** `sessions-<appId>.json` → `sessions-<appId>.schedules.json`. */
export function scheduleStorePath(home: string, appId: string): string {
  return siblingStorePath(home, appId, 'schedules');
}

/** The scheduler puts a firing on disk (`flush()`) before its prompt goes out. */
export class ScheduleStore extends SiblingStore<Schedule> {
  constructor(opts: StoreOptions) {
    super(opts, 'schedules', { format: SCHEDULE_STORE_FORMAT, schema: ScheduleSchema, idOf: (s) => s.id });
  }
}
