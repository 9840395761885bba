// /schedules: the topic's schedules on a card (what, next run, creator) with pause, resume and delete buttons.
import type { SchedulesCard } from '../../shared/card-model.js';
import { formatWhen } from '../../shared/schedule.js';
import { defineCommand, type CommandContext } from './types.js';

export function schedulesCard(ctx: CommandContext, sessionKey: string): SchedulesCard {
  const { t } = ctx;
  const rows = ctx.schedules.inTopic(sessionKey).map((s) => ({
    scheduleId: s.id,
    paused: s.paused,
    text: t('schedule.line', {
      id: s.id,
      what: `${s.text}`.slice(0, 200),
      next: s.nextRunAt === null ? t('schedule.done') : formatWhen(s.nextRunAt, s.timezone),
      who: s.creatorName ?? s.creatorId,
      paused: s.paused ? t('schedule.pausedMark') : '',
    }),
  }));
  return { kind: 'schedules', title: t('schedule.cardTitle'), rows, ...(rows.length ? {} : { empty: t('schedule.none') }) };
}

export const schedulesCommand = defineCommand({
  name: 'schedules',
  usage: '/schedules',
  summary: 'cmd.summary.schedules',
  level: 'operate',
  taps: {
    schedule: async (ctx, v, tap) => {
      const s = ctx.schedules.get(v.scheduleId);
      if (!s) return ctx.reply(ctx.t('schedule.unknown', { id: v.scheduleId }));
      if (v.op === 'delete') {
        ctx.schedules.remove(s.id);
        await ctx.reply(ctx.t('schedule.deleted', { id: s.id }));
      } else {
        const after = ctx.schedules.setPaused(s.id, v.op === 'pause');
        const next = after?.nextRunAt == null ? '-' : formatWhen(after.nextRunAt, s.timezone);
        await ctx.reply(v.op === 'pause' ? ctx.t('schedule.paused', { id: s.id }) : ctx.t('schedule.resumed', { id: s.id, next }));
      }
      await ctx.updateCard(tap.cardMessageId, schedulesCard(ctx, s.sessionKey));
    },
  },
  async run(ctx) {
    const res = await ctx.sendCard(schedulesCard(ctx, ctx.anchor.sessionKey));
    if (!res.ok) await ctx.reply(res.message);
  },
});
