// Scan-to-create: the SDK's registerApp makes a new Feishu/Lark app with the scopes, event and card callback larkmux
// needs; the person opens (or scans) one link and confirms. Returns the new app's credentials, never prints the secret.
import type { AppAddons } from '@larksuiteoapi/node-sdk';
import { t, type Locale } from '../../shared/i18n.js';
import { CONSOLE_EVENTS, SCOPES } from './console-settings.js';

export const SCAN_CREATE = {
  /** Where the SDK runs the device flow by default; a Lark tenant is switched to larkHost by the SDK itself. */
  feishuHost: 'accounts.feishu.cn',
  larkHost: 'accounts.larksuite.com',
  /** Shown to the platform as the SDK's `source` (who asked for the app). */
  source: 'larkmux',
  /** A platform's error text is cut here: it is printed to the person and must not flood the terminal. */
  maxPlatformText: 200,
} as const;

export type ScanOutcome =
  | { ok: true; appId: string; appSecret: string; domain: 'feishu' | 'lark' }
  | { ok: false; reason: 'refused' | 'expired' | 'cancelled' | 'failed'; message: string };

/** What the new app asks for: every required scope, the message event and the card callback. */
export function scanAddons(): AppAddons {
  return {
    scopes: { tenant: SCOPES.filter((s) => s.required).map((s) => s.scope) },
    events: { items: { tenant: [CONSOLE_EVENTS.messageEvent] } },
    callbacks: { items: [CONSOLE_EVENTS.cardCallback] },
  };
}

/**
 * The accounts host registerApp talks to (it always prepends https://): `--accounts-url` when given, else the public
 * service for feishu/lark; a private deployment (domain is a URL) has no default.
 */
export function accountsHost(domain: string | undefined, accountsUrl: string | undefined): { ok: true; host: string; larkHost: string } | { ok: false; problem: string } {
  if (accountsUrl !== undefined) {
    let u: URL;
    try {
      u = new URL(accountsUrl);
    } catch {
      return { ok: false, problem: '--accounts-url: write a base URL such as https://accounts.example.com' };
    }
    if (u.protocol !== 'https:' || (u.pathname !== '/' && u.pathname !== '')) return { ok: false, problem: '--accounts-url: the scan service is reached over https, at the root of its host (https://host[:port])' };
    return { ok: true, host: u.host, larkHost: u.host };
  }
  if (domain === undefined || domain === 'feishu') return { ok: true, host: SCAN_CREATE.feishuHost, larkHost: SCAN_CREATE.larkHost };
  if (domain === 'lark') return { ok: true, host: SCAN_CREATE.larkHost, larkHost: SCAN_CREATE.larkHost };
  return { ok: false, problem: 'creating an app by scanning works with the feishu and lark platforms; for a private deployment give --accounts-url too, or enter an existing app with --app-id' };
}

/** The SDK rejects with `{ code, description }` for the device-flow answers and with an Error for a network failure. */
function outcomeOfFailure(e: unknown, locale: Locale, host: string): ScanOutcome {
  const flow = e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string' && !(e instanceof Error)
    ? (e as { code: string; description?: unknown })
    : null;
  if (flow?.code === 'access_denied') return { ok: false, reason: 'refused', message: t(locale, 'setup.scan.refused') };
  if (flow?.code === 'expired_token') return { ok: false, reason: 'expired', message: t(locale, 'setup.scan.expired') };
  if (flow?.code === 'abort') return { ok: false, reason: 'cancelled', message: t(locale, 'setup.scan.cancelled') };
  if (flow) {
    const said = typeof flow.description === 'string' ? flow.description.slice(0, SCAN_CREATE.maxPlatformText) : '';
    return { ok: false, reason: 'failed', message: t(locale, 'setup.scan.platformError', { code: flow.code.slice(0, 60), text: said }) };
  }
  const err = e as Error & { code?: string };
  return { ok: false, reason: 'failed', message: t(locale, 'setup.scan.unreachable', { host, why: (err?.code ?? err?.message ?? String(e)).slice(0, SCAN_CREATE.maxPlatformText) }) };
}

export interface ScanOptions {
  host: string;
  larkHost: string;
  locale: Locale;
  signal: AbortSignal;
  /** Paint the QR code black-on-white (stdout is a terminal); else bare block characters. */
  qrColour: boolean;
  /** One line for the person (the link, progress); never given the secret. */
  say: (line: string) => void;
}

export async function createAppByScan(opts: ScanOptions): Promise<ScanOutcome> {
  const { locale, say } = opts;
  // The SDK is large: load it only when someone actually scans.
  const { registerApp } = await import('@larksuiteoapi/node-sdk');
  // …and the QR encoder likewise: the `larkmux` command loads no package but zod until it needs one.
  const { terminalQr } = await import('./terminal-qr.js');
  let slowNoted = false;
  try {
    const result = await registerApp({
      domain: opts.host,
      larkDomain: opts.larkHost,
      source: SCAN_CREATE.source,
      signal: opts.signal,
      createOnly: true,
      addons: scanAddons(),
      onQRCodeReady: ({ url, expireIn }) => {
        say(t(locale, 'setup.scan.openLink'));
        say('');
        say(`  ${url}`);
        say('');
        say(t(locale, 'setup.scan.qr'));
        for (const line of terminalQr(url, opts.qrColour)) say(`  ${line}`);
        say('');
        say(t(locale, 'setup.scan.waiting', { minutes: Math.max(1, Math.round(expireIn / 60)) }));
      },
      onStatusChange: (info) => {
        if (info.status === 'slow_down' && !slowNoted) {
          slowNoted = true;
          say(t(locale, 'setup.scan.slowDown'));
        }
        if (info.status === 'domain_switched') say(t(locale, 'setup.scan.larkTenant'));
      },
    });
    const domain = result.user_info?.tenant_brand === 'lark' ? 'lark' : 'feishu';
    return { ok: true, appId: result.client_id, appSecret: result.client_secret, domain };
  } catch (e) {
    return outcomeOfFailure(e, locale, opts.host);
  }
}

