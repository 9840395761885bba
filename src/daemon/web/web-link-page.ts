// The page a one-time link opens (a write link, the console login): one button that POSTs the exchange, so link
// previewers (GET/HEAD) never spend the link.
import { t, type Locale } from '../../shared/i18n.js';

/** No script at all, no framing; the form posts to this same URL. */
export const LINK_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // Not no-referrer: under it Chromium sends `Origin: null` with the form's POST, and the POST's origin is checked.
  // strict-origin sends only the origin, never this page's path (which holds the link secret).
  'referrer-policy': 'strict-origin',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
} as const;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The write-link page in `locale`. It says nothing about the session and carries no secret beyond its own URL. */
export function writeLinkPage(locale: Locale): string {
  return oneButtonPage(locale, { title: 'webLink.title', explain: 'webLink.explain', button: 'webLink.button' }, 'open-write');
}

/** The console login link's page: the same single button, so only the person's POST spends the one-time token. */
export function consoleLoginPage(locale: Locale): string {
  return oneButtonPage(locale, { title: 'console.login.title', explain: 'console.login.explain', button: 'console.login.button' }, 'open-console');
}

type Key = Parameters<typeof t>[1];

function oneButtonPage(locale: Locale, keys: { title: Key; explain: Key; button: Key }, buttonId: string): string {
  const tr = (key: Key) => escapeHtml(t(locale, key));
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><title>${tr(keys.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1.25rem;background:#1e1e1e;color:#ddd;text-align:center}
p{line-height:1.5;max-width:28rem;margin:0 auto 1.5rem}button{font-size:1.15rem;padding:.8rem 2rem;border:0;border-radius:.5rem;background:#3a7afe;color:#fff}</style>
</head><body><p>${tr(keys.explain)}</p>
<form method="post"><button type="submit" id="${buttonId}">${tr(keys.button)}</button></form>
</body></html>
`;
}
