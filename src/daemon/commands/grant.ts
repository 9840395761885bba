// /grant <open_id>|chat: lets a person (or everyone in this chat) talk to the bot. Operating stays with operators,
// except that on a CLI that runs what it is sent, whoever talks can operate through the CLI itself (the reply says so).
import { runsWhatItIsTyped } from '../../shared/talk-scope.js';
import { defineTalkGrantCommand } from './grant-target.js';

// A shell or custom CLI runs what it is sent: talking there is operating, and reaching this home's other sessions.
export const grantCommand = defineTalkGrantCommand('grant', (ctx) => (runsWhatItIsTyped(ctx.bot.cli) ? ctx.t('cmd.grant.operates') : undefined));
