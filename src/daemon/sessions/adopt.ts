// `/adopt`: a CLI someone started by hand in a tmux pane becomes this topic's session, without restarting it.
//
// Which server: only larkmux's own (`tmux.socket`, or the one derived from LARKMUX_HOME — see tmux-socket.ts). A pane
// cannot move between tmux servers, and workers, the web terminal and restarts all address that one server; a CLI
// started on the user's default server has to be started again with `tmux -L <socket>` to be adoptable.
import type { BotConfig } from '../../shared/config.js';
import type { Logger } from '../../platform/log.js';
import type { Anchor } from '../ground/anchor.js';
import type { SessionService } from './session-service.js';
import { newSessionCore, isOpenSession, type SessionCore } from '../ground/session-core.js';
import type { AdoptCandidate } from '../panes/adopt-candidates.js';
import { linkPane, scanAdoptable, unlinkPane, type AdoptScan } from '../panes/adoptable-panes.js';

export type AdoptOutcome =
  | { ok: true; session: SessionCore; candidate: AdoptCandidate }
  | { ok: false; code: 'has_session' | 'gone' | 'scan_failed' | 'link_failed'; message?: string };

/** Where each offered list was posted, so a tap on it acts in that topic (in memory: after a restart, /adopt again). */
const offers = new Map<string, Anchor>();

export function rememberOffer(anchor: Anchor): void {
  offers.set(anchor.sessionKey, anchor);
}

export function offeredAnchor(anchorKey: string): Anchor | undefined {
  return offers.get(anchorKey);
}

/** What adopting needs of a bot's runtime (narrow, so the command table that reaches this module stays acyclic). */
export interface AdoptRuntime {
  readonly bot: Pick<BotConfig, 'appId' | 'cli'>;
  readonly tmuxSocket: string | null;
  readonly sessions: Pick<SessionService, 'getByKey' | 'put'>;
  readonly log: Logger;
}

export function scanForBot(rt: AdoptRuntime): Promise<AdoptScan> {
  return scanAdoptable(rt.tmuxSocket, rt.bot.cli);
}

/**
 * Takes the pane over: scanned again (the offer may be stale: the pane gone, another CLI in it), matched by pane
 * *and* CLI pid, linked into `lmx-<id8>`, and stored as a detached session — the next message forks a worker that
 * attaches to the running CLI (resume mode `attach`), exactly as after a daemon restart.
 */
export async function adoptPane(rt: AdoptRuntime, anchor: Anchor, ownerId: string, paneId: string, cliPid: number): Promise<AdoptOutcome> {
  // Two topics tapping the same pane at once: the second waits for nothing and finds it gone.
  if (inProgress.has(paneId)) return { ok: false, code: 'gone' };
  inProgress.add(paneId);
  try {
    return await adoptOnce(rt, anchor, ownerId, paneId, cliPid);
  } finally {
    inProgress.delete(paneId);
  }
}

/** Panes being taken over right now (one daemon serves every bot, so one set is enough). */
const inProgress = new Set<string>();

async function adoptOnce(rt: AdoptRuntime, anchor: Anchor, ownerId: string, paneId: string, cliPid: number): Promise<AdoptOutcome> {
  if (isOpenSession(rt.sessions.getByKey(anchor.sessionKey))) return { ok: false, code: 'has_session' };
  const scan = await scanForBot(rt);
  if (!scan.ok) return { ok: false, code: 'scan_failed', message: scan.message };
  const candidate = scan.candidates.find((c) => c.paneId === paneId && c.cliPid === cliPid);
  if (!candidate) return { ok: false, code: 'gone' };
  const core = newSessionCore({
    appId: rt.bot.appId, anchorId: anchor.anchorId, scope: anchor.scope, chatId: anchor.place.chatId, chatType: anchor.place.chatType,
    cli: candidate.cli, cwd: candidate.cwd, ownerId, backend: 'tmux', now: Date.now(),
  });
  const linked = await linkPane(rt.tmuxSocket, core.tmuxName, candidate);
  if (!linked.ok) return { ok: false, code: 'link_failed', message: linked.message };
  // Checked again after the await: two taps at once must not leave two sessions on one anchor.
  if (isOpenSession(rt.sessions.getByKey(anchor.sessionKey))) {
    await unlinkPane(rt.tmuxSocket, core.tmuxName);
    return { ok: false, code: 'has_session' };
  }
  const session = rt.sessions.put({ ...core, lifecycle: 'detached', status: 'idle', adopted: true });
  rt.log.info({ session: session.id.slice(0, 8), pane: candidate.paneId, pid: candidate.cliPid, tmuxSession: candidate.tmuxSession }, 'pane adopted');
  offers.delete(anchor.sessionKey);
  return { ok: true, session, candidate };
}
