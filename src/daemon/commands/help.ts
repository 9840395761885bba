// /help: the command list, generated from the command table and the bot's CLI commands.
import { hasLevel } from '../ground/permissions.js';
import { DAEMON_PREFIX } from './classify.js';
import { cliCommandSet } from './cli-commands.js';
import { defineCommand, type Command, type CommandContext } from './types.js';

const LEVEL_NOTE = { talk: null, operate: 'cmd.help.note.operate', owner: 'cmd.help.note.owner' } as const;

export function helpText(table: readonly Command[], ctx: CommandContext): string {
  const cli = cliCommandSet(ctx.bot.cli);
  const who = { userId: ctx.invoker.userId };
  const chat = { chatId: ctx.anchor.place.chatId };
  const { t } = ctx;
  const lines = [t('cmd.help.intro')];
  for (const c of table) {
    const shadowed = cli.has(c.name) ? t('cmd.help.shadowed', { name: c.name, prefix: DAEMON_PREFIX }) : '';
    const usable = hasLevel(c.level, ctx.bot, chat, who, ctx.grants) ? '' : t('cmd.help.notForYou');
    const note = LEVEL_NOTE[c.level];
    lines.push(`${c.usage} — ${t(c.summary)}${note ? t(note) : ''}${shadowed}${usable}`);
  }
  if (cli.size) lines.push(t('cmd.help.passedToCli', { commands: [...cli].sort().map((n) => `/${n}`).join(' ') }));
  lines.push(t('cmd.help.literal'));
  return lines.join('\n');
}

/** Built with a getter so /help can list the table that contains it. */
export function makeHelpCommand(table: () => readonly Command[]): Command {
  return defineCommand({
    name: 'help',
    aliases: ['h'],
    usage: '/help',
    summary: 'cmd.summary.help',
    level: 'talk',
    async run(ctx) {
      await ctx.reply(helpText(table(), ctx));
    },
  });
}
