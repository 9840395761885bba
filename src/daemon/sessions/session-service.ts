// The one owner of a bot's sessions in the daemon: the persisted record, the live state (cards, turns), the worker
// handle and the per-topic message order. Everything else asks it (the bot's inbound path, commands, card taps, the
// capacity keeper, the web server); nothing else keeps a map of sessions. Status is kept once: the record's, moved by
// the live session's reports (live-session.ts persists it), read here by the capacity keeper.
import type { BotConfig, CliSpec } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import type { BackendKind, DisplayMode, HurryHow, Requester, SessionStatus, WorkerToDaemon } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import type { FrameRenderer } from '../../platform/render-process.js';
import type { Anchor } from '../ground/anchor.js';
import type { ImAdapter } from '../im/types.js';
import type { LegacyTmuxSessions } from './legacy-tmux.js';
import { killTmuxSessions } from '../../platform/tmux-sessions.js';
import type { WebAccess } from '../web/web-access.js';
import { SessionWorker, type SendOutcome } from '../workers/session-worker.js';
import type { WorkerExit, WorkerPoolEvents } from '../workers/worker-pool.js';
import type { WebUpstream } from '../workers/worker-link.js';
import type { CapacityEvents, WorkerControl } from './session-ports.js';
import { LOCAL_HOST, type HostConfig } from '../../shared/host-config.js';
import { newSessionDir } from './session-placement.js';
import { deliverTurn } from './turn-delivery.js';
import type { LiveSession } from './live-session.js';
import type { ChangeSet } from '../changes/change-tracker.js';
import { newSessionCore, sessionHost, type SessionCore } from '../ground/session-core.js';
import { newHostWaits, newLiveSession, newSessionHolds, workerInit } from './session-wiring.js';
import { RenderStateStore, SessionStore } from '../ground/store.js';
import { hurryWaiting, type TapOutcome } from './busy-message.js';
import type { SessionHolds } from './session-holds.js';
import type { HostWaits } from './host-waits.js';
export type { CapacityEvents, WorkerControl } from './session-ports.js';

export interface SessionServiceOptions {
  bot: BotConfig;
  home: string;
  log: Logger;
  t: Translate;
  im: ImAdapter;
  workers: WorkerControl;
  tmuxSocket: string | null;
  legacyTmux?: LegacyTmuxSessions;
  backend: BackendKind;
  web?: WebAccess;
  capacity: CapacityEvents;
  /** The configured hosts (config `hosts`): where a session of this bot may be placed. */
  hosts?: readonly HostConfig[];
  /** Draws the screens workers send into card pictures (the daemon's one render process). */
  frames: FrameRenderer;
  /** Ends detached CLIs through tmux (orphans.ts); replaceable where no tmux server is involved. */
  killTmux?: (socket: string | null, names: string[]) => Promise<unknown>;
  /** For usage holds: the bot's owner (budget notices mention them; else the first allowed user), the jitter's 0..1. */
  holdOptions?: { owner?: () => string | undefined; rand?: () => number };
}

type RecordPatch = Parameters<SessionStore['update']>[1];

/** A routed prompt or CLI command for an open session, its text already made literal (chat-text.ts). */
export interface Turn {
  /** The user's message: the turn's id, the card's anchor, and what gets the delivered reaction. */
  messageId: string;
  requester: Requester;
  /** `prompt` goes through the prompt protocol; `passthrough` (a CLI command) is typed as it is. */
  kind: 'prompt' | 'passthrough';
  text: string;
  /** Lines for the turn's card once it is out (saved attachments, characters replaced). */
  notices: readonly string[];
  /** A scheduled prompt's schedule: during a usage hold it waits once however often it comes due. */
  scheduleId?: string;
}

export class SessionService {
  private readonly records: SessionStore;
  private readonly renders: RenderStateStore;
  private readonly live = new Map<string, LiveSession>();
  /** One handle per session's worker, kept while the session is open (its web port and ready waiters live on it). */
  private readonly handles = new Map<string, SessionWorker>();
  /** What the pool reports about this owner's workers (given with each start): straight to the session. */
  private readonly workerEvents: WorkerPoolEvents = {
    onMessage: (id, msg) => this.onWorkerMessage(id, msg),
    onExit: (exit) => this.onWorkerExit(exit.sessionId, exit.expected, exit),
  };
  /** Prompts whose host could not be reached wait, on disk, and are sent again after a pause (host-waits.ts). */
  private readonly hostWaits: HostWaits;
  /** Sessions created by this process that have not launched yet: their first worker starts them fresh. */
  private readonly fresh = new Set<string>();
  /** Per-session order, by the router's session key: one session's messages run one after another, others in parallel. */
  private readonly ordered = new Map<string, Promise<void>>();
  private readonly log: Logger;
  /** Usage limits and the budget hold prompts here (session-holds.ts), stored beside the records. */
  readonly holds: SessionHolds;

  constructor(private readonly opts: SessionServiceOptions) {
    this.log = opts.log;
    const store = { home: opts.home, appId: opts.bot.appId, log: opts.log };
    this.records = new SessionStore(store);
    this.renders = new RenderStateStore(store);
    this.hostWaits = newHostWaits(opts, { session: (id) => this.records.get(id), inOrder: (s, job) => this.inSessionOrder(s.key, job), launch: (s) => this.opts.capacity.launch(this, s),
      worker: (s) => this.worker(s), notice: (s, text) => void this.liveOf(s).cards.setNotice(text) });
    this.holds = newSessionHolds(opts, this.records, (s, item) => this.inSessionOrder(s.key, () => this.deliver(this.records.get(s.id) ?? s, { ...item, messageId: item.id })));
  }

  /** The bot whose sessions these are (its caps are read by the capacity keeper). */
  get bot(): BotConfig { return this.opts.bot; }

  /** Loads the records and card state; each problem names where a damaged file was kept aside (durable-file.ts). */
  async load(): Promise<string[]> {
    const problems: string[] = [];
    for (const [what, load] of [['sessions', () => this.records.load()], ['card state', () => this.renders.load()], ['usage holds', () => this.holds.load()], ['prompts waiting for hosts', () => this.hostWaits.load()]] as const) {
      const res = await load();
      if (!res.ok) problems.push(`${what}: ${res.message}`);
    }
    for (const s of this.records.all()) this.opts.web?.restore(s);
    return problems;
  }

  // ── records ────────────────────────────────────────────────────────────────

  get(id: string): SessionCore | undefined { return this.records.get(id); }

  getByKey(key: string): SessionCore | undefined { return this.records.getByKey(key); }

  all(): SessionCore[] {
    return this.records.all();
  }

  update(id: string, patch: RecordPatch): SessionCore | undefined {
    return this.records.update(id, patch);
  }

  /** Registers a record made elsewhere (an adopted pane). */
  put(session: SessionCore): SessionCore {
    return this.records.put(session);
  }

  /** A new session at `host` (default: the bot's `host`, else this machine) in `cwd` (default: the bot's folder there). */
  create(anchor: Anchor, ownerId: string, cwd?: string, cli: CliSpec = this.bot.cli, host: string = this.bot.host ?? LOCAL_HOST): SessionCore {
    const core = newSessionCore({
      appId: this.bot.appId,
      anchorId: anchor.anchorId,
      scope: anchor.scope,
      chatId: anchor.place.chatId,
      chatType: anchor.place.chatType,
      cli,
      cwd: cwd ?? newSessionDir(this.bot, this.opts.hosts ?? [], host),
      host,
      ownerId,
      backend: this.opts.backend,
      now: Date.now(),
    });
    this.fresh.add(core.id);
    this.log.info({ session: core.id.slice(0, 8), key: core.key, host, cwd: core.cwd }, 'session created');
    return this.records.put(core);
  }

  /** Runs `job` after every earlier job of the same session key (a failure is logged and does not stop the next). */
  inSessionOrder(sessionKey: string, job: () => Promise<void>): Promise<void> {
    const next = (this.ordered.get(sessionKey) ?? Promise.resolve()).then(job).catch((err) => this.log.error({ err }, 'message handling failed'));
    this.ordered.set(sessionKey, next);
    void next.finally(() => {
      if (this.ordered.get(sessionKey) === next) this.ordered.delete(sessionKey);
    });
    return next;
  }

  /**
   * The turn, from a routed message to its worker (unless a usage hold keeps it): the turn and its card registered, the
   * worker launched within the caps, the folder's git state noted, the text sent, the card told what to know.
   */
  async submit(session: SessionCore, turn: Turn): Promise<void> {
    const { messageId: id, scheduleId, ...rest } = turn;
    if (await this.holds.take(session, { id, ...rest, notices: [...turn.notices], ...(scheduleId ? { scheduleId } : {}) })) return;
    await this.deliver(session, turn);
  }

  private deliver(session: SessionCore, turn: Turn): Promise<void> {
    return deliverTurn({ ...this.opts, bot: this.bot, hostWaits: this.hostWaits, owner: this, liveOf: (s) => this.liveOf(s), worker: (s) => this.worker(s),
      noteRequester: (s, requesterId) => this.records.update(s.id, { requesterId, lastActivityAt: Date.now() }), liveWorkers: () => this.counts().liveWorkers }, session, turn);
  }

  /** A tap on a waiting message's card: busy-message.ts decides, the worker's queue has the last word. */
  hurry(s: SessionCore, turnId: string, how: HurryHow, by: Requester): TapOutcome {
    return hurryWaiting(this.live.get(s.id)?.queueStateOf(turnId) ?? 'unknown', s.cli, how, () => this.worker(s).hurry(turnId, how, by));
  }

  /** Who answers the selections the session's CLI waits on now (text typed into the pane would answer them). */
  openSelectionRequesters(id: string): (string | undefined)[] {
    return this.live.get(id)?.openSelectionRequesters() ?? [];
  }

  // ── live state ─────────────────────────────────────────────────────────────

  /** The daemon-side runtime of a session (cards, turns), created on first use; nobody outside this owner holds one. */
  private liveOf(session: SessionCore): LiveSession {
    let live = this.live.get(session.id);
    if (live) return live;
    const { bot, im, web, t } = this.opts;
    live = newLiveSession({ bot, im, web, sessions: this.records, renders: this.renders, frames: this.opts.frames, log: this.log, t, home: this.opts.home, holds: this.holds, git: this.opts.workers.treeGit?.(sessionHost(session)) }, session);
    this.live.set(session.id, live);
    return live;
  }

  /** The requester a pending selection is bound to (undefined: operators only, or no such selection). */
  selectionRequester(id: string, promptId: string): string | undefined {
    return this.live.get(id)?.selectionRequester(promptId);
  }

  /** An answer to a pending selection (a card tap, /select): the worker picks it, the card shows who. False: not pending. */
  answerSelection(session: SessionCore, promptId: string, optionIndex: number, by: Requester, text?: string): Promise<boolean> {
    const live = this.liveOf(session);
    if (!live.selection(promptId)) return Promise.resolve(false);
    this.worker(session).choose(promptId, optionIndex, by, text);
    return live.answered(promptId, by.userId, optionIndex, text);
  }

  /** /diff: a change card for what the session's current turn has changed so far. */
  postChanges(id: string): Promise<'posted' | 'none' | 'not_git' | 'no_turn'> {
    return this.live.get(id)?.postChanges() ?? Promise.resolve('no_turn');
  }

  /** The session's last change set (the web diff page), if a turn has ended with one since the daemon started. */
  latestChanges(id: string): ChangeSet | undefined {
    return this.live.get(id)?.changes.latest;
  }

  /** The session's status as the capacity keeper sees it: kept once, on the record (the live session persists it). */
  statusOf(session: SessionCore): SessionStatus {
    return this.records.get(session.id)?.status ?? session.status;
  }

  /** How the cards show the screen, and what the worker renders: both at once, so a button and /display agree. */
  async setDisplay(session: SessionCore, mode: DisplayMode): Promise<SendOutcome> {
    await this.liveOf(session).cards.setDisplay(mode);
    // The worker renders only what is displayed: no screenshots at all while hidden or text.
    return this.worker(session).setDisplay(mode);
  }

  // ── workers ────────────────────────────────────────────────────────────────

  /** The session's one worker handle: typed messages with the one wake rule (session-worker.ts), its web port. */
  worker(session: SessionCore): SessionWorker {
    let handle = this.handles.get(session.id);
    if (!handle) {
      const id = session.id;
      // Woken from the record as it is then (a native id learned since, a new lifecycle).
      handle = new SessionWorker(id, this.opts.workers, () => this.ensureWorker(this.records.get(id) ?? session));
      this.handles.set(id, handle);
    }
    return handle;
  }

  /**
   * A web visit: where this machine reaches the session's web terminal once its worker runs and is ready (a host's: by
   * its link's forward); null when the session is closed, the worker cannot start or has none. The web side times out.
   */
  async wakeForWeb(id: string): Promise<WebUpstream | null> {
    const s = this.records.get(id);
    if (!s || s.lifecycle === 'closed') return null;
    const handle = this.worker(s), reach = (said: WebUpstream) => this.opts.workers.webUpstream?.(id, said) ?? said;
    // Every proxied request and socket of the page asks: a worker that runs and said `ready` answers at once, without
    // pinning the session in the capacity keeper and re-planning every session for it.
    if (handle.running && handle.webTerminal !== null) return handle.webUpstream(reach);
    // Like any launch, within the caps: it may wait for a slot (or for an idle worker to be detached to make one).
    // The launch protects the session like a turn until its worker is ready; the open page then keeps it (watched).
    try {
      if (!(await this.opts.capacity.launch(this, s))) return null;
      return (await handle.waitReady()) ? await handle.webUpstream(reach) : null;
    } finally {
      this.opts.capacity.turnDone(id);
    }
  }

  workerLive(id: string): boolean { return this.opts.workers.has(id); }

  /** A web terminal is open on the session (its worker is not detached for being idle). */
  watched(id: string): boolean { return this.opts.web?.watching?.(id) ?? false; }

  /** A session created by this process that never launched: its record says `live`, but no CLI runs yet. */
  launchesFresh(id: string): boolean { return this.fresh.has(id); }

  /** Forks the session's worker unless it runs; a fresh session launches, an old one re-attaches or resumes. */
  ensureWorker(session: SessionCore): boolean {
    if (this.opts.workers.has(session.id)) return true;
    const webSecret = this.opts.web?.newWorkerSecret(session.id);
    const ok = this.opts.workers.start(session.id, workerInit(session, {
      bot: this.bot,
      home: this.opts.home,
      tmuxSocket: sessionHost(session) !== LOCAL_HOST ? null : (this.opts.legacyTmux?.socketFor(session) ?? this.opts.tmuxSocket),
      fresh: this.fresh.has(session.id),
      display: this.live.get(session.id)?.cards.display ?? this.renders.get(session.id)?.display ?? 'screenshot',
      ...(webSecret ? { webSecret } : {}),
    }), this.workerEvents, { host: sessionHost(session) });
    if (ok) {
      this.fresh.delete(session.id);
      // Waking a worker (a message, a key, a web visit) is activity: its idle time starts again.
      this.records.update(session.id, { lifecycle: 'live', lastActivityAt: Date.now() });
      this.opts.capacity.schedule();
    }
    return ok;
  }

  onWorkerMessage(id: string, msg: WorkerToDaemon): void {
    const session = this.records.get(id);
    if (!session) return;
    if (msg.type === 'ready') {
      this.worker(session).ready(msg.webPort, msg.webSocket);
      this.hostWaits.recovered(id);
    }
    void this.liveOf(session).handle(msg).catch((err) => this.log.error({ err, type: msg.type }, 'worker message handling failed'));
    // A turn that ended releases its session; a session that went quiet may let another launch (capacity-keeper.ts).
    if ((msg.type === 'final_output' && msg.turnId) || msg.type === 'input_failed') this.opts.capacity.turnDone(id);
    else if (msg.type === 'status') this.opts.capacity.schedule();
  }

  /** `exit`: how the pool saw it go; a link to a host that was lost leaves its prompts waiting (host-waits.ts). */
  onWorkerExit(id: string, expected: boolean, exit?: Pick<WorkerExit, 'cause' | 'unsent' | 'inFlight' | 'linkFailure'>): void {
    this.handles.get(id)?.gone();
    this.live.get(id)?.workerGone();
    this.opts.capacity.workerGone(id);
    const s = this.records.get(id);
    if (s && exit?.cause === 'link_lost') this.hostWaits.hold(id, exit.unsent ?? [], exit.linkFailure === 'host-key-changed' ? exit.linkFailure : 'unreachable', exit.inFlight);
    if (s && !expected && s.lifecycle === 'live') this.log.warn({ session: id.slice(0, 8) }, 'worker died; the next message re-attaches');
  }

  // ── capacity actions (decided by capacity.ts, carried out here) ───────────

  /** Over maxLiveWorkers, or idle for idleDetachMinutes: the worker goes, the CLI keeps running in tmux. */
  async detach(id: string): Promise<void> {
    await this.opts.workers.stop(id, 'detach');
    this.records.update(id, { lifecycle: 'detached' });
  }

  /** Over maxLiveClis: the CLI ends (through its worker, or through tmux when none runs); it resumes on the next message. */
  async stopCli(id: string, via: 'worker' | 'tmux'): Promise<void> {
    if (via === 'worker') await this.opts.workers.stop(id, 'kill');
    else {
      const s = this.records.get(id);
      // Without tmux (pty backend) a CLI never outlives its worker: there is nothing left to end.
      if (s && s.backend === 'tmux') await this.killTmux([s.tmuxName]);
    }
    this.records.update(id, { lifecycle: 'stopped', status: 'exited' });
  }

  /** /close: kills the CLI, ends the worker, revokes web grants, marks the session closed. */
  async close(id: string): Promise<boolean> {
    const s = this.records.get(id);
    if (!s || s.lifecycle === 'closed') return false;
    this.live.get(id)?.markClosing();
    if (this.opts.workers.has(id)) await this.opts.workers.stop(id, 'kill');
    // A detached CLI is ended through tmux by the daemon itself: no worker is forked just to kill it.
    else if (s.backend === 'tmux') await this.killTmux([s.tmuxName]);
    this.opts.web?.closeSession(id);
    const live = this.live.get(id);
    if (live) {
      await live.cards.setStatus('exited');
      live.dispose();
      this.live.delete(id);
    }
    this.handles.delete(id);
    this.holds.forget(id);
    this.records.update(id, { lifecycle: 'closed', status: 'exited', lastActivityAt: Date.now() });
    return true;
  }

  /** Open sessions with a worker, and with a CLI that runs (a fresh session waiting for its first launch has none). */
  counts(): { liveWorkers: number; liveClis: number } {
    const open = this.records.all().filter((s) => s.lifecycle !== 'closed');
    return {
      liveWorkers: open.filter((s) => this.opts.workers.has(s.id)).length,
      liveClis: open.filter((s) => (s.lifecycle === 'live' || s.lifecycle === 'detached') && !this.fresh.has(s.id)).length,
    };
  }

  private killTmux(names: string[]): Promise<unknown> {
    return (this.opts.killTmux ?? killTmuxSessions)(this.opts.tmuxSocket, names);
  }

  /** Lets the cards finish their last updates, then writes the stores. */
  async dispose(): Promise<void> {
    const waits = this.hostWaits.dispose();
    for (const l of this.live.values()) {
      await l.cards.settle().catch(() => undefined);
      l.dispose();
    }
    await Promise.all([this.records.dispose(), this.renders.dispose(), this.holds.dispose(), waits]);
  }
}
