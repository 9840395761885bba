// /revoke <open_id>|chat: takes back a talk grant.
import { defineCommand } from './types.js';
import { GrantArgSchema } from './grant-target.js';

export const revokeCommand = defineCommand({
  name: 'revoke',
  aliases: [],
  usage: '/revoke <open_id>|chat',
  summary: 'take back a talk grant',
  level: 'owner',
  args: GrantArgSchema,
  async run(ctx, arg) {
    const target = arg.kind === 'chat' ? { chat: ctx.anchor.place.chatId } : { user: arg.userId };
    const who = arg.kind === 'chat' ? 'This chat' : arg.userId;
    const changed = await ctx.revokeTalk(target);
    await ctx.reply(changed ? `${who} no longer has a talk grant for ${ctx.bot.name}.` : `${who} had no talk grant (people in allowedUsers/allowedChats are set in config.json).`);
  },
});
