// The prompts of a session whose host could not be reached, as kept on disk beside the bot's sessions
// (sessions-<appId>.waits.json): a daemon restart while the host is down keeps them, in order, and remembers which
// notices the topic already got (so it is told once an outage, not once per daemon run or retry).
import { z } from 'zod';
import { InputMsg, RawInputMsg } from './ipc.js';

export const HOST_WAIT_STORE_FORMAT = 'larkmux-host-waits';

/**
 * Why the host could not be reached, as far as it changes what the topic is told and how often it is tried:
 * `host-key-changed` is refused until someone re-pins the key; everything else is "unreachable, retrying".
 */
export const HostWaitReasonSchema = z.enum(['unreachable', 'host-key-changed']);
export type HostWaitReason = z.infer<typeof HostWaitReasonSchema>;

export const HostWaitRecordSchema = z.strictObject({
  sessionId: z.string().min(1),
  /** When the outage began (the notice says "since hh:mm"). */
  since: z.number(),
  reason: HostWaitReasonSchema.default('unreachable'),
  /** The notices the topic got during this outage (each at most once). */
  told: z.array(HostWaitReasonSchema).default([]),
  /** Waiting, oldest first; a prompt handed to a worker stays here until the worker on the host says it is ready. */
  prompts: z.array(z.discriminatedUnion('type', [InputMsg, RawInputMsg])),
});
export type HostWaitRecord = z.infer<typeof HostWaitRecordSchema>;
