// Who is on the other end of a request to the worker's web port: trusted only when the daemon's proxy vouches for it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PROXY_HEADERS } from '../../shared/webterm-protocol.js';

export type TerminalAccess = { mode: 'write'; userId: string } | { mode: 'read' };
export type Authorize = (req: IncomingMessage) => TerminalAccess | null;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/**
 * The `authorize` for a worker behind WebProxy: the request must carry the per-worker secret the daemon gave this
 * worker (compared in constant time over SHA-256 digests); the access and user headers are then the proxy's verdict.
 */
export function authorizeFromProxy(proxySecret: string): Authorize {
  if (proxySecret.length < 16) throw new Error('proxy secret too short');
  const expected = digest(proxySecret);
  return (req) => {
    const given = header(req, PROXY_HEADERS.secret);
    if (given === null || !timingSafeEqual(digest(given), expected)) return null;
    const access = header(req, PROXY_HEADERS.access);
    if (access === 'read') return { mode: 'read' };
    const userId = header(req, PROXY_HEADERS.user);
    if (access === 'write' && userId !== null) return { mode: 'write', userId };
    return null;
  };
}
