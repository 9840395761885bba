// The SDK Client with our own tenant-token cache (single-flight, cleared when Feishu rejects a token) and failures as values.
import * as lark from '@larksuiteoapi/node-sdk';
import { registerSecret, scrubSecrets, type Logger } from '../../../platform/log.js';
import { failure, failureFromThrown, type LarkFailure } from './errors.js';

export type ApiResult<T> = { ok: true; value: T } | LarkFailure;

export const TOKEN_TIMING = {
  /** Refresh this long before the platform's expiry, as the SDK does (network and clock skew). */
  refreshMarginMs: 3 * 60 * 1000,
} as const;

export interface LarkCredentials {
  appId: string;
  appSecret: string;
  /** 'feishu', 'lark', or a base URL (private deployment, test server). */
  domain: string;
}

export function resolveDomain(domain: string): lark.Domain | string {
  if (domain === 'feishu') return lark.Domain.Feishu;
  if (domain === 'lark') return lark.Domain.Lark;
  return domain.replace(/\/+$/, '');
}

/** Routes the SDK's own log lines into pino, scrubbed: only messages, never request configs (they hold the secret). */
export function sdkLogger(log: Logger): { error: (...a: unknown[]) => void; warn: (...a: unknown[]) => void; info: (...a: unknown[]) => void; debug: (...a: unknown[]) => void; trace: (...a: unknown[]) => void } {
  // The long-connection URL carries a short-lived access_key and ticket: mask them like secrets.
  const text = (args: unknown[]): string =>
    scrubSecrets(args.map(describeLogArg).join(' ')).replace(/\b(access_key|ticket)=[^&\s]+/g, '$1=[redacted]').slice(0, 1000);
  return {
    error: (...a) => log.warn({ sdk: text(a) }, 'lark sdk error'),
    warn: (...a) => log.warn({ sdk: text(a) }, 'lark sdk warning'),
    info: (...a) => log.debug({ sdk: text(a) }, 'lark sdk'),
    debug: (...a) => log.trace({ sdk: text(a) }, 'lark sdk'),
    trace: () => undefined,
  };
}

function describeLogArg(a: unknown): string {
  if (typeof a === 'string') return a;
  if (a instanceof Error) return a.message;
  if (Array.isArray(a)) return a.map(describeLogArg).join(' ');
  if (a && typeof a === 'object') {
    // formatErrors() objects carry config.data (request bodies, the app secret for token calls): keep only safe fields.
    const o = a as Record<string, unknown>;
    const resp = o.response as { status?: unknown; data?: { code?: unknown; msg?: unknown } } | undefined;
    const parts = [o.message, resp?.status, o.code ?? resp?.data?.code, o.msg ?? resp?.data?.msg].filter((x) => x !== undefined);
    return parts.length ? parts.map(String).join(' ') : '[object]';
  }
  return String(a);
}

type Call<T> = (client: lark.Client, auth: ReturnType<typeof lark.withTenantToken>) => Promise<T>;

export class LarkApi {
  readonly sdk: lark.Client;
  private token: { value: string; expiresAt: number } | null = null;
  private tokenInFlight: Promise<ApiResult<string>> | null = null;
  /** Tokens issued to this process (tests and `doctor` read it). */
  tokenFetches = 0;

  constructor(private readonly creds: LarkCredentials, private readonly log: Logger) {
    registerSecret(creds.appSecret);
    this.sdk = new lark.Client({
      appId: creds.appId,
      appSecret: creds.appSecret,
      domain: resolveDomain(creds.domain),
      // We own tokens: the SDK's cache is process-global, never invalidated, and not single-flight.
      disableTokenCache: true,
      logger: sdkLogger(log),
      loggerLevel: lark.LoggerLevel.warn,
    });
  }

  get appId(): string {
    return this.creds.appId;
  }

  /** Current tenant token (cached); one request at a time however many callers wait. */
  tenantToken(): Promise<ApiResult<string>> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve({ ok: true, value: this.token.value });
    if (!this.tokenInFlight) {
      this.tokenInFlight = this.fetchToken().finally(() => {
        this.tokenInFlight = null;
      });
    }
    return this.tokenInFlight;
  }

  private async fetchToken(): Promise<ApiResult<string>> {
    let res: { code?: number; msg?: string; tenant_access_token?: string; expire?: number };
    try {
      res = (await this.sdk.auth.v3.tenantAccessToken.internal({
        data: { app_id: this.creds.appId, app_secret: this.creds.appSecret },
      })) as typeof res;
    } catch (e) {
      return failureFromThrown(e);
    }
    this.tokenFetches += 1;
    if (!res?.tenant_access_token) return { ...failure(200, res?.code, `tenant token refused: ${res?.msg ?? 'no token in response'}`), code: 'auth_failed', retryable: false };
    registerSecret(res.tenant_access_token);
    const lifeMs = Math.max(0, (res.expire ?? 7200) * 1000 - TOKEN_TIMING.refreshMarginMs);
    this.token = { value: res.tenant_access_token, expiresAt: Date.now() + lifeMs };
    return { ok: true, value: res.tenant_access_token };
  }

  private invalidate(token: string): void {
    if (this.token?.value === token) this.token = null;
  }

  /**
   * Runs one SDK call with a tenant token. A body with code ≠ 0 or a thrown AxiosError becomes a failure value;
   * a rejected token clears the cache and the call is retried once with a fresh one.
   */
  async call<T>(label: string, fn: Call<T>, accept: (body: T) => boolean = defaultAccept): Promise<ApiResult<T>> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const tok = await this.tenantToken();
      if (!tok.ok) return tok;
      let result: ApiResult<T>;
      try {
        const body = await fn(this.sdk, lark.withTenantToken(tok.value));
        if (accept(body)) return { ok: true, value: body };
        const b = body as { code?: number; msg?: string } | null;
        result = body === null || body === undefined
          ? { ...failure(200, undefined, `${label}: empty answer`), code: 'invalid_response' }
          : failure(200, b?.code, `${label}: ${b?.msg ?? 'refused'}`);
      } catch (e) {
        result = failureFromThrown(e);
        result.message = `${label}: ${result.message}`;
      }
      if (result.code === 'token_rejected' && attempt === 0) {
        this.log.info({ appId: this.creds.appId, call: label }, 'tenant token rejected; fetching a new one');
        this.invalidate(tok.value);
        continue;
      }
      return result;
    }
    throw new Error('unreachable: token retry loop');
  }
}

function defaultAccept(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { code?: unknown }).code === 0;
}
