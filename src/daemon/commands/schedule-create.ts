// /in, /at, /every: a prompt for this topic, sent later (once or again and again) as a turn run by its creator.
import { z } from 'zod';
import type { Parsed, ParsedSchedule } from '../../shared/schedule.js';
import { SCHEDULE_LIMITS, formatWhen, parseAt, parseEvery, parseIn, roomForSchedule } from '../../shared/schedule.js';
import type { MessageKey } from '../../shared/i18n.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { defineCommand, type Command, type CommandContext } from './types.js';

type Parse = (text: string, now: number, tz: string) => Parsed<ParsedSchedule>;

/** Parses in the bot's time zone, stores the schedule for this topic, and says when it runs first. */
async function create(ctx: CommandContext, text: string, parse: Parse, usage: string): Promise<void> {
  const tz = ctx.schedules.timezone;
  const parsed = parse(text, ctx.now, tz);
  if (!parsed.ok) return ctx.reply(ctx.t('cmd.usageWhy', { usage, why: ctx.t(parsed.error) }));
  const { anchor } = ctx;
  const pending = ctx.schedules.pending(anchor.sessionKey);
  const full = roomForSchedule(pending.topic, pending.bot);
  if (full) return ctx.reply(ctx.t(full, { max: full === 'schedule.err.topicFull' ? SCHEDULE_LIMITS.maxPerTopic : SCHEDULE_LIMITS.maxPerBot }));
  // Where the topic's session runs, or where a new one would start: a schedule re-creates its session there.
  const session = ctx.currentSession();
  const place = session ? { host: session.host ?? LOCAL_HOST, dir: session.cwd } : ctx.bot.defaultPlace;
  const s = ctx.schedules.add({
    sessionKey: anchor.sessionKey,
    anchorId: anchor.anchorId,
    scope: anchor.scope,
    chatId: anchor.place.chatId,
    chatType: anchor.place.chatType,
    cwd: place.dir,
    ...(place.host === LOCAL_HOST ? {} : { host: place.host }),
    creatorId: ctx.invoker.userId,
    ...(ctx.invoker.name ? { creatorName: ctx.invoker.name } : {}),
    prompt: parsed.value.prompt,
    spec: parsed.value.spec,
    text: text.trim().slice(0, 300),
    timezone: tz,
  });
  await ctx.reply(ctx.t('schedule.created', { id: s.id, next: s.nextRunAt === null ? '-' : formatWhen(s.nextRunAt, tz), tz }));
}

function scheduleCommand(name: string, usage: string, summary: MessageKey, parse: Parse): Command {
  return defineCommand({
    name,
    usage,
    summary,
    level: 'operate',
    args: z.string(),
    async run(ctx, text) {
      await create(ctx, text, parse, usage);
    },
  });
}

export const inCommand = scheduleCommand('in', '/in <30m | 2h | 1h30m> <prompt>', 'cmd.summary.in', (text, now) => parseIn(text, now));
export const atCommand = scheduleCommand('at', '/at <18:00 | 2026-12-24 09:00> <prompt>', 'cmd.summary.at', parseAt);
export const everyCommand = scheduleCommand('every', '/every <2h | 1d 09:00 | "0 */2 * * 1-5"> <prompt>', 'cmd.summary.every', parseEvery);
