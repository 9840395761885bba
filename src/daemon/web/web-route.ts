// Where a request to the web port goes: a pure split of its URL (the only place that reads tokens out of URLs).
import { SESSION_ID_RE } from '../../shared/session-key.js';

export type ProxyRoute =
  | { kind: 'not_found' }
  /** `/healthz`: for load balancers, tunnels and uptime checks; says nothing about sessions. */
  | { kind: 'health' }
  | { kind: 'add_slash'; sessionId: string }
  | { kind: 'write_link'; sessionId: string; token: string }
  | { kind: 'session'; sessionId: string; path: string; viewToken: string | null };

/** Splits a request URL into what it asks for. */
export function routeOf(rawUrl: string): ProxyRoute {
  let url: URL;
  try {
    url = new URL(rawUrl, 'http://proxy.invalid');
  } catch {
    return { kind: 'not_found' };
  }
  if (url.pathname === '/healthz') return { kind: 'health' };
  const m = /^\/s\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (!m || !SESSION_ID_RE.test(m[1] ?? '')) return { kind: 'not_found' };
  const sessionId = m[1] as string;
  const rest = m[2];
  if (rest === undefined) return { kind: 'add_slash', sessionId };
  const link = /^\/w\/([^/]+)$/.exec(rest);
  if (link) return { kind: 'write_link', sessionId, token: link[1] as string };
  return { kind: 'session', sessionId, path: rest, viewToken: url.searchParams.get('v') };
}
