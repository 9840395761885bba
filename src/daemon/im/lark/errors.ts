// Classifies Feishu API failures (HTTP status + business code) into what the adapter does next: retry, refresh, replace, give up.
import { scrubSecrets } from '../../../platform/log.js';

/** Business codes that mean the tenant token was refused: clear our cache and retry once. */
export const TOKEN_REJECTED_CODES: ReadonlySet<number> = new Set([99991663, 99991661, 99991668]);

/** Rate limiting: 99991400 (gateway frequency control, HTTP 429 or 400) and 230020 (IM frequency limit). */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([99991400, 230020]);

/**
 * A card that can no longer be patched: recalled/deleted (230011), past the update window (230031),
 * not found (230032), not updatable (230026). Replaced by a new card. 230031/230032 follow the fake
 * platform; verify against the console's error page if Feishu answers with another code.
 */
export const UNPATCHABLE_CODES: ReadonlySet<number> = new Set([230011, 230031, 230032, 230026]);

export type FailureKind = 'rate_limited' | 'token_rejected' | 'message_gone' | 'server_error' | 'network' | 'refused';

export interface LarkFailure {
  ok: false;
  code: FailureKind | 'auth_failed' | 'upload_failed' | 'empty_image' | 'too_large' | 'invalid_response';
  message: string;
  retryable: boolean;
  status?: number;
  larkCode?: number;
  /** Seconds the platform asked us to wait (x-ogw-ratelimit-reset). */
  retryAfterSec?: number;
}

export function classify(status: number | undefined, larkCode: number | undefined): FailureKind {
  if (larkCode !== undefined && TOKEN_REJECTED_CODES.has(larkCode)) return 'token_rejected';
  if (status === 429 || (larkCode !== undefined && RATE_LIMIT_CODES.has(larkCode))) return 'rate_limited';
  if (larkCode !== undefined && UNPATCHABLE_CODES.has(larkCode)) return 'message_gone';
  if (status !== undefined && status >= 500) return 'server_error';
  if (status === undefined && larkCode === undefined) return 'network';
  return 'refused';
}

const RETRYABLE: ReadonlySet<FailureKind> = new Set(['rate_limited', 'server_error', 'network']);

export function failure(status: number | undefined, larkCode: number | undefined, msg: string, retryAfterSec?: number): LarkFailure {
  const kind = classify(status, larkCode);
  const where = [status !== undefined ? `HTTP ${status}` : '', larkCode !== undefined ? `code ${larkCode}` : ''].filter(Boolean).join(', ');
  return {
    ok: false, code: kind, retryable: RETRYABLE.has(kind), status, larkCode, retryAfterSec,
    message: scrubSecrets(`${where ? `${where}: ` : ''}${msg}`).slice(0, 300),
  };
}

interface AxiosLike {
  message?: string;
  code?: string;
  response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
}

/** Turns whatever an SDK call threw (an AxiosError for non-2xx, or a transport error) into a failure value. */
export function failureFromThrown(e: unknown): LarkFailure {
  const ax = (e ?? {}) as AxiosLike;
  const status = ax.response?.status;
  const data = ax.response?.data as { code?: unknown; msg?: unknown } | undefined;
  const larkCode = typeof data?.code === 'number' ? data.code : undefined;
  const reset = Number(ax.response?.headers?.['x-ogw-ratelimit-reset']);
  const msg = typeof data?.msg === 'string' ? data.msg : (ax.message ?? String(e));
  return failure(status, larkCode, msg, Number.isFinite(reset) && reset > 0 ? reset : undefined);
}
