// The fake platform's attention endpoints: the time-sensitive feed card (pin a chat) and the in-app urgent (buzz).
import type { FakeState } from './state.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** The scopes the real platform names when it refuses (99991672 "Access denied"). */
const SCOPE = {
  feed_card: 'im:datasync.feed_card.time_sensitive:write',
  urgent_app: 'im:message.urgent, im:message.urgent:app_send',
} as const;

const ok = (data: Record<string, unknown>): Reply => ({ status: 200, body: { code: 0, msg: 'success', data } });
const refuse = (code: number, msg: string, status = 400): Reply => ({ status, body: { code, msg } });

export function missingScope(endpoint: keyof typeof SCOPE): Reply {
  return refuse(99991672, `Access denied. One of the following scopes is required: [${SCOPE[endpoint]}].`);
}

/**
 * PATCH /open-apis/im/v2/feed_cards/bot_time_sentive (private chats) and PATCH /open-apis/im/v2/feed_cards/:chat_id
 * (groups): body {time_sensitive, user_ids}, query user_id_type; answers data.failed_user_reasons.
 */
export function feedCardReply(s: FakeState, appId: string, feedCardId: string, url: URL, body: Record<string, unknown> | null): Reply {
  if (s.missingScopes.has('feed_card')) return missingScope('feed_card');
  if (!['open_id', 'user_id', 'union_id'].includes(url.searchParams.get('user_id_type') ?? '')) return refuse(99992402, 'field validation failed: user_id_type is required');
  if (typeof body?.time_sensitive !== 'boolean') return refuse(99992402, 'field validation failed: time_sensitive is required');
  const userIds = body.user_ids;
  if (!Array.isArray(userIds) || userIds.length === 0 || userIds.some((u) => typeof u !== 'string')) return refuse(99992402, 'field validation failed: user_ids is required');
  if (feedCardId !== 'bot_time_sentive' && !/^oc_/.test(feedCardId)) return refuse(99992402, 'field validation failed: feed_card_id must be a chat id');
  const failed = (userIds as string[]).filter((u) => !u.startsWith('ou_')).map((u) => ({ user_id: u, error_code: 99992361, error_message: 'invalid user id' }));
  s.feedCards.push({ appId, feedCardId, timeSensitive: body.time_sensitive, userIds: userIds as string[], at: Date.now() });
  return ok({ failed_user_reasons: failed });
}

/** PATCH /open-apis/im/v1/messages/:message_id/urgent_app: body {user_id_list}; only the bot's own messages. */
export function urgentReply(s: FakeState, appId: string, messageId: string, url: URL, body: Record<string, unknown> | null): Reply {
  if (s.missingScopes.has('urgent_app')) return missingScope('urgent_app');
  if (!['open_id', 'user_id', 'union_id'].includes(url.searchParams.get('user_id_type') ?? '')) return refuse(99992402, 'field validation failed: user_id_type is required');
  const ids = body?.user_id_list;
  if (!Array.isArray(ids) || ids.length === 0) return refuse(99992402, 'field validation failed: user_id_list is required');
  const m = s.message(messageId);
  if (!m || m.appId !== appId) return refuse(230032, 'message not found or not sent by this bot');
  const invalid = (ids as unknown[]).filter((u) => typeof u !== 'string' || !u.startsWith('ou_'));
  s.urgents.push({ appId, messageId, userIds: ids as string[], at: Date.now() });
  return ok({ invalid_user_id_list: invalid });
}
