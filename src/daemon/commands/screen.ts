// /screen: posts the current screen once, whatever the card's display mode.
import { z } from 'zod';
import { NO_SESSION_REPLY, defineCommand } from './types.js';

export const screenCommand = defineCommand({
  name: 'screen',
  aliases: ['screenshot'],
  usage: '/screen',
  summary: 'post the current screen once',
  level: 'talk',
  args: z.string(),
  async run(ctx) {
    const s = ctx.currentSession();
    if (!s) return ctx.reply(NO_SESSION_REPLY);
    if (s.lifecycle === 'stopped') return ctx.reply('The CLI is stopped; send a message to bring it back first.');
    const res = await ctx.postScreen(s.id);
    if (!res.ok) await ctx.reply(`Could not capture the screen: ${res.message}`);
  },
});
