// SessionCore: the daemon's IM-agnostic, persisted record of one session (DESIGN §4) — no card or message ids here.
import { z } from 'zod';
import { CliSpecSchema } from '../../shared/config.js';
import { BackendKindSchema, SessionStatusSchema } from '../../shared/ipc.js';
import { SESSION_ID_RE, newSessionId, sessionKey, tmuxSessionName, type SessionScope } from '../../shared/session-key.js';
import type { BackendKind } from '../../shared/ipc.js';
import type { CliSpec } from '../../shared/config.js';

/**
 * live: a worker is (or may be) attached; detached: the CLI runs in tmux with no worker;
 * stopped: the CLI was stopped (capacity or reboot) and resumes by native id; closed: ended by /close.
 */
export const SessionLifecycleSchema = z.enum(['live', 'detached', 'stopped', 'closed']);
export type SessionLifecycle = z.infer<typeof SessionLifecycleSchema>;

export const SessionScopeSchema = z.enum(['thread', 'chat']);

const id = z.string().min(1).max(256);
const epochMs = z.number().int().nonnegative();

/** Unknown fields are stripped (not rejected) so a store written by a newer larkmux still loads its known part. */
export const SessionCoreSchema = z
  .object({
    id: z.string().regex(SESSION_ID_RE, 'session id must be 32 lowercase hex digits'),
    key: id,
    appId: id,
    anchorId: id,
    scope: SessionScopeSchema,
    chatId: id,
    chatType: z.enum(['p2p', 'group']),
    cli: CliSpecSchema,
    cwd: z.string().min(1).max(4096),
    backend: BackendKindSchema,
    tmuxName: z.string().regex(/^lmx-[0-9a-f]{8}$/),
    nativeSessionId: z.string().min(1).max(256).optional(),
    transcriptPath: z.string().min(1).max(4096).optional(),
    /** The read-only web terminal token on this session's cards; kept so card links survive a daemon restart. */
    viewToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(),
    /** Taken over by /adopt from a pane someone started by hand: its window is linked into `tmuxName`, not owned by it. */
    adopted: z.boolean().optional(),
    status: SessionStatusSchema,
    lifecycle: SessionLifecycleSchema,
    /** Who started the session, and who sent the latest prompt (the turn's requester). */
    ownerId: id,
    requesterId: id.optional(),
    createdAt: epochMs,
    lastActivityAt: epochMs,
  })
  .superRefine((s, ctx) => {
    let expectedKey: string | null = null;
    try {
      expectedKey = sessionKey(s.anchorId, s.appId);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['anchorId'], message: 'anchorId/appId cannot form a session key' });
    }
    if (expectedKey !== null && s.key !== expectedKey) ctx.addIssue({ code: 'custom', path: ['key'], message: 'key does not match anchorId::appId' });
    if (s.tmuxName !== tmuxSessionName(s.id)) ctx.addIssue({ code: 'custom', path: ['tmuxName'], message: 'tmuxName does not match the session id' });
  });
export type SessionCore = z.infer<typeof SessionCoreSchema>;

export interface NewSessionInput {
  appId: string;
  anchorId: string;
  scope: SessionScope;
  chatId: string;
  chatType: 'p2p' | 'group';
  cli: CliSpec;
  cwd: string;
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
