// Who may post to the webhook: Feishu's signature (encryptKey), its verification token, a timestamp window; nobody else.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as lark from '@larksuiteoapi/node-sdk';

export const WEBHOOK_AUTH = {
  /** Signed requests older (or newer) than this are refused: a captured request cannot be replayed later. */
  maxSignatureAgeSec: 300,
  /** Feishu sends Unix seconds; anything that is not 1–12 digits is not a timestamp. */
  timestampPattern: /^\d{1,12}$/,
} as const;

export interface WebhookSecrets {
  encryptKey?: string;
  verificationToken?: string;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received (Feishu signs these bytes). */
  raw: string;
  body: Record<string, unknown>;
  /** The legacy card callback URL: its requests are signed with the verification token (sha1), not the encrypt key. */
  legacyCardPath: boolean;
  nowSec: number;
}

export type WebhookAuth = { ok: true; plain: Record<string, unknown> } | { ok: false; reason: string };

/** The one error a misconfigured webhook bot gets: it names both settings and where to find them. */
export const WEBHOOK_UNAUTHENTICATED =
  'webhook mode needs encryptKey or verificationToken (copy the Encrypt Key or Verification Token from the developer console: Events & Callbacks → Encryption Strategy); without them anyone who finds the URL could post events';

export function webhookIsAuthenticated(s: WebhookSecrets): boolean {
  return !!s.encryptKey || !!s.verificationToken;
}

/** Feishu's webhook signature: sha256(timestamp + nonce + encryptKey + body), hex. */
export function webhookSignature(timestamp: string, nonce: string, encryptKey: string, body: string): string {
  return createHash('sha256').update(timestamp + nonce + encryptKey + body).digest('hex');
}

/** Legacy card callbacks: sha1(timestamp + nonce + verificationToken + body), hex. */
export function legacyCardSignature(timestamp: string, nonce: string, token: string, body: string): string {
  return createHash('sha1').update(timestamp + nonce + token + body).digest('hex');
}

/** Constant-time string equality (hashing first makes the lengths equal, so the length leaks nothing either). */
export function safeEqual(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(a), h(b));
}

function header(h: WebhookRequest['headers'], name: string): string {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

type Signer = (ts: string, nonce: string, body: string) => string;

function signatureOk(req: WebhookRequest, sign: Signer): WebhookAuth | null {
  const ts = header(req.headers, 'x-lark-request-timestamp');
  const nonce = header(req.headers, 'x-lark-request-nonce');
  const sig = header(req.headers, 'x-lark-signature');
  if (!ts || !sig) return { ok: false, reason: 'signature headers missing' };
  if (!WEBHOOK_AUTH.timestampPattern.test(ts)) return { ok: false, reason: 'timestamp is not a number' };
  if (Math.abs(req.nowSec - Number(ts)) > WEBHOOK_AUTH.maxSignatureAgeSec) return { ok: false, reason: 'timestamp outside the allowed window' };
  // Feishu signs the raw bytes; the SDK re-serialises. Either is made with the same secret.
  const matches = [req.raw, JSON.stringify(req.body)].map((b) => safeEqual(sign(ts, nonce, b), sig));
  return matches.some(Boolean) ? null : { ok: false, reason: 'bad signature' };
}

function decrypt(body: Record<string, unknown>, encryptKey: string | undefined): Record<string, unknown> | null {
  if (typeof body.encrypt !== 'string') return body;
  if (!encryptKey) return null;
  try {
    const plain = JSON.parse(new lark.AESCipher(encryptKey).decrypt(body.encrypt)) as unknown;
    return plain && typeof plain === 'object' ? (plain as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The verification token an event carries: v2 events in `header.token`, v1 events and url_verification in `token`. */
function eventToken(plain: Record<string, unknown>): string {
  const h = plain.header;
  if (plain.schema !== undefined && h && typeof h === 'object' && typeof (h as { token?: unknown }).token === 'string') return (h as { token: string }).token;
  return typeof plain.token === 'string' ? plain.token : '';
}

/** Checks one webhook request; on success returns the (decrypted) payload. Refuses everything when no secret is set. */
export function authenticateWebhook(req: WebhookRequest, secrets: WebhookSecrets): WebhookAuth {
  if (!webhookIsAuthenticated(secrets)) return { ok: false, reason: 'no encryptKey or verificationToken configured' };
  if (secrets.encryptKey) {
    const bad = signatureOk(req, (ts, nonce, b) => webhookSignature(ts, nonce, secrets.encryptKey!, b));
    if (bad) return bad;
  }
  const plain = decrypt(req.body, secrets.encryptKey);
  if (!plain) return { ok: false, reason: secrets.encryptKey ? 'cannot decrypt the body' : 'encrypted body but no encryptKey configured' };
  if (!secrets.verificationToken) return { ok: true, plain };
  const legacyCard = req.legacyCardPath && typeof req.body.encrypt !== 'string' && plain.schema === undefined;
  if (legacyCard) {
    // Old-style card callbacks carry a card-update token in `token`; they are signed with the verification token.
    const bad = signatureOk(req, (ts, nonce, b) => legacyCardSignature(ts, nonce, secrets.verificationToken!, b));
    return bad ?? { ok: true, plain };
  }
  return safeEqual(eventToken(plain), secrets.verificationToken) ? { ok: true, plain } : { ok: false, reason: 'wrong verification token' };
}
