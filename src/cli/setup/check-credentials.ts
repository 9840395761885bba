// Proves an app id + secret work by fetching a tenant access token, the way the SDK does; errors never carry the secret.

export const CREDENTIAL_CHECK = {
  /** The token endpoint answers in well under a second; 10 s covers a slow proxy without hanging setup. */
  timeoutMs: 10_000,
  tokenPath: '/open-apis/auth/v3/tenant_access_token/internal',
} as const;

/** Base URL of the open platform for a config `domain` (feishu, lark, or a URL). */
export function openApiBase(domain: string): string {
  if (domain === 'feishu') return 'https://open.feishu.cn';
  if (domain === 'lark') return 'https://open.larksuite.com';
  return domain.replace(/\/+$/, '');
}

export type CredentialCheck =
  | { ok: true; expiresInSec: number }
  | { ok: false; code: 'refused' | 'unreachable' | 'bad_response'; message: string; secretWrong?: boolean };

/** Hints for the platform's answers to a token request (open.feishu.cn error code list). */
const REFUSAL_HINTS: Record<number, string> = {
  10003: 'the app id is not known to this platform: check it, and the domain (feishu vs lark)',
  10014: 'the app secret is wrong: copy it again from Credentials & Basic Info',
  10012: 'the app secret is wrong or was reset: copy it again from Credentials & Basic Info',
};

function mask(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('***') : text;
}

export async function checkCredentials(opts: { domain: string; appId: string; appSecret: string; fetchImpl?: typeof fetch }): Promise<CredentialCheck> {
  const url = `${openApiBase(opts.domain)}${CREDENTIAL_CHECK.tokenPath}`;
  const doFetch = opts.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ app_id: opts.appId, app_secret: opts.appSecret }),
      signal: AbortSignal.timeout(CREDENTIAL_CHECK.timeoutMs),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === 'TimeoutError' ? `no answer within ${CREDENTIAL_CHECK.timeoutMs / 1000} s` : (err.cause?.code ?? err.cause?.message ?? err.message);
    return { ok: false, code: 'unreachable', message: `cannot reach ${openApiBase(opts.domain)} (${mask(why, opts.appSecret)}); check the domain and this machine's network or proxy` };
  }
  let body: { code?: unknown; msg?: unknown; tenant_access_token?: unknown; expire?: unknown };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    return { ok: false, code: 'bad_response', message: `${url} answered HTTP ${res.status} without JSON; is the domain an open platform?` };
  }
  if (body.code === 0 && typeof body.tenant_access_token === 'string' && body.tenant_access_token) {
    return { ok: true, expiresInSec: typeof body.expire === 'number' ? body.expire : 0 };
  }
  const code = typeof body.code === 'number' ? body.code : undefined;
  const platformMsg = typeof body.msg === 'string' ? mask(body.msg, opts.appSecret).slice(0, 200) : '';
  const hint = code !== undefined ? REFUSAL_HINTS[code] : undefined;
  const what = [`HTTP ${res.status}`, code !== undefined ? `code ${code}` : '', platformMsg].filter(Boolean).join(', ');
  return { ok: false, code: 'refused', message: `the platform refused the credentials for ${opts.appId} (${what})${hint ? `: ${hint}` : ''}`, ...(code === 10014 || code === 10012 ? { secretWrong: true } : {}) };
}
