// /help: the command list, generated from the command table and the bot's CLI commands.
import { z } from 'zod';
import { hasLevel } from '../permissions.js';
import { DAEMON_PREFIX } from './classify.js';
import { cliCommandSet } from './cli-commands.js';
import { defineCommand, type Command, type CommandContext } from './types.js';

const LEVEL_NOTE = { talk: '', operate: ' (operators)', owner: ' (owner)' } as const;

export function helpText(table: readonly Command[], ctx: CommandContext): string {
  const cli = cliCommandSet(ctx.bot.cli, ctx.bot.extraCliCommands);
  const who = { userId: ctx.invoker.userId };
  const chat = { chatId: ctx.anchor.place.chatId };
  const lines = ['Send any text to talk to the CLI. Commands:'];
  for (const c of table) {
    const shadowed = cli.has(c.name) ? ` — the CLI owns /${c.name} here, use /${DAEMON_PREFIX} ${c.name}` : '';
    const usable = hasLevel(c.level, ctx.bot, chat, who, ctx.grants) ? '' : ' [not for you]';
    lines.push(`${c.usage} — ${c.summary}${LEVEL_NOTE[c.level]}${shadowed}${usable}`);
  }
  if (cli.size) lines.push(`Passed to the CLI: ${[...cli].sort().map((n) => `/${n}`).join(' ')}`);
  lines.push('Start a message with // to send a literal /… as a prompt.');
  return lines.join('\n');
}

/** Built with a getter so /help can list the table that contains it. */
export function makeHelpCommand(table: () => readonly Command[]): Command {
  return defineCommand({
    name: 'help',
    aliases: ['h'],
    usage: '/help',
    summary: 'this list',
    level: 'talk',
    args: z.string(),
    async run(ctx) {
      await ctx.reply(helpText(table(), ctx));
    },
  });
}
