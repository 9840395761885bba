// Session identity: the routing key `<anchorId>::<appId>`, session ids and tmux names (DESIGN §4).

export type SessionScope = 'thread' | 'chat';

const SEP = '::';

export function sessionKey(anchorId: string, appId: string): string {
  if (!anchorId || anchorId.includes(SEP)) throw new Error(`invalid anchor id for a session key`);
  if (!appId || appId.includes(SEP)) throw new Error(`invalid app id for a session key`);
  return `${anchorId}${SEP}${appId}`;
}

export function parseSessionKey(key: string): { anchorId: string; appId: string } | null {
  const i = key.indexOf(SEP);
  if (i <= 0 || i + SEP.length >= key.length) return null;
  const anchorId = key.slice(0, i);
  const appId = key.slice(i + SEP.length);
  if (appId.includes(SEP)) return null;
  return { anchorId, appId };
}

/** Session ids are UUIDs without dashes so that their first 8 characters name the tmux session. */
export function newSessionId(): string {
  // The Web Crypto global (Node ≥ 19, browsers): src/shared stays free of node: imports.
  return globalThis.crypto.randomUUID().replace(/-/g, '');
}

export const SESSION_ID_RE = /^[0-9a-f]{32}$/;

export function tmuxSessionName(sessionId: string): string {
  return `lmx-${sessionId.slice(0, 8)}`;
}

export function tmuxDiagName(sessionId: string): string {
  return `lmx-diag-${sessionId.slice(0, 8)}`;
}
