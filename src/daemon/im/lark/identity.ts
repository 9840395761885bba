// Who this bot is (open_id and name from GET /open-apis/bot/v3/info), used to recognise mentions of it.
import type { ApiResult, LarkApi } from './client.js';

export interface BotIdentity {
  openId: string;
  name: string;
}

interface BotInfoBody {
  code?: number;
  msg?: string;
  bot?: { open_id?: string; app_name?: string };
}

export async function fetchBotIdentity(api: LarkApi): Promise<ApiResult<BotIdentity>> {
  const res = await api.call<BotInfoBody>('bot info', (c, auth) => c.request<BotInfoBody>({ method: 'GET', url: 'open-apis/bot/v3/info' }, auth));
  if (!res.ok) return res;
  const openId = res.value.bot?.open_id;
  if (!openId) return { ok: false, code: 'invalid_response', message: 'bot info has no open_id (is the bot capability enabled?)', retryable: false };
  return { ok: true, value: { openId, name: res.value.bot?.app_name ?? '' } };
}
