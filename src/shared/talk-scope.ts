// On a CLI that runs whatever it is typed (a shell, a custom command), being allowed to talk is being allowed to operate
// (issue 31 item 6): a talker can type `tmux send-keys …` or read the stores, and every session of one larkmux home runs
// as one Unix user. The gates stay as they are; this says so wherever talkers are set up wider than operators.
import { cliInputOf, type CliSpec } from './cli-spec.js';

/** A shell or a custom program: text sent to it is run, not read by a model that may refuse. */
export function runsWhatItIsTyped(cli: CliSpec): boolean {
  return cliInputOf(cli) === 'program';
}

/** What widens talk beyond operate: the config's allowedChats, and (at run time) /grant talk and /grant chat. */
export interface TalkScope {
  name: string;
  cli: CliSpec;
  allowedChats: readonly string[];
  talkUsers?: readonly string[];
  talkChats?: readonly string[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One warning when `bot` lets people talk who may not operate on a CLI that runs what it is typed; null otherwise. */
export function talkWiderThanOperate(bot: TalkScope, field = `bot "${bot.name}"`): string | null {
  if (!runsWhatItIsTyped(bot.cli)) return null;
  const wider = [
    bot.allowedChats.length ? `every member of the ${plural(bot.allowedChats.length, 'chat', 'chats')} in allowedChats` : null,
    bot.talkUsers?.length ? `the ${plural(bot.talkUsers.length, 'person', 'people')} given /grant` : null,
    bot.talkChats?.length ? `every member of the ${plural(bot.talkChats.length, 'chat', 'chats')} given /grant chat` : null,
  ].filter((w): w is string => w !== null);
  if (!wider.length) return null;
  const cli = typeof bot.cli === 'object' ? `the custom cli "${bot.cli.command}"` : 'cli "shell"';
  return `${field}: ${cli} runs whatever it is sent, so whoever may talk to it may operate it: ${wider.join(', ')} can run`
    + ' commands as this Unix user and reach every other session of this larkmux home; give this bot only to people you'
    + ' would give a shell (allowedUsers), or give the others a larkmux home of their own (docs/operations.md, "Threat model")';
}

/** The config's warnings, one per bot, named by its place in config.json. */
export function talkScopeWarnings(bots: readonly TalkScope[]): string[] {
  return bots.flatMap((b, i) => talkWiderThanOperate(b, `bots[${i}] ("${b.name}")`) ?? []);
}
