// A schedule as stored and shown (issue 30 item 1): its record's schema, its limits and how its times read. Kept apart
// from schedule.ts (parsing and due times, which need croner) so `larkmux schedules` loads no package but zod.
import { z } from 'zod';
import type { MessageKey } from './i18n.js';
import { HOST_NAME_RE } from './host-config.js';

/** The `format` field of a sessions-<appId>.schedules.json file. */
export const SCHEDULE_STORE_FORMAT = 'larkmux-schedules';

export const SCHEDULE_LIMITS = {
  /** Shorter repeats would make a topic a stream of turns that pile up behind one another: 5 s still lets a test watch two. */
  minEveryMs: 5_000,
  /** A due time longer ago than this when the daemon starts was missed while it was down: catchUp decides. A restart of a
   *  few seconds just after a due time is not worth a notice (nor a skip); a timer late while the daemon runs is never "missed". */
  missedAfterMs: 5_000,
  /** Prompts longer than a chat message are a mistake, not a schedule. */
  maxPromptChars: 4_000,
  /** Far-future times are typos (`/in 9999d`). */
  maxAheadMs: 366 * 24 * 3600_000,
  /** A topic is one conversation: more pending schedules than this is a loop gone wrong, not a plan. */
  maxPerTopic: 20,
  /** A bot's pending schedules, over all its topics (the schedules bench runs 1,000 over 100 sessions). */
  maxPerBot: 2_000,
} as const;

/**
 * Whether one more schedule fits, given the pending ones (done one-shots do not count) in the topic and in the bot;
 * the message key of the refusal otherwise.
 */
export function roomForSchedule(pendingInTopic: number, pendingInBot: number): MessageKey | null {
  if (pendingInTopic >= SCHEDULE_LIMITS.maxPerTopic) return 'schedule.err.topicFull';
  if (pendingInBot >= SCHEDULE_LIMITS.maxPerBot) return 'schedule.err.botFull';
  return null;
}


export const ScheduleSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('once'), at: z.number().int() }),
  z.strictObject({ kind: z.literal('interval'), everyMs: z.number().int().min(1000), startAt: z.number().int() }),
  z.strictObject({ kind: z.literal('cron'), expr: z.string().min(1).max(200) }),
]);
export type ScheduleSpec = z.infer<typeof ScheduleSpecSchema>;

const id = z.string().min(1).max(256);

export const ScheduleSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  /** The topic: the router's session key, and where to open a new session when the last one was closed. */
  sessionKey: id,
  anchorId: id,
  scope: z.enum(['thread', 'chat']),
  chatId: id,
  chatType: z.enum(['p2p', 'group']),
  cwd: z.string().min(1),
  /** The host of the topic's session when the schedule was made, if not this machine (older schedules: this machine). */
  host: z.string().regex(HOST_NAME_RE).optional(),
  creatorId: id,
  creatorName: z.string().max(256).optional(),
  prompt: z.string().min(1).max(SCHEDULE_LIMITS.maxPromptChars),
  spec: ScheduleSpecSchema,
  /** What the person typed after the command name (shown on the /schedules card). */
  text: z.string().max(300),
  timezone: z.string().min(1),
  createdAt: z.number().int(),
  /** The next due time; null: a one-shot that has fired (kept only until it is removed). */
  nextRunAt: z.number().int().nullable(),
  /** The due time last fired: written (and flushed) before the prompt goes out, so a crash cannot fire it twice. */
  lastDueAt: z.number().int().optional(),
  paused: z.boolean().default(false),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

/** A due time as the bot's people read it: `2026-12-05 09:00` in `tz`. */
export function formatWhen(at: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const sec = get('second');
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}${sec && sec !== '00' ? `:${sec}` : ''}`;
}
