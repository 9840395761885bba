// The persisted session record (DESIGN §4), as the daemon's store writes it to LARKMUX_HOME/sessions-<appId>.json: its
// zod schema lives here, below daemon and platform, so the store and `larkmux` (platform/tmux-sessions.ts, reading the
// files while the daemon is stopped) check a record by the very same schema.
import { z } from 'zod';
import { CliSpecSchema } from './config.js';
import { BackendKindSchema, SessionStatusSchema } from './ipc.js';
import { HOST_NAME_RE } from './host-config.js';
import { SESSION_ID_RE, sessionKey, tmuxSessionName } from './session-key.js';

/** The `format` field of a sessions-<appId>.json file. */
export const SESSION_STORE_FORMAT = 'larkmux-sessions';

/**
 * live: a worker is (or may be) attached; detached: the CLI runs in tmux with no worker;
 * stopped: the CLI was stopped (capacity or reboot) and resumes by native id; closed: ended by /close.
 */
export const SessionLifecycleSchema = z.enum(['live', 'detached', 'stopped', 'closed']);

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
    /** The host the session runs on (DESIGN §12, a configured host's name); absent = this machine (older records too). */
    host: z.string().regex(HOST_NAME_RE).optional(),
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
