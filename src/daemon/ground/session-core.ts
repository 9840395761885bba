// SessionCore: the daemon's IM-agnostic, persisted record of one session (DESIGN §4) — no card or message ids here.
import type { z } from 'zod';
import { SessionCoreSchema } from '../../shared/session-record.js';
import { newSessionId, sessionKey, tmuxSessionName, type SessionScope } from '../../shared/session-key.js';
import type { BackendKind } from '../../shared/ipc.js';
import type { CliSpec } from '../../shared/config.js';
import type { Anchor } from './anchor.js';
import { LOCAL_HOST } from '../../shared/host-config.js';

export type SessionCore = z.infer<typeof SessionCoreSchema>;
export type SessionLifecycle = SessionCore['lifecycle'];

export interface NewSessionInput {
  appId: string;
  anchorId: string;
  scope: SessionScope;
  chatId: string;
  chatType: 'p2p' | 'group';
  cli: CliSpec;
  cwd: string;
  /** A configured host's name; absent or `local` = this machine (the record then has no `host`). */
  host?: string;
  ownerId: string;
  backend?: BackendKind;
  now: number;
  /** For tests and restores; a fresh id otherwise. */
  id?: string;
}

/** A new session record in `starting` / `live`; the caller stores it. */
export function newSessionCore(input: NewSessionInput): SessionCore {
  const sid = input.id ?? newSessionId();
  return SessionCoreSchema.parse({
    id: sid,
    key: sessionKey(input.anchorId, input.appId),
    appId: input.appId,
    anchorId: input.anchorId,
    scope: input.scope,
    chatId: input.chatId,
    chatType: input.chatType,
    cli: input.cli,
    cwd: input.cwd,
    ...(input.host && input.host !== LOCAL_HOST ? { host: input.host } : {}),
    backend: input.backend ?? 'tmux',
    tmuxName: tmuxSessionName(sid),
    status: 'starting',
    lifecycle: 'live',
    ownerId: input.ownerId,
    requesterId: input.ownerId,
    createdAt: input.now,
    lastActivityAt: input.now,
  });
}

/** A session counts as open (routable to its CLI) unless /close ended it. */
export function isOpenSession(s: SessionCore | undefined): s is SessionCore {
  return s !== undefined && s.lifecycle !== 'closed';
}

/** Where a session's messages go: its chat, and in thread scope its topic (the root message it was anchored on). */
export function sessionPlace(s: Pick<SessionCore, 'scope' | 'chatId' | 'chatType' | 'anchorId'>): { chatId: string; chatType: SessionCore['chatType']; rootId?: string } {
  return { chatId: s.chatId, chatType: s.chatType, ...(s.scope === 'thread' ? { rootId: s.anchorId } : {}) };
}

/** A session's topic as an anchor, answering `replyTo` (a card tap acts there). */
export function sessionAnchor(s: SessionCore, replyTo: string): Anchor {
  return { anchorId: s.anchorId, scope: s.scope, sessionKey: s.key, place: sessionPlace(s), replyTo };
}

/** The host a session runs on: its record's `host`, or `local` (this machine) when it has none. */
export function sessionHost(s: Pick<SessionCore, 'host'>): string {
  return s.host ?? LOCAL_HOST;
}
