// /grant <open_id>|chat: lets a person (or everyone in this chat) talk to the bot. Operating stays with operators,
// except that on a CLI that runs what it is sent, whoever talks can operate through the CLI itself (the reply says so).
import { runsWhatItIsTyped } from '../../shared/talk-scope.js';
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
    const done = ctx.t(changed ? 'cmd.grant.done' : 'cmd.grant.already', { who, bot: ctx.bot.name });
    // A shell or custom CLI runs what it is sent: talking there is operating, and reaching this home's other sessions.
    await ctx.reply(runsWhatItIsTyped(ctx.bot.cli) ? `${done} ${ctx.t('cmd.grant.operates')}` : done);
  },
});
