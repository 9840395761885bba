// How one session is wired to the rest of the daemon: its live runtime (cards, attention, answer files) and the
// `init` message its worker starts from. Kept apart from BotRuntime, which routes events and owns the stores.
import { cliInstallFor } from '../../shared/cli-install.js';
import type { BotConfig } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import { IPC_PROTOCOL_VERSION, type DaemonToWorker } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import type { FrameRenderer } from '../../platform/render-process.js';
import { AttentionKeeper } from './attention-keeper.js';
import type { ImAdapter } from '../im/types.js';
import { LiveSession } from './live-session.js';
import { sendAnswerFiles, sessionFileAccess } from '../outbound/answer-files.js';
import { sessionTopic } from '../outbound/post-items.js';
import { CARD_PACING, SessionCards } from './session-cards.js';
import { usageEntryOf, usageLedgerFor } from './usage-recorder.js';
import { sessionHost, type SessionCore } from '../ground/session-core.js';
import { placeLabel } from '../../shared/session-place.js';
import type { RenderStateStore, SessionStore } from '../ground/store.js';
import type { WebAccess } from '../web/web-access.js';
import { hostTimezone } from '../../shared/schedule-settings.js';
import type { HeldItem } from '../../shared/usage-hold.js';
import { HoldStore } from './hold-store.js';
import { BudgetStateStore } from './budget-state-store.js';
import { budgetWatchMs, SessionHolds } from './session-holds.js';
import { BudgetSource } from './budget-source.js';
import { larkmuxPaths } from '../../platform/paths.js';
import { botTotalsToday } from './usage-recorder.js';
import { statSync } from 'node:fs';
import { sshPlaces } from '../../platform/ssh/ssh-run.js';
import { HostWaitStore } from './host-wait-store.js';
import { HostWaits, type HostWaitPorts, type HostWaitReason } from './host-waits.js';
import { hostWaitNotice } from './session-placement.js';
import type { HostConfig } from '../../shared/host-config.js';
import type { TreeGit } from '../changes/tree-git.js';

export const BOT_DEFAULTS = {
  /** Fresh panes get this size; it matches the screenshots' 120×40 design size. */
  cols: 120,
  rows: 40,
} as const;

export interface SessionWiringDeps {
  bot: BotConfig;
  im: ImAdapter;
  web?: WebAccess;
  sessions: SessionStore;
  renders: RenderStateStore;
  /** The daemon's render process: screens become card pictures here, where the card is. */
  frames: FrameRenderer;
  log: Logger;
  t: Translate;
  /** LARKMUX_HOME: its own files are never sent as an answer's files. */
  home: string;
  /** The bot's usage holds: a limit the worker reports holds the session's prompts there. */
  holds?: SessionHolds;
  /** The git of the session's folder (its host's for a session placed on one); absent: this machine's. */
  git?: TreeGit;
}

/** The daemon-side runtime of a session: its cards, its attention keeper, and what a final answer's links upload. */
export function newLiveSession(deps: SessionWiringDeps, session: SessionCore): LiveSession {
  const { bot, im, t } = deps;
  const topic = sessionTopic(im, session);
  const place = topic.place;
  const replyTo = topic.replyTo ? { replyTo: topic.replyTo } : {};
  const log = deps.log.child({ session: session.id.slice(0, 8) });
  const cards = new SessionCards({
    sessionId: session.id,
    im,
    place,
    ...replyTo,
    // A session on another host says so in its card's header (`gpu1:app`); one on this machine shows just the folder.
    title: `${bot.name} · ${placeLabel({ host: sessionHost(session), dir: session.cwd })}`,
    log,
    t,
    frames: deps.frames,
    viewUrl: () => deps.web?.viewUrl(session.id),
    state: deps.renders.get(session.id),
    onStateChange: (st) => deps.renders.put(st),
  });
  return new LiveSession(session, cards, im, {
    update: (patch) => deps.sessions.update(session.id, patch),
    describeError: (code) => {
      if (code === 'cli_missing') return t('newcomer.cliMissing', { ...cliInstallFor(session.cli) });
      if (code === 'cwd_missing') return t('newcomer.cwdMissing', { path: session.cwd });
      return undefined;
    },
    onFinal: (text) => sendLinkedFiles(deps, session, text, log),
    diffUrl: () => deps.web?.diffUrl?.(session.id),
    attention: new AttentionKeeper({ im, place, ...replyTo, config: bot.attention, log, t }),
    usageLimit: (msg, cut) => deps.holds?.usageLimit(deps.sessions.get(session.id) ?? session, msg, cut) ?? Promise.resolve(undefined),
    cutDelivered: (cut) => deps.holds?.cutDelivered(deps.sessions.get(session.id) ?? session, cut) ?? Promise.resolve(),
    turnOver: (turnId) => deps.holds?.turnEnded(session.id, turnId),
    ...(deps.git ? { git: deps.git } : {}),
    onTurnEnd: (turn) => void usageLedgerFor(deps.home, log).append(usageEntryOf({ at: Date.now(), appId: bot.appId, bot: bot.name, sessionId: session.id, cli: session.cli, ...turn })),
  }, log, t);
}

/** A bot's usage holds, stored beside its sessions; a released prompt goes back to the owner through `deliver`. */
export function newSessionHolds(
  o: { bot: BotConfig; home: string; log: Logger; t: Translate; im: ImAdapter; holdOptions?: { owner?: () => string | undefined; rand?: () => number } },
  sessions: SessionStore,
  deliver: (s: SessionCore, item: HeldItem) => Promise<void>,
): SessionHolds {
  const { bot, home, log } = o;
  const timezone = () => bot.timezone ?? hostTimezone();
  const budget = new BudgetSource({ path: larkmuxPaths(home).config, bot, log });
  return new SessionHolds({
    store: new HoldStore({ home, appId: bot.appId, log }), budgetState: new BudgetStateStore({ home, appId: bot.appId, log }), log, t: o.t, im: o.im, botName: bot.name, timezone,
    session: (id) => sessions.get(id), deliver, budget: () => budget.current(), budgetWatchMs: budgetWatchMs(),
    todayTotals: (now) => botTotalsToday(home, bot.appId, now, timezone()),
    owner: () => o.holdOptions?.owner?.() ?? bot.allowedUsers[0],
    ...(o.holdOptions?.rand ? { rand: o.holdOptions.rand } : {}),
  });
}

/** Uploads the local files a final answer links (under the working dir or answerFileRoots); says which were not. */
async function sendLinkedFiles(deps: SessionWiringDeps, session: SessionCore, text: string, log: Logger): Promise<void> {
  const { t } = deps;
  const target = sessionTopic(deps.im, session);
  await sendAnswerFiles(text, {
    target, cwd: session.cwd, access: sessionFileAccess(deps.bot, session.cwd, deps.home), log,
    notSent: async (refused) => {
      const lines = refused.map((r) => t('files.notSent', { path: r.path, reason: r.reason === 'outside' ? t('files.reasonOutside') : t('files.reasonFailed', { detail: r.detail ?? '' }) }));
      await deps.im.sendText(target.place, lines.join('\n'), target.replyTo);
    },
  });
}

/** The `init` a session's worker starts from: a fresh session launches, an old one re-attaches or resumes. */
export function workerInit(session: SessionCore, o: {
  bot: BotConfig; home: string; tmuxSocket: string | null; fresh: boolean; display: Extract<DaemonToWorker, { type: 'init' }>['display']; webSecret?: string;
}): Extract<DaemonToWorker, { type: 'init' }> {
  const mode = o.fresh ? 'new' : session.nativeSessionId ? 'resume' : 'attach';
  return {
    type: 'init',
    protocol: IPC_PROTOCOL_VERSION,
    sessionId: session.id,
    sessionKey: session.key,
    home: o.home,
    cli: session.cli,
    cwd: session.cwd,
    env: o.bot.env,
    backend: session.backend,
    tmuxSocket: o.tmuxSocket,
    tmuxName: session.tmuxName,
    resume: { mode, ...(session.nativeSessionId ? { nativeSessionId: session.nativeSessionId } : {}) },
    startupDialogs: o.bot.startupDialogs,
    display: o.display,
    // The card's screenshot pace is decided here, where the budget is known (session-cards.ts); the worker follows it.
    frameIntervalMs: CARD_PACING.screenshotIntervalMs,
    cols: BOT_DEFAULTS.cols,
    rows: BOT_DEFAULTS.rows,
    ...(o.webSecret ? { webSecret: o.webSecret } : {}),
  };
}

/**
 * The bot's prompts waiting for unreachable hosts (host-waits.ts), kept beside its sessions. A refused key is tried
 * again when larkmux's known_hosts changes: its size and mtime, read by a stat, are the stamp.
 */
export function newHostWaits(
  o: { bot: BotConfig; home: string; log: Logger; t: Translate; hosts?: readonly HostConfig[] },
  ports: Omit<HostWaitPorts, 'store' | 'keysStamp' | 'notify'> & { notice(s: SessionCore, text: string): void },
): HostWaits {
  const knownHosts = sshPlaces(larkmuxPaths(o.home)).knownHosts;
  const keysStamp = () => {
    try {
      const st = statSync(knownHosts);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  const notify = (s: SessionCore, since: number, why: HostWaitReason) => ports.notice(s, hostWaitNotice(o.hosts?.find((h) => h.name === sessionHost(s)) ?? sessionHost(s), since, why, o.t));
  return new HostWaits({ ...ports, keysStamp, notify, store: new HostWaitStore({ home: o.home, appId: o.bot.appId, log: o.log }) });
}
