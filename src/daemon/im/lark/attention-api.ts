// Feishu's attention APIs (issue 16): pin a chat in a person's chat list (time-sensitive feed card) and buzz them.
import type { Logger } from '../../../platform/log.js';
import type { ImResult } from '../types.js';
import type { ChatPlace } from '../../ground/anchor.js';
import type { ApiResult, LarkApi } from './client.js';
import type { LarkFailure } from './errors.js';

/**
 * "Access denied, one of these scopes is required" (app scope 99991672, user scope 99991679): the app was not granted
 * the feature. It will not be granted by retrying, so the feature goes quiet for this bot after one log line.
 */
export const MISSING_SCOPE_CODES: ReadonlySet<number> = new Set([99991672, 99991679]);

type Feature = 'pin' | 'buzz';

interface BodyWithCode {
  code?: number;
  msg?: string;
  data?: { failed_user_reasons?: { user_id?: string; error_code?: number }[]; invalid_user_id_list?: string[] };
}

/** Runs one attention call per feature until the platform says the scope is missing; then answers `disabled`. */
export class LarkAttentionApi {
  private readonly disabled = new Set<Feature>();

  constructor(
    private readonly api: LarkApi,
    private readonly retry: <T>(op: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>,
    private readonly log: Logger,
  ) {}

  /**
   * Pins (on) or unpins the chat at the top of one person's chat list. A bot's private chat uses
   * PATCH /im/v2/feed_cards/bot_time_sentive; a group uses PATCH /im/v2/feed_cards/:chat_id.
   */
  pinChat(place: ChatPlace, userId: string, on: boolean): Promise<ImResult<void>> {
    return this.run('pin', place.chatType === 'p2p' ? 'pin private chat' : 'pin group chat', (c, auth) => place.chatType === 'p2p'
      ? c.im.v2.feedCard.botTimeSentive({ data: { time_sensitive: on, user_ids: [userId] }, params: { user_id_type: 'open_id' } }, auth) as Promise<BodyWithCode>
      : c.im.v2.feedCard.patch({ path: { feed_card_id: place.chatId }, data: { time_sensitive: on, user_ids: [userId] }, params: { user_id_type: 'open_id' } }, auth) as Promise<BodyWithCode>);
  }

  /** In-app urgent (buzz) on one of the bot's own messages, to one person. */
  buzz(messageId: string, userId: string): Promise<ImResult<void>> {
    return this.run('buzz', 'buzz', (c, auth) =>
      c.im.v1.message.urgentApp({ path: { message_id: messageId }, data: { user_id_list: [userId] }, params: { user_id_type: 'open_id' } }, auth) as Promise<BodyWithCode>);
  }

  private async run(feature: Feature, label: string, fn: Parameters<LarkApi['call']>[1]): Promise<ImResult<void>> {
    if (this.disabled.has(feature)) return { ok: false, code: 'disabled', message: `${feature} is off for this bot (scope missing)`, retryable: false };
    const r = await this.retry(() => this.api.call<BodyWithCode>(label, fn as never));
    if (r.ok) {
      const d = r.value.data;
      const failedFor = [...(d?.failed_user_reasons ?? []).map((f) => f.user_id), ...(d?.invalid_user_id_list ?? [])];
      if (failedFor.length) return { ok: false, code: 'user_refused', message: `${label}: the platform refused it for ${failedFor.length} user(s)`, retryable: false };
      return { ok: true, value: undefined };
    }
    if (r.larkCode !== undefined && MISSING_SCOPE_CODES.has(r.larkCode)) {
      this.disabled.add(feature);
      this.log.warn({ feature, code: r.larkCode }, `${feature} turned off for this bot: the app lacks the scope (grant it in the developer console and restart)`);
      return { ok: false, code: 'disabled', message: r.message, retryable: false };
    }
    return toIm(r);
  }
}

function toIm(f: LarkFailure): { ok: false; code: string; message: string; retryable: boolean } {
  return { ok: false, code: f.code, message: f.message, retryable: f.retryable };
}
