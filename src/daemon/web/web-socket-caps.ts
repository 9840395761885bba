// How many web-terminal WebSockets one holder may open: pure decisions over the connections already open.
import { isLoopback } from './is-loopback.js';
import type { Access } from './web-upstream-headers.js';

/** One open (or opening) WebSocket of a session, as the caps see it. */
export interface SocketHolder {
  access: Access;
  /** Who opened it, from `viewerOf`. */
  viewer: string;
}

export interface SocketCaps {
  viewSocketsPerSession: number;
  viewSocketsPerViewer: number;
  writeSocketsPerUser: number;
}

export type CapExceeded = 'write_user' | 'view_session' | 'view_viewer';

/**
 * Who a read-only connection counts against. A view link is shared by a whole group, so the link itself names
 * nobody, and any per-browser cookie a holder could simply drop and mint again: the client's network address is the
 * one identity a holder cannot multiply at will. When the peer is this machine (a reverse proxy or tunnel client
 * running here, DESIGN §12), the address is the last X-Forwarded-For entry, the one that proxy appended itself;
 * earlier entries came from the client and are not believed. Without the header a local peer is its own address.
 */
export function viewerOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
  const address = (peer ?? '').replace(/^::ffff:/, '');
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const last = header?.split(',').pop()?.trim();
  return isLoopback(address) && last ? `via-proxy:${last}` : address;
}

/** The cap a new connection would go past, or null when it fits beside the session's open ones. */
export function socketCapExceeded(open: readonly SocketHolder[], next: SocketHolder, caps: SocketCaps): CapExceeded | null {
  if (next.access.mode === 'write') {
    const userId = next.access.userId;
    const mine = open.filter((o) => o.access.mode === 'write' && o.access.userId === userId).length;
    return mine >= caps.writeSocketsPerUser ? 'write_user' : null;
  }
  const views = open.filter((o) => o.access.mode === 'read');
  if (views.filter((o) => o.viewer === next.viewer).length >= caps.viewSocketsPerViewer) return 'view_viewer';
  return views.length >= caps.viewSocketsPerSession ? 'view_session' : null;
}
