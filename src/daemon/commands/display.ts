// /display screenshot|text|hidden: how the session's card shows the screen.
import { z } from 'zod';
import { DisplayModeSchema } from '../../shared/ipc.js';
import { defineSessionCommand } from './types.js';

const DONE = { screenshot: 'cmd.display.done.screenshot', text: 'cmd.display.done.text', hidden: 'cmd.display.done.hidden' } as const;

export const displayCommand = defineSessionCommand({
  name: 'display',
  aliases: ['show'],
  usage: '/display screenshot|text|hidden',
  summary: 'cmd.summary.display',
  level: 'operate',
  args: z.string().trim().toLowerCase().pipe(DisplayModeSchema),
  // The Display button on the streaming card: the same effect, cards and worker alike.
  taps: { display: (ctx, v) => ctx.setDisplay(v.sessionId, v.mode) },
  async run(ctx, s, mode) {
    const res = await ctx.setDisplay(s.id, mode);
    if (!res.ok) return ctx.reply(ctx.t('cmd.display.failed', { reason: res.message }));
    await ctx.reply(ctx.t(DONE[mode]));
  },
});
