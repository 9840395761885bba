// One configured bot at run time: its IM connection, sessions, grants and the path from a chat event to a worker.
import type { LegacyTmuxSessions } from './legacy-tmux.js';
import { literalChatText } from '../shared/chat-text.js';
import { botLocale, type BotConfig, type CliSpec } from '../shared/config.js';
import { translator, type Translate } from '../shared/i18n.js';
import { imageWaitFor, promptForAttachments, withQuote } from './inbound/attachment-turn.js';
import type { ImageWait } from './inbound/image-wait.js';
import { type BackendKind, type WorkerToDaemon } from '../shared/ipc.js';
import type { Logger } from '../shared/log.js';
import { expandHome, type LarkmuxPaths } from '../shared/paths.js';
import type { BotStatus } from './bot-status.js';
import { dispatchCommand } from './commands/dispatch.js';
import { InboundDedupe, rejectedDedupeKeys } from './dedupe.js';
import type { CardActionReply, ConnectionState, ImAdapter, InboundEvent, InboundMessage, InboundRejected } from './im/types.js';
import type { LiveSession } from './live-session.js';
import { BotState } from './pairing.js';
import { mayTypeIntoSelections } from './permissions.js';
import { routeMessage, routeRejected, type Anchor, type RouterBot } from './router.js';
import { newLiveSession, workerInit } from './session-wiring.js';
import { isOpenSession, newSessionCore, type SessionCore } from './session-core.js';
import { SessionWorker } from './session-worker.js';
import { RenderStateStore, SessionStore } from './store.js';
import type { WorkerPool } from './worker-pool.js';
import { BotCommandContext } from './bot-command-context.js';
import type { BotRuntimeHandle, PickerWait } from './bot-runtime-handle.js';
import type { WebAccess } from './web-access.js';
import type { CapacityKeeper } from './capacity-keeper.js';
import { onCardAction } from './card-actions.js';
import { killTmuxSessions } from './orphans.js';

export interface BotRuntimeOptions {
  bot: BotConfig;
  paths: LarkmuxPaths;
  log: Logger;
  pool: WorkerPool;
  im: ImAdapter;
  tmuxSocket: string | null;
  /** Open sessions still on the pre-per-home tmux server: located at start, their workers pointed there. */
  legacyTmux?: LegacyTmuxSessions;
  backend: BackendKind;
  web?: WebAccess;
  /** Open ids of the other configured bots (peer bots may talk). */
  peerBots?: () => readonly string[];
  /** The host's capacity keeper (one for all bots): launches wait for a slot there. */
  capacity: CapacityKeeper;
}

export class BotRuntime implements BotRuntimeHandle {
  readonly sessions: SessionStore;
  readonly renders: RenderStateStore;
  readonly state: BotState;
  private readonly dedupe: InboundDedupe;
  readonly live = new Map<string, LiveSession>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly noticesSent = new Set<string>();
  readonly pickerWaits = new Map<string, PickerWait>();
  /** Lone pictures waiting for their sender's text (attachments.imageWaitSeconds). */
  private readonly imageWait: ImageWait<PickerWait['decision']>;
  /** Sessions created by this process that have not launched yet: their first worker starts them fresh. */
  private readonly fresh = new Set<string>();
  private conn: { state: ConnectionState; detail?: string } = { state: 'stopped' };
  private storeProblems: string[] = [];
  readonly log: Logger;
  /** This bot's users read its locale (config `locale`, else the domain's default): every text it sends goes through this. */
  readonly t: Translate;

  constructor(readonly opts: BotRuntimeOptions) {
    const { bot, paths } = opts;
    this.log = opts.log.child({ bot: bot.name });
    this.t = translator(botLocale(bot));
    this.sessions = new SessionStore({ home: paths.home, appId: bot.appId, log: this.log });
    this.renders = new RenderStateStore({ home: paths.home, appId: bot.appId, log: this.log });
    this.state = new BotState({ home: paths.home, appId: bot.appId, log: this.log });
    this.imageWait = imageWaitFor(() => this.bot, opts.im, this.t, (d, m) => this.deliver(d, m));
    this.dedupe = new InboundDedupe({ path: `${paths.dedupeStore.replace(/\.json$/, '')}-${bot.appId}.json`, log: this.log });
  }

  get bot(): BotConfig {
    return this.opts.bot;
  }

  routerBot(): RouterBot {
    const { bot } = this.opts;
    return { appId: bot.appId, cli: bot.cli, groupScope: bot.groupScope, allowedUsers: bot.allowedUsers, allowedChats: bot.allowedChats };
  }

  grants() {
    return this.state.grants(this.opts.peerBots?.() ?? []);
  }

  /** Registers the stored sessions (metadata only: no worker starts, nothing is imported or connected). */
  async restore(): Promise<void> {
    for (const [what, load] of [
      ['sessions', () => this.sessions.load()],
      ['card state', () => this.renders.load()],
      ['bot state', () => this.state.load()],
      ['seen events', () => this.dedupe.load()],
    ] as const) {
      const res = await load();
      // The message names where the damaged file was kept aside (durable-file.ts).
      if (!res.ok) this.storeProblems.push(`${what}: ${res.message}`);
    }
    for (const s of this.sessions.all()) this.opts.web?.restore(s);
    await this.opts.legacyTmux?.locate(this.bot.name, this.sessions.all());
    const code = this.state.pairingCode(this.routerBot());
    if (code) this.log.warn(`bot "${this.bot.name}" has no allowlist and no owner: send this pairing code to it in a direct chat to become its owner: ${code}`);
  }

  /** Connects to the IM (the Lark SDK is imported here, after restore). */
  async connect(): Promise<void> {
    const res = await this.opts.im.connect({
      onEvent: (ev) => this.onEvent(ev),
      onRejected: (r) => void this.onRejected(r).catch((err) => this.log.error({ err }, 'rejected-event handling failed')),
      onState: (state, detail) => {
        this.conn = { state, ...(detail ? { detail } : {}) };
        this.log.info({ state, detail }, 'connection state');
      },
    });
    if (!res.ok) {
      this.conn = { state: 'failed', detail: res.message };
      this.log.error({ code: res.code, message: res.message }, 'could not connect');
    }
  }

  status(): BotStatus {
    const mine = this.sessions.all().filter((s) => s.lifecycle !== 'closed');
    const liveWorkers = mine.filter((s) => this.opts.pool.has(s.id)).length;
    const pairing = this.state.pairingCode(this.routerBot());
    const detail = [this.conn.detail, ...this.storeProblems, pairing ? `waiting for pairing code ${pairing}` : undefined].filter(Boolean).join('; ');
    return {
      name: this.bot.name,
      appId: this.bot.appId,
      state: this.conn.state,
      ...(detail ? { detail } : {}),
      ...(pairing ? { pairingCode: pairing } : {}),
      liveWorkers,
      // A new session waiting for its first launch has no CLI yet.
      liveClis: mine.filter((s) => (s.lifecycle === 'live' || s.lifecycle === 'detached') && !this.fresh.has(s.id)).length,
      maxLiveWorkers: this.bot.maxLiveWorkers,
      maxLiveClis: this.bot.maxLiveClis,
    };
  }

  owns(sessionId: string): boolean {
    return this.sessions.get(sessionId) !== undefined;
  }

  // ── inbound ────────────────────────────────────────────────────────────────

  private async onEvent(ev: InboundEvent): Promise<CardActionReply | void> {
    const duplicate = !this.dedupe.firstSeenEvent(ev);
    if (ev.kind === 'card_action') return onCardAction(this, ev, duplicate);
    if (duplicate) {
      this.log.info({ messageId: ev.messageId }, 'duplicate event ignored');
      return;
    }
    // Per-topic order: messages of one session are handled one after another, other sessions run in parallel.
    const key = `${ev.place.chatId}:${ev.place.rootId ?? (ev.place.chatType === 'p2p' ? '' : ev.messageId)}`;
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.onMessage(ev)).catch((err) => this.log.error({ err }, 'message handling failed'));
    this.queues.set(key, next);
    void next.finally(() => {
      if (this.queues.get(key) === next) this.queues.delete(key);
    });
  }

  /** A message the adapter could not read: a direct chat gets told so (once per message), anything else was logged. */
  private async onRejected(r: InboundRejected): Promise<void> {
    const duplicate = !this.dedupe.firstSeen(rejectedDedupeKeys(r));
    const decision = routeRejected({ rejected: r, bot: this.routerBot(), grants: this.grants(), duplicate, pairingOpen: this.state.needsPairing(this.routerBot()), t: this.t });
    if (decision.kind === 'reply') await this.opts.im.sendText(decision.place, decision.text, decision.replyTo);
  }

  private async onMessage(msg: InboundMessage): Promise<void> {
    const decision = routeMessage({
      msg,
      bot: this.routerBot(),
      grants: this.grants(),
      sessionByKey: (k) => this.sessions.getByKey(k),
      duplicate: false,
      pairingOpen: this.state.needsPairing(this.routerBot()),
      noticesSent: this.noticesSent,
      t: this.t,
    });
    switch (decision.kind) {
      case 'ignore':
        this.log.debug({ reason: decision.reason, messageId: msg.messageId }, 'message ignored');
        return;
      case 'reply':
        if (decision.onceKey) this.noticesSent.add(decision.onceKey);
        await this.opts.im.sendText(decision.place, decision.text, decision.replyTo);
        return;
      case 'pair': {
        const res = await this.state.tryPair(decision.userId, decision.text);
        const text = res.ok
          ? this.t('pair.done')
          : res.code === 'locked'
            ? this.t('security.pairingLocked')
            : res.code === 'mismatch'
              ? this.t('security.pairingWrong', { left: res.attemptsLeft })
              : this.t('pair.wrong');
        if (!res.ok && res.code !== 'not_pairing') this.log.warn({ sender: decision.userId, result: res.code }, 'wrong pairing code');
        await this.opts.im.sendText(decision.place, text, decision.replyTo);
        return;
      }
      case 'command':
        await dispatchCommand(decision.command, decision.args, new BotCommandContext(this, decision.anchor, { userId: msg.senderId }));
        return;
      case 'prompt':
      case 'passthrough': {
        const q = decision.kind === 'prompt' ? withQuote(decision, msg) : null;
        const now = q ? await this.imageWait.take(q.decision, q.msg) : { decision, msg };
        if (now) await this.deliver(now.decision, now.msg);
        return;
      }
      default: {
        const never: never = decision;
        return never;
      }
    }
  }

  /** A prompt or CLI command: find or create the session, make sure its worker runs, open the turn card, send. */
  async deliver(decision: PickerWait['decision'], msg: InboundMessage, chosenCwd?: string): Promise<void> {
    let session = this.sessions.getByKey(decision.sessionKey);
    if (!isOpenSession(session)) {
      const projects = this.bot.projects.map((p) => expandHome(p));
      // A topic opened with a form (the console) names its folder already: no picker.
      chosenCwd ??= msg.newSession?.cwd;
      if (!chosenCwd && projects.length > 1) {
        this.pickerWaits.set(decision.sessionKey, { decision, msg });
        await this.opts.im.sendCard(
          decision.anchor.place,
          { kind: 'picker', anchorKey: decision.sessionKey, title: this.t('session.pickProject'), projects: projects.map((p) => ({ label: p.split('/').filter(Boolean).pop() ?? p, path: p })) },
          decision.anchor.replyTo,
        );
        return;
      }
      session = this.createSession(decision.anchor, msg.senderId, chosenCwd ?? (projects.length === 1 ? projects[0] : undefined), msg.newSession?.cli);
    }
    const live = this.ensureLive(session);
    if (!mayTypeIntoSelections(live.openSelectionRequesters(), this.routerBot(), { chatId: decision.anchor.place.chatId }, { userId: msg.senderId }, this.grants())) {
      await this.opts.im.sendText(decision.anchor.place, this.t('security.selectionNotYours'), msg.messageId);
      return;
    }
    // Text stays text: control characters become visible symbols, never keys (chat-text.ts).
    const literal = literalChatText(decision.text);
    decision = { ...decision, text: literal.text };
    this.sessions.update(session.id, { requesterId: msg.senderId, lastActivityAt: Date.now() });
    if (msg.attachments?.length && decision.kind === 'prompt') decision = { ...decision, text: await this.withAttachments(session, decision.text, msg) };
    const requester = { userId: msg.senderId };
    // The turn is registered at once; its card goes out in the background so the text reaches the CLI without
    // waiting for Feishu (card operations stay in order behind it, so status updates land on the new card).
    const card = live.beginTurn({ turnId: msg.messageId, messageId: msg.messageId, requester }, decision.text);
    // Within the caps: waits for a stop under way on this session and for a free slot (capacity-keeper.ts).
    const queued = () => void live.cards.setNotice(this.t('capacity.queued', { busy: this.status().liveWorkers, max: this.bot.maxLiveWorkers }));
    await this.opts.capacity.launch(this, session, queued);
    await live.changes.begin();
    const worker = this.workerOf(session);
    const sent = decision.kind === 'prompt' ? worker.input(msg.messageId, decision.text, requester) : worker.rawInput(msg.messageId, decision.text);
    await card;
    if (literal.replaced) await live.cards.setNotice(this.t('security.controlChars', { count: literal.replaced }));
    if (sent !== 'sent') await live.cards.setNotice(this.t('notice.workerDown'));
  }

  createSession(anchor: Anchor, ownerId: string, cwd?: string, cli: CliSpec = this.bot.cli): SessionCore {
    const core = newSessionCore({
      appId: this.bot.appId,
      anchorId: anchor.anchorId,
      scope: anchor.scope,
      chatId: anchor.place.chatId,
      chatType: anchor.place.chatType,
      cli,
      cwd: cwd ?? expandHome(this.bot.workingDir),
      ownerId,
      backend: this.opts.backend,
      now: Date.now(),
    });
    this.fresh.add(core.id);
    this.log.info({ session: core.id.slice(0, 8), key: core.key, cwd: core.cwd }, 'session created');
    return this.sessions.put(core);
  }

  launchesFresh(sessionId: string): boolean {
    return this.fresh.has(sessionId);
  }

  /** The daemon-side runtime of a session (cards, turns), created on first use. */
  ensureLive(session: SessionCore): LiveSession {
    let live = this.live.get(session.id);
    if (live) return live;
    live = newLiveSession({ bot: this.bot, im: this.opts.im, web: this.opts.web, sessions: this.sessions, renders: this.renders, log: this.log, t: this.t }, session);
    this.live.set(session.id, live);
    return live;
  }

  workerOf(session: SessionCore): SessionWorker {
    return new SessionWorker(session.id, this.opts.pool, () => this.ensureWorker(session));
  }

  /** Saves a message's pictures and files into the session's folder and names them in the prompt. */
  private withAttachments(session: SessionCore, text: string, msg: InboundMessage): Promise<string> {
    const turn = { im: this.opts.im, cwd: session.cwd, cli: session.cli, limits: this.bot.attachments, t: this.t, log: this.log.child({ session: session.id.slice(0, 8) }) };
    return promptForAttachments({ ...turn, place: msg.place, replyTo: msg.messageId }, text, msg.attachments ?? []);
  }

  /** Forks the session's worker unless it runs; a fresh session launches, an old one re-attaches or resumes. */
  ensureWorker(session: SessionCore): boolean {
    if (this.opts.pool.has(session.id)) return true;
    const webSecret = this.opts.web?.newWorkerSecret(session.id);
    const ok = this.opts.pool.start(session.id, workerInit(session, {
      bot: this.bot,
      home: this.opts.paths.home,
      tmuxSocket: this.opts.legacyTmux?.socketFor(session) ?? this.opts.tmuxSocket,
      fresh: this.fresh.has(session.id),
      display: this.live.get(session.id)?.cards.display ?? this.renders.get(session.id)?.display ?? 'screenshot',
      ...(webSecret ? { webSecret } : {}),
    }));
    if (ok) {
      this.fresh.delete(session.id);
      this.sessions.update(session.id, { lifecycle: 'live' });
      this.opts.capacity.schedule();
    }
    return ok;
  }

  onWorkerMessage(sessionId: string, msg: WorkerToDaemon): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    const live = this.ensureLive(session);
    void live.handle(msg).catch((err) => this.log.error({ err, type: msg.type }, 'worker message handling failed'));
    // A turn that ended releases its session; a session that went quiet may let another launch (capacity-keeper.ts).
    if ((msg.type === 'final_output' && msg.turnId) || msg.type === 'input_failed') this.opts.capacity.turnDone(sessionId);
    else if (msg.type === 'status') this.opts.capacity.schedule();
  }

  onWorkerExit(sessionId: string, expected: boolean): void {
    this.live.get(sessionId)?.workerGone();
    this.opts.capacity.workerGone(sessionId);
    const s = this.sessions.get(sessionId);
    if (s && !expected && s.lifecycle === 'live') this.log.warn({ session: sessionId.slice(0, 8) }, 'worker died; the next message re-attaches');
  }

  anchorOf(session: SessionCore, replyTo: string): Anchor {
    return {
      anchorId: session.anchorId,
      scope: session.scope,
      sessionKey: session.key,
      place: { chatId: session.chatId, chatType: session.chatType, ...(session.scope === 'thread' ? { rootId: session.anchorId } : {}) },
      replyTo,
    };
  }

  /** /close: kills the CLI, ends the worker, revokes web grants, marks the session closed. */
  async closeSession(sessionId: string): Promise<boolean> {
    const s = this.sessions.get(sessionId);
    if (!s || s.lifecycle === 'closed') return false;
    this.live.get(sessionId)?.markClosing();
    if (this.opts.pool.has(sessionId)) await this.opts.pool.stop(sessionId, 'kill');
    // A detached CLI is ended through tmux by the daemon itself: no worker is forked just to kill it.
    else if (s.backend === 'tmux') await killTmuxSessions(this.opts.tmuxSocket, [s.tmuxName]);
    this.opts.web?.closeSession(sessionId);
    const live = this.live.get(sessionId);
    if (live) {
      await live.cards.setStatus('exited');
      live.dispose();
      this.live.delete(sessionId);
    }
    this.sessions.update(sessionId, { lifecycle: 'closed', status: 'exited', lastActivityAt: Date.now() });
    return true;
  }

  async dispose(): Promise<void> {
    const dropped = this.imageWait.dispose();
    if (dropped > 0) this.log.warn({ pictures: dropped }, 'pictures still waiting for text were not sent (the bot stopped)');
    for (const l of this.live.values()) {
      await l.cards.settle().catch(() => undefined);
      l.dispose();
    }
    await this.opts.im.dispose();
    await Promise.all([this.sessions.dispose(), this.renders.dispose(), this.state.dispose(), this.dedupe.dispose()]);
  }
}
