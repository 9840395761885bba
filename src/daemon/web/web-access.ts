// What the daemon's bots need from the web terminal side: links for cards, write links for DMs, revocation.
import type { SessionCore } from '../ground/session-core.js';

export interface WebAccess {
  /** The read-only link for a session's card; undefined when the web terminal is off. */
  viewUrl(sessionId: string): string | undefined;
  /** The session's web diff page (same view token); undefined when the web terminal is off. */
  diffUrl?(sessionId: string): string | undefined;
  /** A single-use write link for one user, or null when the web terminal is off. */
  writeLink(sessionId: string, userId: string): { url: string; expiresInMinutes: number } | null;
  /** Ends every write grant (and open write connection) of a session; returns how many grants there were. */
  revokeSession(sessionId: string): number;
  /** `/revoke-term --view`: a new view token (persisted; new cards carry it) and open views closed; null = web off. */
  rotateViewToken(sessionId: string): { connections: number } | null;
  /** /close: ends every grant and connection of the session, the view token too. */
  closeSession(sessionId: string): void;
  /** A restored session's persisted view token is honoured again. */
  restore(session: SessionCore): void;
  /** A web terminal is connected to (or opening on) the session: its worker must stay. */
  watching?(sessionId: string): boolean;
  /** A fresh secret for a worker about to be forked (undefined when the web terminal is off). */
  newWorkerSecret(sessionId: string): string | undefined;
}
