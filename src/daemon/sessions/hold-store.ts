// One bot's usage holds and their queues, stored beside its sessions (sessions-<appId>.holds.json) by the same durable
// machinery as the schedules, so a daemon restart during a hold keeps the hold and every waiting prompt.
import { HOLD_STORE_FORMAT, HoldRecordSchema, type HoldRecord } from '../../shared/usage-hold.js';
import { SiblingStore, siblingStorePath, type StoreOptions } from '../ground/store.js';

/** `sessions-<appId>.json` → `sessions-<appId>.holds.json`. */
export function holdStorePath(home: string, appId: string): string {
  return siblingStorePath(home, appId, 'holds');
}

/** A prompt is on disk in its queue (`flush()`) before the person is told it waits, and out of it before it goes. */
export class HoldStore extends SiblingStore<HoldRecord> {
  constructor(opts: StoreOptions) {
    super(opts, 'holds', { format: HOLD_STORE_FORMAT, schema: HoldRecordSchema, idOf: (r) => r.sessionId });
  }
}
