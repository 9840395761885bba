// /grant and /revoke, one definition: the argument (a user's open id, or `chat` for everyone in this chat), the change,
// and the reply. grant.ts and revoke.ts say what differs.
import { z } from 'zod';
import type { MessageKey } from '../../shared/i18n.js';
import type { GrantTarget } from '../ground/pairing.js';
import { defineCommand, type Command, type CommandContext } from './types.js';

export type GrantArg = { kind: 'user'; userId: string } | { kind: 'chat' };

export const GrantArgSchema = z
  .string()
  .trim()
  .regex(/^(chat|ou_[A-Za-z0-9_-]{4,128})$/, 'cmd.grant.badTarget' satisfies MessageKey)
  .transform((s): GrantArg => (s === 'chat' ? { kind: 'chat' } : { kind: 'user', userId: s }));

/** What the argument names: the grant's target, and how the reply calls it (`chatWord` for the whole chat). */
export function grantTargetOf(arg: GrantArg, chatId: string, chatWord: string): { target: GrantTarget; who: string } {
  return arg.kind === 'chat' ? { target: { chat: chatId }, who: chatWord } : { target: { user: arg.userId }, who: arg.userId };
}

/** What /grant and /revoke say: the summary, the word for the whole chat, and the reply when it changed or did not. */
const TALK_GRANT_TEXTS = {
  grant: { summary: 'cmd.summary.grant', chat: 'cmd.grant.chat', changed: 'cmd.grant.done', unchanged: 'cmd.grant.already' },
  revoke: { summary: 'cmd.summary.revoke', chat: 'cmd.revoke.chat', changed: 'cmd.revoke.done', unchanged: 'cmd.revoke.none' },
} as const satisfies Record<'grant' | 'revoke', Record<string, MessageKey>>;

/** The owner's /grant or /revoke of a talk grant; `note` adds a sentence to the reply (or nothing). */
export function defineTalkGrantCommand(name: 'grant' | 'revoke', note?: (ctx: CommandContext) => string | undefined): Command {
  const texts = TALK_GRANT_TEXTS[name];
  return defineCommand({
    name,
    usage: `/${name} <open_id>|chat`,
    summary: texts.summary,
    level: 'owner',
    args: GrantArgSchema,
    async run(ctx, arg) {
      const { target, who } = grantTargetOf(arg, ctx.anchor.place.chatId, ctx.t(texts.chat));
      const changed = await (name === 'grant' ? ctx.grantTalk(target) : ctx.revokeTalk(target));
      const reply = ctx.t(changed ? texts.changed : texts.unchanged, { who, bot: ctx.bot.name });
      const extra = note?.(ctx);
      await ctx.reply(extra ? `${reply} ${extra}` : reply);
    },
  });
}
