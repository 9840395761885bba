// /grant <open_id>|chat: lets a person (or everyone in this chat) talk to the bot. Operating stays with operators.
import { defineCommand } from './types.js';
import { GrantArgSchema } from './grant-target.js';

export const grantCommand = defineCommand({
  name: 'grant',
  aliases: [],
  usage: '/grant <open_id>|chat',
  summary: 'cmd.summary.grant',
  level: 'owner',
  args: GrantArgSchema,
  async run(ctx, arg) {
    const target = arg.kind === 'chat' ? { chat: ctx.anchor.place.chatId } : { user: arg.userId };
    const who = arg.kind === 'chat' ? ctx.t('cmd.grant.chat') : arg.userId;
    const changed = await ctx.grantTalk(target);
    await ctx.reply(ctx.t(changed ? 'cmd.grant.done' : 'cmd.grant.already', { who, bot: ctx.bot.name }));
  },
});
