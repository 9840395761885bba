// `/adopt`: a CLI someone started by hand in a tmux pane becomes this topic's session, without restarting it.
//
// Which server: only larkmux's own (`tmux.socket`, or the one derived from LARKMUX_HOME — see tmux-socket.ts). A pane
// cannot move between tmux servers, and workers, the web terminal and restarts all address that one server; a CLI
// started on the user's default server has to be started again with `tmux -L <socket>` to be adoptable.
//
// On a configured host the same holds for larkmux's server there (derived from larkmux's folder on the host, the one
// the host's workers use): each reachable host is asked over its ControlMaster (workers/remote-adopt.ts), its panes are
// listed as `host:session:window`, and adopting one places the session on that host, whose worker attaches to it.
import type { BotConfig } from '../../shared/config.js';
import type { HostAdoptListResult, HostPanes } from '../../shared/host-adopt-protocol.js';

export type { HostPanes };
import type { Logger } from '../../platform/log.js';
import type { Anchor } from '../ground/anchor.js';
import type { SessionService } from './session-service.js';
import { newSessionCore, isOpenSession, type SessionCore } from '../ground/session-core.js';
import type { AdoptCandidate } from '../../shared/adopt-candidates.js';
import { linkPane, scanAdoptable, unlinkPane } from '../../platform/adoptable-panes.js';
import { withinHostRoots } from '../../shared/session-place.js';

/**
 * What /adopt lists: this machine's panes first, then each host's in config order; `leftOut`: hosts that did not
 * answer; `outsideRoots`: per host, the panes not offered because their folder is outside its `workingDirs`.
 */
export type BotAdoptScan =
  | {
    ok: true; candidates: AdoptCandidate[]; sharedWindows: number; leftOut: { host: string; reason: string | null }[]; hostTimeoutSeconds: number;
    outsideRoots: { host: string; count: number; roots: readonly string[] }[];
  }
  | { ok: false; message: string };


export type AdoptOutcome =
  | { ok: true; session: SessionCore; candidate: AdoptCandidate }
  | { ok: false; code: 'has_session' | 'gone' | 'scan_failed' | 'link_failed'; message?: string }
  /** The pane's folder on `host` is outside the host's `workingDirs`: not taken over (its link undone). */
  | { ok: false; code: 'outside_roots'; host: string; cwd: string; roots: readonly string[] };

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
  /** Absent or no names: no host is configured, /adopt lists this machine only. */
  readonly hostPanes?: HostPanes | undefined;
  readonly sessions: Pick<SessionService, 'getByKey' | 'put'>;
  readonly log: Logger;
}

export async function scanForBot(rt: AdoptRuntime): Promise<BotAdoptScan> {
  const hosts = rt.hostPanes?.names ?? [];
  // Every host at once, each bounded by its own timeout: a host that hangs never holds up this machine's list.
  const [local, ...remote] = await Promise.all([scanAdoptable(rt.tmuxSocket, rt.bot.cli), ...hosts.map((h) => rt.hostPanes!.list(h, rt.bot.cli))]);
  if (!local.ok) return local;
  return mergeAdoptLists(local, hosts.map((host, i) => ({ host, list: remote[i]!, roots: rt.hostPanes!.roots(host) })), rt.hostPanes?.listTimeoutSeconds ?? 0);
}

/**
 * Pure: one list from this machine's scan and each host's answer, in that order. A host's panes carry its name; a host
 * that failed or did not answer in time (`reason` null) is left out and named, never failing the whole list. A host's
 * pane whose folder is outside its `roots` (its workingDirs) is not offered, only counted: sessions there stay inside them.
 */
export function mergeAdoptLists(
  local: { candidates: readonly AdoptCandidate[]; notAdoptable: readonly unknown[] },
  remote: readonly { host: string; list: HostAdoptListResult | { ok: false; code: 'timeout' }; roots?: readonly string[] | undefined }[],
  hostTimeoutSeconds: number,
): Extract<BotAdoptScan, { ok: true }> {
  const scan: Extract<BotAdoptScan, { ok: true }> = {
    ok: true, candidates: [...local.candidates], sharedWindows: local.notAdoptable.length, leftOut: [], hostTimeoutSeconds, outsideRoots: [],
  };
  for (const { host, list, roots } of remote) {
    if (!list.ok) {
      scan.leftOut.push({ host, reason: list.code === 'timeout' ? null : (list.message ?? list.code) });
      continue;
    }
    const inside = list.candidates.filter((c) => withinHostRoots(roots, c.cwd));
    scan.candidates.push(...inside.map((c) => ({ ...c, host })));
    scan.sharedWindows += list.notAdoptable;
    const outside = list.candidates.length - inside.length;
    if (outside > 0) scan.outsideRoots.push({ host, count: outside, roots: roots ?? [] });
  }
  return scan;
}

/**
 * Takes the pane over: scanned again (the offer may be stale: the pane gone, another CLI in it), matched by pane
 * *and* CLI pid, linked into `lmx-<id8>`, and stored as a detached session — the next message forks a worker that
 * attaches to the running CLI (resume mode `attach`), exactly as after a daemon restart.
 */
export async function adoptPane(rt: AdoptRuntime, anchor: Anchor, ownerId: string, paneId: string, cliPid: number, host?: string): Promise<AdoptOutcome> {
  // Two topics tapping the same pane at once: the second waits for nothing and finds it gone.
  const key = `${host ?? ''}:${paneId}`;
  if (inProgress.has(key)) return { ok: false, code: 'gone' };
  inProgress.add(key);
  try {
    return await (host ? adoptOnHost(rt, anchor, ownerId, paneId, cliPid, host) : adoptOnce(rt, anchor, ownerId, paneId, cliPid));
  } finally {
    inProgress.delete(key);
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
  return stored(rt, anchor, core, candidate);
}

/**
 * The same take-over on a configured host: the host scans again and links there (one request over its ControlMaster),
 * and the session is stored on that host — the next message forks its worker there, which attaches to the pane.
 */
async function adoptOnHost(rt: AdoptRuntime, anchor: Anchor, ownerId: string, paneId: string, cliPid: number, host: string): Promise<AdoptOutcome> {
  if (isOpenSession(rt.sessions.getByKey(anchor.sessionKey))) return { ok: false, code: 'has_session' };
  const panes = rt.hostPanes;
  if (!panes?.names.includes(host)) return { ok: false, code: 'gone' };
  const core = newSessionCore({
    appId: rt.bot.appId, anchorId: anchor.anchorId, scope: anchor.scope, chatId: anchor.place.chatId, chatType: anchor.place.chatType,
    cli: rt.bot.cli, cwd: '/', ownerId, backend: 'tmux', now: Date.now(), host,
  });
  const linked = await panes.link(host, { action: 'link', cli: rt.bot.cli, paneId, cliPid, tmuxName: core.tmuxName });
  if (!linked.ok) {
    if (linked.code === 'gone') return { ok: false, code: 'gone' };
    return { ok: false, code: linked.code === 'scan_failed' ? 'scan_failed' : 'link_failed', message: linked.message ?? linked.code };
  }
  if (!linked.candidate) return { ok: false, code: 'link_failed', message: 'the host did not say which pane it linked' };
  const candidate: AdoptCandidate = { ...linked.candidate, host };
  // The folder the host saw when it linked (not the offer's): a pane that moved outside the host's roots is given back.
  const roots = panes.roots(host);
  if (!withinHostRoots(roots, candidate.cwd)) {
    await panes.link(host, { action: 'unlink', tmuxName: core.tmuxName });
    return { ok: false, code: 'outside_roots', host, cwd: candidate.cwd, roots: roots ?? [] };
  }
  if (isOpenSession(rt.sessions.getByKey(anchor.sessionKey))) {
    await panes.link(host, { action: 'unlink', tmuxName: core.tmuxName });
    return { ok: false, code: 'has_session' };
  }
  return stored(rt, anchor, { ...core, cli: candidate.cli, cwd: candidate.cwd }, candidate);
}

function stored(rt: AdoptRuntime, anchor: Anchor, core: SessionCore, candidate: AdoptCandidate): AdoptOutcome {
  const session = rt.sessions.put({ ...core, lifecycle: 'detached', status: 'idle', adopted: true });
  rt.log.info({ session: session.id.slice(0, 8), pane: candidate.paneId, pid: candidate.cliPid, tmuxSession: candidate.tmuxSession, host: candidate.host ?? 'local' }, 'pane adopted');
  offers.delete(anchor.sessionKey);
  return { ok: true, session, candidate };
}
