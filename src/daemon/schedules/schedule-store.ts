// One bot's schedules, stored with its sessions (sessions-<appId>.schedules.json) by the same durable machinery.
import { larkmuxPaths, sessionStoreSibling } from '../../platform/paths.js';
import { SCHEDULE_STORE_FORMAT, ScheduleSchema, type Schedule } from '../../shared/schedule.js';
import { RecordFile, RecordStore, type RecordFileLoad, type StoreOptions } from '../ground/store.js';

/** `sessions-<appId>.json` → `sessions-<appId>.schedules.json`. */
export function scheduleStorePath(home: string, appId: string): string {
  return sessionStoreSibling(larkmuxPaths(home).sessionStore(appId), 'schedules');
}

/** `flush()` writes at once (not behind the debounce): the scheduler puts a firing on disk before its prompt goes out. */
export class ScheduleStore extends RecordStore<Schedule> {
  constructor(opts: StoreOptions) {
    super(new RecordFile(scheduleStorePath(opts.home, opts.appId), { format: SCHEDULE_STORE_FORMAT, schema: ScheduleSchema, idOf: (s) => s.id }, opts), ScheduleSchema);
  }

  load(): Promise<RecordFileLoad<Schedule>> {
    return this.file.load();
  }

  all(): Schedule[] {
    return this.file.list();
  }
}
