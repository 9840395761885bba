// Routing (DESIGN §4): from an inbound message or card tap to one decision. Pure: every fact it needs comes in the input.
import type { CardActionValue } from '../../shared/card-model.js';
import type { CliSpec } from '../../shared/config.js';
import { isMessageKey, type Translate } from '../../shared/i18n.js';
import type { Requester } from '../../shared/ipc.js';
import { sessionKey, type SessionScope } from '../../shared/session-key.js';
import { classifyText } from '../commands/classify.js';
import { cliCommandSet } from '../commands/cli-commands.js';
import { COMMAND_TABLE } from '../commands/index.js';
import type { InboundCardAction, InboundMessage, InboundRejected } from '../im/types.js';
import type { Anchor, ChatPlace } from '../ground/anchor.js';
import { looksLikePairingCode } from '../ground/pairing.js';
import { canAnswerSelection, canTalk, hasLevel, type Grants, type PermissionBot, type PermissionLevel } from '../ground/permissions.js';
import { isOpenSession, type SessionCore } from '../ground/session-core.js';

export interface RouterBot extends PermissionBot {
  appId: string;
  cli: CliSpec;
  groupScope: 'thread' | 'chat';
}

export interface RouteInput {
  msg: InboundMessage;
  bot: RouterBot;
  grants: Grants;
  /** The session a key routes to, open or closed (e.g. SessionStore.getByKey). */
  sessionByKey(key: string): SessionCore | undefined;
  /** Dedupe already saw this event. */
  duplicate: boolean;
  /** The bot is closed and waits for its pairing code. */
  pairingOpen: boolean;
  /** onceKeys of notices already sent (see the `reply` decision). */
  noticesSent: ReadonlySet<string>;
  /** The daemon's command names; the command table's by default. */
  daemonCommands?: ReadonlySet<string>;
  /** The bot's locale: replies are made in it. */
  t: Translate;
}

export type IgnoreReason =
  | 'other_app' | 'duplicate' | 'bot_not_peer' | 'not_addressed' | 'notice_already_sent' | 'denied_bot'
  /** Only for events the adapter could not read: */
  | 'unroutable' | 'not_allowed';

export type RouteDecision =
  | { kind: 'ignore'; reason: IgnoreReason }
  /** Send `text` in reply; when `onceKey` is set, the caller records it in noticesSent so the notice is sent once. */
  | { kind: 'reply'; text: string; place: ChatPlace; replyTo: string; onceKey?: string }
  /** The text looks like a pairing code: BotState.tryPair decides (constant-time). */
  | { kind: 'pair'; userId: string; text: string; place: ChatPlace; replyTo: string }
  | { kind: 'command'; command: string; args: string; sessionKey: string; anchor: Anchor }
  | { kind: 'prompt'; text: string; sessionKey: string; anchor: Anchor; scope: SessionScope; isNewSession: boolean }
  /** A CLI-owned slash command, typed into the CLI as is (DaemonToWorker `raw_input`). */
  | { kind: 'passthrough'; text: string; sessionKey: string; anchor: Anchor; isNewSession: boolean };

/**
 * The anchor rule:
 * - p2p: chat scope, anchor = chat id (one session per direct chat, replies in a thread still belong to it);
 * - group with groupScope 'chat': chat scope, anchor = chat id;
 * - group with groupScope 'thread': thread scope, anchor = the topic's root message id (`rootId`); a message
 *   outside any topic starts one, so its own id is the anchor (the bot's reply creates the thread under it).
 */
export function anchorOf(msg: InboundMessage, bot: Pick<RouterBot, 'appId' | 'groupScope'>): Anchor {
  const chatScoped = msg.place.chatType === 'p2p' || bot.groupScope === 'chat';
  const anchorId = chatScoped ? msg.place.chatId : (msg.place.rootId ?? msg.messageId);
  return { anchorId, scope: chatScoped ? 'chat' : 'thread', sessionKey: sessionKey(anchorId, bot.appId), place: msg.place, replyTo: msg.messageId };
}

/**
 * The key a message is ordered by: its session's key, the same one the route decides with (DESIGN §12), so messages
 * for one session are handled strictly one after another wherever they come from (top-level or threaded, in a
 * chat-scope group or a direct chat). An id the session key refuses cannot name a session: such a message is ordered
 * on its own and the router reports it.
 */
export function orderKeyOf(msg: InboundMessage, bot: Pick<RouterBot, 'appId' | 'groupScope'>): string {
  try {
    return anchorOf(msg, bot).sessionKey;
  } catch {
    return `unkeyed:${msg.place.chatId}:${msg.messageId}`;
  }
}

/** In a group the bot acts only when mentioned, or in a topic that already holds one of its open sessions. */
function isAddressed(msg: InboundMessage, bot: RouterBot, sessionByKey: RouteInput['sessionByKey']): boolean {
  if (msg.place.chatType === 'p2p' || msg.mentionsBot) return true;
  if (bot.groupScope !== 'thread' || !msg.place.rootId) return false;
  return isOpenSession(sessionByKey(sessionKey(msg.place.rootId, bot.appId)));
}

/** A Feishu message type as the reader calls it (图片, 文件, …); an unknown type is shown as Feishu names it. */
function messageTypeName(type: string, t: Translate): string {
  const key = `route.msgType.${type}`;
  return isMessageKey(key) ? t(key) : type;
}

export function routeMessage(input: RouteInput): RouteDecision {
  const { msg, bot, grants, t } = input;
  if (msg.appId !== bot.appId) return { kind: 'ignore', reason: 'other_app' };
  if (input.duplicate) return { kind: 'ignore', reason: 'duplicate' };
  const fromBot = msg.senderType !== 'user';
  if (fromBot && !grants.peerBots.includes(msg.senderId)) return { kind: 'ignore', reason: 'bot_not_peer' };
  if (!isAddressed(msg, bot, input.sessionByKey)) return { kind: 'ignore', reason: 'not_addressed' };

  const place = msg.place;
  const replyTo = msg.messageId;
  const once = (onceKey: string, text: string): RouteDecision =>
    input.noticesSent.has(onceKey) ? { kind: 'ignore', reason: 'notice_already_sent' } : { kind: 'reply', text, place, replyTo, onceKey };

  if (input.pairingOpen) {
    if (fromBot) return { kind: 'ignore', reason: 'denied_bot' };
    if (looksLikePairingCode(msg.text)) {
      return place.chatType === 'p2p' ? { kind: 'pair', userId: msg.senderId, text: msg.text, place, replyTo } : { kind: 'reply', text: t('route.pairInPrivate'), place, replyTo };
    }
    return once(`unpaired:${place.chatId}:${msg.senderId}`, t('route.unpaired'));
  }
  if (!canTalk(bot, { chatId: place.chatId }, { userId: msg.senderId }, grants)) {
    // Never answer a bot we may not talk to: two bots telling each other "not allowed" would loop.
    if (fromBot) return { kind: 'ignore', reason: 'denied_bot' };
    return once(`denied:${place.chatId}:${msg.senderId}`, t('route.denied', { userId: msg.senderId }));
  }
  if (msg.unsupportedType) return { kind: 'reply', text: t('route.unsupported', { type: messageTypeName(msg.unsupportedType, t) }), place, replyTo };
  if (!msg.text.trim() && !msg.attachments?.length) return { kind: 'reply', text: t('route.emptyMention'), place, replyTo };

  const anchor = anchorOf(msg, bot);
  const isNewSession = !isOpenSession(input.sessionByKey(anchor.sessionKey));
  const classified = classifyText(msg.text, { daemon: input.daemonCommands ?? COMMAND_TABLE.names, cli: cliCommandSet(bot.cli) });
  const build = {
    daemon: (c: Extract<typeof classified, { kind: 'daemon' }>): RouteDecision => ({ kind: 'command', command: c.name, args: c.args, sessionKey: anchor.sessionKey, anchor }),
    cli: (c: Extract<typeof classified, { kind: 'cli' }>): RouteDecision => ({ kind: 'passthrough', text: c.text, sessionKey: anchor.sessionKey, anchor, isNewSession }),
    prompt: (c: Extract<typeof classified, { kind: 'prompt' }>): RouteDecision => ({ kind: 'prompt', text: c.text, sessionKey: anchor.sessionKey, anchor, scope: anchor.scope, isNewSession }),
  };
  return (build[classified.kind] as (c: typeof classified) => RouteDecision)(classified);
}

// ── card taps ────────────────────────────────────────────────────────────────

export interface CardRouteInput {
  action: InboundCardAction;
  bot: RouterBot;
  grants: Grants;
  duplicate: boolean;
  sessionById(id: string): SessionCore | undefined;
  /** The requester a pending selection is bound to (LiveSession); unknown = operators only. */
  selectionRequester?(sessionId: string, promptId: string): string | undefined;
  t: Translate;
}

export type CardRouteDecision =
  | { kind: 'ignore'; reason: 'other_app' | 'duplicate' | 'unknown_session' | 'session_closed' }
  /** Answer the tap with this toast and do nothing else. */
  | { kind: 'deny'; toast: string }
  | { kind: 'act'; value: CardActionValue; session: SessionCore | undefined; by: Requester };

/**
 * Who may press what on a card (DESIGN §8): a button is answered by a command in the command table and needs that
 * command's level, so a button and its typed twin cannot disagree. Keys and selection answers are button-only
 * commands (a typed `/key` would shadow the CLIs' own commands); a selection may also be answered by the person whose
 * turn raised it (canAnswerSelection).
 */
/** The level a card button needs: its command's (commands/index.ts `byTap`). */
export function cardActionLevel(action: CardActionValue['action']): PermissionLevel {
  const entry = COMMAND_TABLE.byTap.get(action);
  // A button no command answers is a bug in the table (a unit test walks every action); refuse rather than guess.
  if (!entry) throw new Error(`card action "${action}" has no command`);
  return entry.command.level;
}

export function routeCardAction(input: CardRouteInput): CardRouteDecision {
  const { action, bot, grants, t } = input;
  if (action.appId !== bot.appId) return { kind: 'ignore', reason: 'other_app' };
  if (input.duplicate) return { kind: 'ignore', reason: 'duplicate' };
  const v = action.value;
  const session = 'sessionId' in v ? input.sessionById(v.sessionId) : undefined;
  if ('sessionId' in v && !session) return { kind: 'ignore', reason: 'unknown_session' };
  if (session && session.lifecycle === 'closed') return { kind: 'deny', toast: t('tap.sessionClosed') };
  const chat = { chatId: action.chatId };
  const user = { userId: action.operatorId };
  const allowed =
    v.action === 'select'
      ? canAnswerSelection(bot, chat, user, grants, input.selectionRequester?.(v.sessionId, v.promptId))
      : hasLevel(cardActionLevel(v.action), bot, chat, user, grants);
  if (!allowed) {
    return { kind: 'deny', toast: t(v.action === 'select' ? 'tap.selectDenied' : 'tap.operatorsOnly') };
  }
  return { kind: 'act', value: v, session, by: { userId: action.operatorId } };
}

// ── events the adapter could not read ───────────────────────────────────────

export interface RejectedRouteInput {
  rejected: InboundRejected;
  bot: RouterBot;
  grants: Grants;
  duplicate: boolean;
  pairingOpen: boolean;
  t: Translate;
}

/**
 * A malformed event gets a reply only in a direct chat with someone allowed to talk (in a group we cannot tell
 * whether it was meant for this bot); everything else is ignored — the adapter has logged it already.
 */
export function routeRejected(input: RejectedRouteInput): Extract<RouteDecision, { kind: 'ignore' | 'reply' }> {
  const { rejected: r, bot } = input;
  if (r.appId !== bot.appId) return { kind: 'ignore', reason: 'other_app' };
  if (input.duplicate) return { kind: 'ignore', reason: 'duplicate' };
  if (!r.place || !r.senderId || !r.messageId || r.place.chatType !== 'p2p') return { kind: 'ignore', reason: 'unroutable' };
  if (input.pairingOpen || !canTalk(bot, { chatId: r.place.chatId }, { userId: r.senderId }, input.grants)) return { kind: 'ignore', reason: 'not_allowed' };
  return { kind: 'reply', text: input.t('route.rejected'), place: r.place, replyTo: r.messageId };
}
