// What the proxy tells a session's worker: the browser's headers minus credentials, plus who this request is.
import type { IncomingHttpHeaders } from 'node:http';
import { PROXY_HEADERS } from '../../shared/webterm-protocol.js';

/** What a checked grant allows: typing as one user, or watching. */
export type Access = { mode: 'write'; userId: string } | { mode: 'read' };

/** Request headers never passed on: credentials, our own trust headers, hop-by-hop headers. */
const STRIPPED = new Set(['cookie', 'authorization', 'host', 'connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', ...Object.values(PROXY_HEADERS)]);

/** The headers of the request to the worker: its secret proves the request came through the proxy. */
export function upstreamHeaders(incoming: IncomingHttpHeaders, access: Access, worker: { proxySecret: string }, upgrade: boolean): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (!STRIPPED.has(k)) out[k] = v;
  if (upgrade) {
    out.connection = 'Upgrade';
    out.upgrade = 'websocket';
  }
  out[PROXY_HEADERS.secret] = worker.proxySecret;
  out[PROXY_HEADERS.access] = access.mode;
  if (access.mode === 'write') out[PROXY_HEADERS.user] = access.userId;
  return out;
}
