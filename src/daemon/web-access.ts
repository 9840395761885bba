// What the daemon's bots need from the web terminal side: links for cards, write links for DMs, revocation.

export interface WebAccess {
  /** The read-only link for a session's card; undefined when no web server is configured. */
  viewUrl(sessionId: string): string | undefined;
  /** A single-use write link for one user, or null when the web terminal is off. */
  writeLink(sessionId: string, userId: string): { url: string; expiresInMinutes: number } | null;
  /** Ends every write grant (and open write connection) of a session; returns how many grants there were. */
  revokeSession(sessionId: string): number;
}
