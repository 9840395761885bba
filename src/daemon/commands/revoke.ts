// /revoke <open_id>|chat: takes back a talk grant.
import { defineCommand } from './types.js';
import { GrantArgSchema } from './grant-target.js';

export const revokeCommand = defineCommand({
  name: 'revoke',
  aliases: [],
  usage: '/revoke <open_id>|chat',
  summary: 'cmd.summary.revoke',
  level: 'owner',
  args: GrantArgSchema,
  async run(ctx, arg) {
    const target = arg.kind === 'chat' ? { chat: ctx.anchor.place.chatId } : { user: arg.userId };
    const who = arg.kind === 'chat' ? ctx.t('cmd.revoke.chat') : arg.userId;
    const changed = await ctx.revokeTalk(target);
    await ctx.reply(ctx.t(changed ? 'cmd.revoke.done' : 'cmd.revoke.none', { who, bot: ctx.bot.name }));
  },
});
