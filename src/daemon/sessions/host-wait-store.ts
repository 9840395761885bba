// One bot's prompts waiting for unreachable hosts, stored beside its sessions (sessions-<appId>.waits.json) by the
// same durable machinery as the usage holds: written (flushed) before the topic is told that a prompt waits.
import { HOST_WAIT_STORE_FORMAT, HostWaitRecordSchema, type HostWaitRecord } from '../../shared/host-wait.js';
import { SiblingStore, type StoreOptions } from '../ground/store.js';

export class HostWaitStore extends SiblingStore<HostWaitRecord> {
  constructor(opts: StoreOptions) {
    super(opts, 'waits', { format: HOST_WAIT_STORE_FORMAT, schema: HostWaitRecordSchema, idOf: (r) => r.sessionId });
  }
}
