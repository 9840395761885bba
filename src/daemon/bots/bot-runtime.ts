// One configured bot at run time: its IM connection, sessions, grants and the path from a chat event to a worker.
import type { HostPanes } from '../../shared/host-adopt-protocol.js';
import type { LegacyTmuxSessions } from '../sessions/legacy-tmux.js';
import { literalChatText } from '../../shared/chat-text.js';
import { botLocale, type BotConfig } from '../../shared/config.js';
import { t, type Translate } from '../../shared/i18n.js';
import { LOCAL_HOST, type HostConfig } from '../../shared/host-config.js';
import { placeLabel, readPlace } from '../../shared/session-place.js';
import { folderPickerChoices } from '../sessions/session-placement.js';
import { imageWaitFor, typedForTurn, type TypedTurn } from '../inbound/attachment-turn.js';
import type { OpenUploadFolder } from '../../platform/upload-dir.js';
import type { ImageWait } from '../inbound/image-wait.js';
import type { BackendKind } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import type { FrameRenderer } from '../../platform/render-process.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import type { BotStatus } from './bot-status.js';
import { dispatchCommand } from '../commands/dispatch.js';
import { InboundDedupe, rejectedDedupeKeys } from '../inbound/dedupe.js';
import type { CardActionReply, ConnectionState, ImAdapter, InboundEvent, InboundMessage, InboundRejected } from '../im/types.js';
import { BotState } from '../ground/pairing.js';
import { mayTypeIntoSelections } from '../ground/permissions.js';
import { orderKeyOf, routeMessage, routeRejected, type RouterBot } from '../inbound/router.js';
import type { Anchor } from '../ground/anchor.js';
import { isOpenSession, sessionHost, type SessionCore } from '../ground/session-core.js';
import { SessionService } from '../sessions/session-service.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import { BotCommandContext } from './bot-command-context.js';
import type { BotRuntimeHandle, PickerWait } from './bot-runtime-handle.js';
import type { WebAccess } from '../web/web-access.js';
import type { CapacityKeeper } from '../sessions/capacity-keeper.js';
import { onCardAction } from './card-actions.js';
import { hostTimezone } from '../../shared/schedule-settings.js';
import { ScheduleStore } from '../schedules/schedule-store.js';
import { Scheduler } from '../schedules/scheduler.js';
import { fireScheduled, skippedScheduled, type ScheduledTurnDeps } from '../schedules/scheduled-turn.js';

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
  /** The host's capacity keeper (one for all bots): launches wait for a slot there. */
  capacity: CapacityKeeper;
  /** The daemon's one render process: workers send screens, card pictures are drawn here. */
  frames: FrameRenderer;
  /** The configured hosts (config `hosts`); none: every session runs on this machine. */
  hosts?: readonly HostConfig[];
  /** The upload folder of a session on a configured host (its files are copied there); undefined for any other name. */
  remoteUploads?: (host: string) => OpenUploadFolder | undefined;
  /** /adopt on the configured hosts (workers/remote-adopt.ts). */
  hostPanes?: HostPanes;
}

export class BotRuntime implements BotRuntimeHandle {
  /** The one owner of this bot's sessions: records, live state, cards, workers, per-topic order. */
  readonly sessions: SessionService;
  readonly state: BotState;
  /** This bot's schedules: stored beside its sessions, one timer, a due prompt handed to `sessions` (schedules/). */
  readonly scheduler: Scheduler;
  private readonly dedupe: InboundDedupe;
  private readonly noticesSent = new Set<string>();
  /** Prompts of new sessions waiting for the folder picker's answer, by session key: only this runtime touches them. */
  private readonly pickerWaits = new Map<string, PickerWait>();
  /** Lone pictures waiting for their sender's text (attachments.imageWaitSeconds). */
  private readonly imageWait: ImageWait<PickerWait['decision']>;
  private conn: { state: ConnectionState; detail?: string } = { state: 'stopped' };
  private storeProblems: string[] = [];
  readonly log: Logger;
  /** This bot's users read its locale (config `locale`, else the domain's default): every text it sends goes through this. */
  readonly t: Translate;

  constructor(private readonly opts: BotRuntimeOptions) {
    const { bot, paths } = opts;
    this.log = opts.log.child({ bot: bot.name });
    // The bot's locale is read at each use: the console's is set when a page connects (createLocalConsole), after construction.
    this.t = (key, params) => t(botLocale(this.bot), key, params);
    this.sessions = new SessionService({
      bot, home: paths.home, log: this.log, t: this.t, im: opts.im, workers: opts.pool, tmuxSocket: opts.tmuxSocket,
      ...(opts.legacyTmux ? { legacyTmux: opts.legacyTmux } : {}), backend: opts.backend, ...(opts.web ? { web: opts.web } : {}), capacity: opts.capacity, frames: opts.frames, hosts: this.hosts,
      holdOptions: { owner: () => this.state.grants().ownerId },
    });
    this.state = new BotState({ home: paths.home, appId: bot.appId, log: this.log });
    this.imageWait = imageWaitFor(() => this.bot, opts.im, this.t, (d, m) => this.deliver(d, m));
    const turns: ScheduledTurnDeps = {
      sessions: this.sessions, im: opts.im, t: this.t, log: this.log, permissionBot: () => this.routerBot(), grants: () => this.grants(), scheduler: () => this.scheduler,
    };
    this.scheduler = new Scheduler({
      store: new ScheduleStore({ home: paths.home, appId: bot.appId, log: this.log }),
      log: this.log,
      catchUp: () => this.bot.catchUp,
      timezone: () => this.bot.timezone ?? hostTimezone(),
      fire: (s, due, reason) => fireScheduled(turns, s, due, reason),
      skipped: (s, due) => skippedScheduled(turns, s, due),
    });
    this.dedupe = new InboundDedupe({ path: `${paths.dedupeStore.replace(/\.json$/, '')}-${bot.appId}.json`, log: this.log });
  }

  get bot(): BotConfig {
    return this.opts.bot;
  }

  get home(): string {
    return this.opts.paths.home;
  }

  get im(): ImAdapter {
    return this.opts.im;
  }

  get web(): WebAccess | undefined {
    return this.opts.web;
  }

  get hosts(): readonly HostConfig[] {
    return this.opts.hosts ?? [];
  }

  private hostNames(): string[] {
    return this.hosts.map((h) => h.name);
  }

  get hostPanes(): HostPanes | undefined {
    return this.opts.hostPanes;
  }

  get tmuxSocket(): string | null {
    return this.opts.tmuxSocket;
  }

  routerBot(): RouterBot {
    const { bot } = this.opts;
    return { appId: bot.appId, cli: bot.cli, groupScope: bot.groupScope, allowedUsers: bot.allowedUsers, allowedChats: bot.allowedChats };
  }

  grants() {
    return this.state.grants();
  }

  /** Registers the stored sessions (metadata only: no worker starts, nothing is imported or connected). */
  async restore(): Promise<void> {
    this.storeProblems.push(...(await this.sessions.load()));
    for (const [what, load] of [
      ['bot state', () => this.state.load()],
      ['seen events', () => this.dedupe.load()],
      ['schedules', () => this.scheduler.load()],
    ] as const) {
      const res = await load();
      // The message names where the damaged file was kept aside (durable-file.ts).
      if (!res.ok) this.storeProblems.push(`${what}: ${res.message}`);
    }
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
    // Due prompts (and what came due while the daemon was down) go out once the bot can post them.
    this.scheduler.start();
    // Usage holds too: a reset time that passed while the daemon was down releases its prompts now.
    this.sessions.holds.start();
  }

  status(): BotStatus {
    const pairing = this.state.pairingCode(this.routerBot());
    const detail = [this.conn.detail, ...this.storeProblems, pairing ? `waiting for pairing code ${pairing}` : undefined].filter(Boolean).join('; ');
    return {
      name: this.bot.name,
      appId: this.bot.appId,
      state: this.conn.state,
      ...(detail ? { detail } : {}),
      ...(pairing ? { pairingCode: pairing } : {}),
      ...this.sessions.counts(),
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
    // Per-session order: messages of one session are handled one after another, other sessions run in parallel.
    void this.sessions.inSessionOrder(orderKeyOf(ev, this.routerBot()), () => this.onMessage(ev));
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
        const now = decision.kind === 'prompt' ? await this.imageWait.take(decision, msg) : { decision, msg };
        if (now) await this.deliver(now.decision, now.msg);
        return;
      }
      default: {
        const never: never = decision;
        return never;
      }
    }
  }

  async answerPicker(sessionKey: string, path: string): Promise<boolean> {
    const wait = this.pickerWaits.get(sessionKey);
    if (!wait) return false;
    this.pickerWaits.delete(sessionKey);
    await this.deliver(wait.decision, wait.msg, path);
    return true;
  }

  pickerAnchor(sessionKey: string): Anchor | undefined {
    return this.pickerWaits.get(sessionKey)?.decision.anchor;
  }

  /** A prompt or CLI command: find or create the session (or ask for its folder), make its text literal, hand the turn to the owner. */
  private async deliver(decision: PickerWait['decision'], msg: InboundMessage, chosenCwd?: string): Promise<void> {
    let session = this.sessions.getByKey(decision.sessionKey);
    if (!isOpenSession(session)) {
      // This machine's folders, then each host's roots as host:dir (a chosen value is read back by readPlace).
      const projects = folderPickerChoices(this.bot, this.hosts);
      // A topic opened with a form (the console) names its folder already: no picker.
      chosenCwd ??= msg.newSession?.cwd;
      if (!chosenCwd && projects.length > 1) {
        this.pickerWaits.set(decision.sessionKey, { decision, msg });
        await this.opts.im.sendCard(
          decision.anchor.place,
          { kind: 'picker', anchorKey: decision.sessionKey, title: this.t('session.pickProject'), projects: projects.map((p) => ({ label: placeLabel(readPlace(p, this.hostNames())), path: p })) },
          decision.anchor.replyTo,
        );
        return;
      }
      const chosen = chosenCwd ?? (projects.length === 1 ? projects[0] : undefined);
      const place = chosen === undefined ? undefined : readPlace(chosen, this.hostNames());
      session = this.sessions.create(decision.anchor, msg.senderId, place?.dir, msg.newSession?.cli, place?.host);
    }
    // Someone else's pending choice is not answered by typing into the topic (issue 13 finding 8).
    if (!mayTypeIntoSelections(this.sessions.openSelectionRequesters(session.id), this.routerBot(), { chatId: decision.anchor.place.chatId }, { userId: msg.senderId }, this.grants())) {
      await this.opts.im.sendText(decision.anchor.place, this.t('security.selectionNotYours'), msg.messageId);
      return;
    }
    // What the CLI gets depends on what it does with text: a shell runs it, so a quote never goes there (typed-prompt.ts).
    // A session on another host keeps its files there (copied over its link), never in a same-named folder here; on a
    // host that is not configured nothing is saved (the turn's card says the host cannot run it).
    const typed = decision.kind === 'prompt' ? await this.typedFor(session, decision.text, msg) : null;
    // Text stays text: control characters become visible symbols, never keys (chat-text.ts).
    const literal = literalChatText(typed?.text ?? decision.text);
    const notices = [typed?.savedAs.length ? this.t('attachments.savedAs', { list: typed.savedAs.join('\n') }) : '', typed?.quoteLeftOut ? this.t('attachments.quoteNotTyped') : '', literal.replaced ? this.t('security.controlChars', { count: literal.replaced }) : ''].filter(Boolean);
    await this.sessions.submit(session, { messageId: msg.messageId, requester: { userId: msg.senderId }, kind: decision.kind, text: literal.text, notices });
  }

  /** The prompt's typed text for this session's CLI; its pictures and files (and a quote's) saved into the session's folder. */
  private async typedFor(session: SessionCore, own: string, msg: InboundMessage): Promise<TypedTurn | null> {
    const host = sessionHost(session);
    const remoteFolder = host === LOCAL_HOST ? undefined : this.opts.remoteUploads?.(host);
    if (host !== LOCAL_HOST && !remoteFolder) return null;
    const turn = { im: this.opts.im, cwd: session.cwd, cli: session.cli, limits: this.bot.attachments, t: this.t, log: this.log.child({ session: session.id.slice(0, 8) }) };
    return typedForTurn({ ...turn, place: msg.place, replyTo: msg.messageId, ...(remoteFolder ? { remoteFolder } : {}) }, own, msg);
  }

  async dispose(): Promise<void> {
    const dropped = this.imageWait.dispose();
    if (dropped > 0) this.log.warn({ pictures: dropped }, 'pictures still waiting for text were not sent (the bot stopped)');
    await this.scheduler.dispose();
    await this.sessions.dispose();
    await this.opts.im.dispose();
    await Promise.all([this.state.dispose(), this.dedupe.dispose()]);
  }
}
