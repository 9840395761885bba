// /display screenshot|text|hidden: how the session's card shows the screen.
import { z } from 'zod';
import { DisplayModeSchema } from '../../shared/ipc.js';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

const DESCRIBE = { screenshot: 'a screenshot', text: 'the screen as text', hidden: 'no screen' } as const;

export const displayCommand = defineCommand({
  name: 'display',
  aliases: ['show'],
  usage: '/display screenshot|text|hidden',
  summary: 'how the card shows the screen',
  level: 'operate',
  args: z.string().trim().toLowerCase().pipe(DisplayModeSchema),
  async run(ctx, mode) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    const res = await ctx.setDisplay(s.id, mode);
    if (!res.ok) return ctx.reply(`Could not change the display: ${res.message}`);
    // The worker renders only what is displayed: no screenshots at all while hidden or text.
    await ctx.sendToWorker(s.id, { type: 'set_display', mode });
    await ctx.reply(`The card now shows ${DESCRIBE[mode]}.`);
  },
});
