// Runs a classified daemon command: look it up, check its permission level, parse its arguments, run it.
import { isMessageKey } from '../../shared/i18n.js';
import { hasLevel } from '../ground/permissions.js';
import { COMMAND_TABLE, type CommandTable } from './index.js';
import type { CommandContext } from './types.js';

export type DispatchOutcome =
  | { ok: true; command: string }
  | { ok: false; code: 'unknown' | 'denied' | 'bad_args'; command?: string; message: string };

const LEVEL_WORDS = { talk: 'cmd.level.talk', operate: 'cmd.level.operate', owner: 'cmd.level.owner' } as const;

/** Replies to the invoker in every case, so a command never vanishes silently. */
export async function dispatchCommand(name: string, rawArgs: string, ctx: CommandContext, table: CommandTable = COMMAND_TABLE): Promise<DispatchOutcome> {
  const cmd = table.byName.get(name.toLowerCase());
  if (!cmd) {
    const message = ctx.t('cmd.unknown', { name });
    await ctx.reply(message);
    return { ok: false, code: 'unknown', message };
  }
  const allowed = hasLevel(cmd.level, ctx.bot, { chatId: ctx.anchor.place.chatId }, { userId: ctx.invoker.userId }, ctx.grants);
  if (!allowed) {
    const message = ctx.t('cmd.denied', { name: cmd.name, who: ctx.t(LEVEL_WORDS[cmd.level]) });
    await ctx.reply(message);
    return { ok: false, code: 'denied', command: cmd.name, message };
  }
  const parsed = cmd.args.safeParse(rawArgs);
  if (!parsed.success) {
    // Argument schemas word their messages as catalogue keys; zod's own English defaults are left out (the usage line says enough).
    const issue = parsed.error.issues[0]?.message;
    const why = issue !== undefined && isMessageKey(issue) ? ctx.t(issue) : undefined;
    const message = why ? ctx.t('cmd.usageWhy', { usage: cmd.usage, why }) : ctx.t('cmd.usage', { usage: cmd.usage });
    await ctx.reply(message);
    return { ok: false, code: 'bad_args', command: cmd.name, message };
  }
  await cmd.run(ctx, parsed.data);
  return { ok: true, command: cmd.name };
}
