// The web port's own answers: plain-text pages in the reader's language, refusals on a raw socket, the locale cookie.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { LOCALE_COOKIE_NAME, t, type Locale, type MessageKey } from '../../shared/i18n.js';

export function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(`${text}\n`);
}

export function refuse(socket: Duplex, status: 404 | 421 | 429 | 503): void {
  const text = { 404: 'Not Found', 421: 'Misdirected Request', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status];
  // A refused extra connection says why (a browser's WebSocket cannot read it; a script or a proxy log can).
  const body = status === 429 ? 'Too many open connections to this terminal from this viewer or grant; close one and retry.\n' : '';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** An error or status page in the reader's language (plain text: nothing in it is markup). */
export function page(res: ServerResponse, status: number, locale: Locale, key: MessageKey, headers: Record<string, string> = {}): void {
  plain(res, status, t(locale, key), { 'content-language': locale, ...headers });
}

/** The page's language, per session path; readable by the page script (not HttpOnly), and no secret. */
export function localeCookieHeader(sessionId: string, locale: Locale): string {
  return `${LOCALE_COOKIE_NAME}=${locale}; Path=/s/${sessionId}/; SameSite=Strict`;
}
