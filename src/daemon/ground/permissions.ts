// Who may talk to a bot and who may operate it (DESIGN §8): pure functions over the bot's config and its grants.

/** The parts of a bot's config the gates read. */
export interface PermissionBot {
  allowedUsers: readonly string[];
  allowedChats: readonly string[];
}

export interface PermissionChat {
  chatId: string;
}

export interface PermissionUser {
  /** open_id of the sender (a person, or another bot). */
  userId: string;
}

/** What pairing and /grant have added at run time (persisted in the bot-state file, see pairing.ts). */
export interface Grants {
  /** The paired owner, when the bot was opened by pairing. */
  ownerId?: string;
  /** /grant talk grants: these users may talk everywhere this bot is. */
  talkUsers: readonly string[];
  /** /grant chat: every member of these chats may talk. */
  talkChats: readonly string[];
  /**
   * Bots that may talk (DESIGN §8 names peer bots as a source). No setting of config.json (§3) lists them, so the
   * daemon passes none: every message from a bot is ignored.
   */
  peerBots: readonly string[];
}

export const NO_GRANTS: Grants = { talkUsers: [], talkChats: [], peerBots: [] };

/** With no allowlist and no owner, the bot answers nobody: it is closed until someone pairs. */
export function isClosed(bot: PermissionBot, grants: Grants): boolean {
  return bot.allowedUsers.length === 0 && bot.allowedChats.length === 0 && !grants.ownerId;
}

/** Owners may /grant and /revoke: the paired owner, and the users listed in allowedUsers (the people who configured the bot). */
export function isOwner(bot: PermissionBot, user: PermissionUser, grants: Grants): boolean {
  return grants.ownerId === user.userId || bot.allowedUsers.includes(user.userId);
}

/** Operating (/cd, /close, /term, key buttons, display) never consults talk-only grants, allowed chats or peer bots. */
export function canOperate(bot: PermissionBot, _chat: PermissionChat, user: PermissionUser, grants: Grants): boolean {
  return isOwner(bot, user, grants);
}

/** Talking (prompts, CLI slash commands, /help, /status). */
export function canTalk(bot: PermissionBot, chat: PermissionChat, user: PermissionUser, grants: Grants): boolean {
  if (canOperate(bot, chat, user, grants)) return true;
  if (bot.allowedChats.includes(chat.chatId)) return true;
  if (grants.talkUsers.includes(user.userId)) return true;
  if (grants.talkChats.includes(chat.chatId)) return true;
  return grants.peerBots.includes(user.userId);
}

export type PermissionLevel = 'talk' | 'operate' | 'owner';

/** The one gate the dispatcher uses: does `user` hold `level` here? */
export function hasLevel(level: PermissionLevel, bot: PermissionBot, chat: PermissionChat, user: PermissionUser, grants: Grants): boolean {
  const gate: Record<PermissionLevel, () => boolean> = {
    talk: () => canTalk(bot, chat, user, grants),
    operate: () => canOperate(bot, chat, user, grants),
    owner: () => isOwner(bot, user, grants),
  };
  return gate[level]();
}

/**
 * Text typed while the CLI waits on selections answers them (a "1" picks option 1): only someone who may answer
 * every one of them may send text then.
 */
export function mayTypeIntoSelections(
  openRequesters: readonly (string | undefined)[], bot: PermissionBot, chat: PermissionChat, user: PermissionUser, grants: Grants,
): boolean {
  return openRequesters.every((r) => canAnswerSelection(bot, chat, user, grants, r));
}

/** Answering a CLI's permission prompt: the turn's requester, or an operator (DESIGN §8). */
export function canAnswerSelection(bot: PermissionBot, chat: PermissionChat, user: PermissionUser, grants: Grants, requesterId: string | undefined): boolean {
  return (requesterId !== undefined && requesterId === user.userId && canTalk(bot, chat, user, grants)) || canOperate(bot, chat, user, grants);
}
