// One session as the daemon runs it: turns in flight, the worker's reports turned into card updates and replies.
import { describeFailure } from '../../shared/failure.js';
import type { SelectionCard } from '../../shared/card-model.js';
import type { Requester, SessionStatus, WorkerToDaemon } from '../../shared/ipc.js';
import type { Translate } from '../../shared/i18n.js';
import type { TurnUsage } from '../../shared/usage.js';
import type { Logger } from '../../platform/log.js';
import { ChangeTracker, type ChangeSet } from '../changes/change-tracker.js';
import type { TreeGit } from '../changes/tree-git.js';
import type { AttentionKeeper } from './attention-keeper.js';
import type { WaitReason } from '../ground/attention.js';
import type { ImAdapter } from '../im/types.js';
import type { SessionCore } from '../ground/session-core.js';
import type { SessionCards } from './session-cards.js';
import { usageFooter } from './usage-recorder.js';
import { busyButtons, hurryNotice, waitsBehindTurn } from './busy-message.js';
import type { CutTurn } from './session-holds.js';
import { messageOfTurn } from '../../shared/usage-hold.js';

/** The reaction put on a user's message once its delivery to the CLI is proven. */
export const DELIVERED_REACTION = 'DONE';

interface Turn {
  turnId: string;
  /** The user's message: it gets the reaction when delivered. */
  messageId: string;
  requester: Requester;
  /** When the turn began (a long turn ends with a mention of its requester). */
  startedAt?: number;
}

type PendingSelection = Omit<SelectionCard, 'kind' | 'sessionId'>;

export interface LiveSessionHooks {
  /** Persists a change to the session record (status, native id, activity); returns the record as stored. */
  update(patch: Partial<SessionCore>): SessionCore | undefined | void;
  /** The text for a worker error that needs the bot's words (locale, configured CLI), e.g. cli_missing; undefined = generic. */
  describeError?(code: string, message: string): string | undefined;
  /** After the final answer is posted (files the answer links are uploaded here). */
  onFinal?(text: string): Promise<void>;
  /** The session's web diff page, for the change card's link (undefined: web terminal off). */
  diffUrl?(): string | undefined;
  /** Mentions, pins and buzzes for the person a wait is for (issue 16); absent = nobody is singled out. */
  attention?: AttentionKeeper;
  /** The worker's usage_limit report, with the turn it cut: the card's notice when the session is now held. */
  usageLimit?(msg: Extract<WorkerToDaemon, { type: 'usage_limit' }>, cut: CutTurn | undefined): Promise<string | undefined>;
  /** The cut turn's prompt was proven to have arrived after its limit was reported (a late delivery proof). */
  cutDelivered?(cut: Omit<CutTurn, 'delivered'>): Promise<void>;
  /** A turn is over (answered, failed, or its CLI gone): a hold releases its next waiting prompt. */
  turnOver?(turnId: string): void;
  /** Each ended turn, for the usage ledger: who asked and when it began (unknown for a turn typed in the pane), what the transcript reported. */
  onTurnEnd?(turn: { userId?: string; startedAt?: number; usage?: TurnUsage }): void;
  /** The git of the session's folder: the host's for a session placed on one; absent: this machine's. */
  git?: TreeGit;
}

export class LiveSession {
  private readonly turns = new Map<string, Turn>();
  /**
   * The turn answered last: Codex ends the turn a usage limit cut (an empty answer) before its limit shows on the
   * screen, so the limit report names a turn already gone; its asker and delivery still count for the hold.
   */
  private lastAnswered: { turnId: string; requester: Turn['requester'] } | undefined;
  /** A turn a limit cut while its delivery proof was still owed: when the proof comes, the hold learns it arrived. */
  private cutAwaitingProof: Omit<CutTurn, 'delivered'> | undefined;
  /**
   * Messages whose delivery is not yet reported, by turn: the reaction is owed even when the final answer came first
   * (a fast turn's answer can overtake the delivery report), so this outlives the turn itself.
   */
  private readonly awaitingDelivery = new Map<string, string>();
  /**
   * Turns still awaiting their delivery report when their worker went: one a host's next worker proves delivered from
   * the transcript (a prompt in flight when the link dropped) still gets its reaction; kept until its turn ends.
   */
  private readonly unconfirmedAtGone = new Map<string, string>();
  private readonly selections = new Map<string, PendingSelection>();
  /** Who may answer each pending selection besides operators: the requester of the turn it appeared in. */
  private readonly selectionRequesters = new Map<string, string | undefined>();
  private lastRequester: string | undefined;
  /** Turns begun while the CLI worked, whose card offers steer / interrupt until the message leaves the queue. */
  private readonly waiting = new Set<string>();
  /** What each turn changed in the working folder's git tree (snapshot at turn start, diff at its end). */
  readonly changes: ChangeTracker;
  /** Set by /close: the CLI's exit that follows is not a crash. */
  private closing = false;

  constructor(
    public core: SessionCore,
    readonly cards: SessionCards,
    private readonly im: ImAdapter,
    private readonly hooks: LiveSessionHooks,
    private readonly log: Logger,
    private readonly t: Translate,
  ) {
    this.changes = new ChangeTracker(() => this.core.cwd, log, hooks.git);
  }

  /** The session's status: its record's (kept once, in the store; `core` follows every change made here). */
  get currentStatus(): SessionStatus {
    return this.core.status;
  }

  /** Persists a patch and keeps `core` the stored record (or the patched copy where the store has no record). */
  private persist(patch: Partial<SessionCore>): void {
    this.core = this.hooks.update(patch) ?? { ...this.core, ...patch };
  }

  /** Posts a change card for a change set with changes; false when there was nothing to show. */
  async showChanges(set: ChangeSet | null): Promise<boolean> {
    if (!set || set.files.length === 0) return false;
    const url = this.hooks.diffUrl?.();
    await this.cards.showChanges({ ...set.summary, ...(url ? { diffUrl: url } : {}) });
    return true;
  }

  /** /diff: a change card for what the current turn has changed so far. */
  async postChanges(): Promise<'posted' | 'none' | 'not_git' | 'no_turn'> {
    if (!(await this.changes.inGit())) return 'not_git';
    const set = await this.changes.current();
    if (!set) return 'no_turn';
    return (await this.showChanges(set)) ? 'posted' : 'none';
  }

  /** Registers a turn before its input goes to the worker, and opens its streaming card. */
  async beginTurn(given: Turn, prompt: string): Promise<void> {
    // A hold's continuation has a turn of its own, but its card and reaction go to the message of the turn it continues.
    const turn = { ...given, messageId: messageOfTurn(given.messageId) };
    this.turns.set(turn.turnId, { startedAt: Date.now(), ...turn });
    this.awaitingDelivery.set(turn.turnId, turn.messageId);
    this.lastRequester = turn.requester.userId;
    // The person wrote again: whatever the session waited on them for (a failure) is over.
    this.hooks.attention?.allEnded('a new message');
    if (!waitsBehindTurn(this.currentStatus)) return this.cards.startTurn(prompt, turn.messageId);
    this.waiting.add(turn.turnId);
    const buttons = busyButtons(this.core.id, turn.turnId, this.core.cli, this.t);
    await this.cards.startTurn(prompt, turn.messageId, { notice: this.t('busy.waiting'), buttons });
  }

  /** Where a waiting message is, as far as the daemon knows (busy-message.ts QueueState). */
  queueStateOf(turnId: string): 'queued' | 'sent' | 'unknown' {
    if (this.awaitingDelivery.has(turnId)) return 'queued';
    return this.turns.has(turnId) || this.waiting.has(turnId) ? 'sent' : 'unknown';
  }

  selection(promptId: string): PendingSelection | undefined {
    return this.selections.get(promptId);
  }

  /** The requester a pending selection is bound to (undefined: operators only). */
  selectionRequester(promptId: string): string | undefined {
    return this.selectionRequesters.get(promptId);
  }

  /**
   * Requesters of the selections the CLI is waiting on now — text typed into the pane would answer them (issue 13
   * finding 8). Empty when the CLI is not waiting (a prompt answered elsewhere must not block the topic forever).
   */
  openSelectionRequesters(): (string | undefined)[] {
    if (this.currentStatus !== 'waiting' && this.currentStatus !== 'starting') return [];
    return [...this.selections.keys()].map((id) => this.selectionRequesters.get(id));
  }

  /** The worker process ended: no delivery report will come for what it was sent. */
  workerGone(): void {
    for (const [turnId, messageId] of this.awaitingDelivery) this.unconfirmedAtGone.set(turnId, messageId);
    this.awaitingDelivery.clear();
    // Its turns will not end by an answer: a hold's next released prompt must not wait for them.
    for (const id of this.turns.keys()) this.hooks.turnOver?.(id);
  }

  async handle(msg: WorkerToDaemon): Promise<void> {
    switch (msg.type) {
      case 'ready':
        // The worker's handle keeps its web port (SessionService.onWorkerMessage): nothing for the cards.
        return;
      case 'status':
        this.hooks.attention?.statusChanged(msg.status);
        this.persist({ status: msg.status, lastActivityAt: Date.now() });
        await this.cards.setStatus(msg.status, msg.screenText);
        return;
      case 'screen':
        this.cards.offerScreen(msg.screen);
        return;
      case 'selection': {
        if (this.selections.has(msg.promptId)) return;
        const attention = this.hooks.attention?.waitStarted(msg.promptId, WAIT_REASON[msg.kind], msg.title, this.lastRequester);
        const sel: PendingSelection = {
          promptId: msg.promptId, title: msg.title, options: msg.options, defaultIndex: msg.defaultIndex,
          ...(msg.textOption !== undefined ? { textOption: msg.textOption } : {}), ...(attention ? { attention } : {}),
        };
        this.selections.set(msg.promptId, sel);
        // Bound to the turn's requester, not to whoever posts in the topic later (that moves session.requesterId).
        // No turn yet (a take-over after a restart, a web visit): operators only.
        this.selectionRequesters.set(msg.promptId, this.lastRequester);
        await this.cards.showSelection(sel);
        return;
      }
      case 'input_delivered': {
        const messageId = this.awaitingDelivery.get(msg.turnId) ?? this.unconfirmedAtGone.get(msg.turnId);
        this.awaitingDelivery.delete(msg.turnId);
        this.unconfirmedAtGone.delete(msg.turnId);
        if (this.cutAwaitingProof?.turnId === msg.turnId) {
          const cut = this.cutAwaitingProof;
          this.cutAwaitingProof = undefined;
          await this.hooks.cutDelivered?.(cut);
        }
        // Waited to the end of the turn (no tap moved it): the card's choices go. A steered one was said already.
        if (this.waiting.delete(msg.turnId)) await this.cards.endWaiting(this.t('busy.done.waited'));
        if (messageId) {
          const res = await this.im.react(messageId, DELIVERED_REACTION);
          if (!res.ok) this.log.warn({ code: res.code }, 'could not react to a delivered message');
        }
        return;
      }
      case 'input_failed': {
        const turn = this.turns.get(msg.turnId);
        this.turns.delete(msg.turnId);
        this.awaitingDelivery.delete(msg.turnId);
        this.unconfirmedAtGone.delete(msg.turnId);
        this.hooks.turnOver?.(msg.turnId);
        // The reason in the bot's language (the worker's English reason stays in the logs).
        const reason = msg.failure ? describeFailure(this.t, msg.failure) : msg.reason;
        // A prompt caught by a dropped link that no transcript can vouch for: said as it is — it may have arrived.
        await this.cards.setNotice(msg.failure?.code === 'may_not_have_arrived' ? reason : this.t('notice.inputFailed', { reason }));
        if (turn) this.log.warn({ turn: msg.turnId, reason: msg.reason }, 'input failed');
        await this.hooks.attention?.problem('input_failed', this.t('attention.inputFailed', { reason }), turn?.requester.userId ?? this.lastRequester);
        return;
      }
      case 'final_output': {
        const turn = msg.turnId ? this.turns.get(msg.turnId) : undefined;
        if (msg.turnId) this.turns.delete(msg.turnId);
        if (msg.turnId && turn) this.lastAnswered = { turnId: msg.turnId, requester: turn.requester };
        if (msg.turnId) this.hooks.turnOver?.(msg.turnId);
        // Steered in and answered within this turn: no answer of their own comes, and the hold counts them as over.
        for (const joined of msg.joined ?? []) {
          this.turns.delete(joined);
          this.hooks.turnOver?.(joined);
        }
        this.hooks.onTurnEnd?.({ ...(turn ? { userId: turn.requester.userId } : {}), ...(turn?.startedAt !== undefined ? { startedAt: turn.startedAt } : {}), ...(msg.usage ? { usage: msg.usage } : {}) });
        if (msg.usage) await this.cards.setFooter(usageFooter(msg.usage, msg.usage.elapsedMs ?? (turn?.startedAt !== undefined ? Date.now() - turn.startedAt : undefined), this.t));
        await this.cards.sendFinal(msg.text);
        if (turn?.startedAt !== undefined) await this.hooks.attention?.turnEnded(Date.now() - turn.startedAt, turn.requester.userId);
        await this.hooks.onFinal?.(msg.text).catch((err: unknown) => this.log.error({ err }, 'answer files failed'));
        await this.changes.finish().then((set) => this.showChanges(set)).catch((err: unknown) => this.log.error({ err }, 'change card failed'));
        return;
      }
      case 'cli_identity':
        this.persist({ nativeSessionId: msg.nativeSessionId, ...(msg.transcriptPath ? { transcriptPath: msg.transcriptPath } : {}) });
        return;
      case 'cli_exit': {
        this.persist({ status: 'exited' });
        await this.cards.setStatus('exited', msg.logTail ? msg.logTail.slice(-2000) : undefined);
        // Gone in the middle of a turn, not by /close: the person who asked waits for an answer that will not come.
        const inFlight = [...this.turns.values()].pop();
        for (const id of this.turns.keys()) this.hooks.turnOver?.(id);
        this.hooks.attention?.allEnded('the CLI exited');
        if (inFlight && !this.closing) await this.hooks.attention?.problem('crash', this.t('attention.crashed'), inFlight.requester.userId);
        return;
      }
      case 'cli_started':
        this.log.info({ how: msg.how, freshReason: msg.freshReason }, 'CLI started');
        if (msg.how === 'resumed') await this.cards.setNotice(this.t('notice.resumed'));
        else if (msg.freshCode === 'cannot_resume') await this.cards.setNotice(this.t('notice.freshCannotResume', { cli: cliLabel(this.core.cli) }));
        else if (msg.freshCode === 'no_native_id') await this.cards.setNotice(this.t('notice.freshNoId'));
        else if (msg.freshReason) await this.cards.setNotice(this.t('notice.startedFresh', { reason: msg.freshReason }));
        return;
      case 'error':
        this.log.warn({ code: msg.code, message: msg.message }, 'worker reported an error');
        if (msg.code === 'cli_missing' || msg.code === 'cwd_missing') {
          // Nothing was launched: a red card with the install command, never a blue "Starting" that waits forever.
          this.persist({ status: 'failed' });
          await this.cards.setNotice(this.hooks.describeError?.(msg.code, msg.message) ?? this.t('notice.problem', { message: msg.message }));
          await this.cards.setStatus('failed');
          return;
        }
        await this.cards.setNotice(this.t('notice.problem', { message: msg.failure ? describeFailure(this.t, msg.failure) : msg.message }));
        return;
      case 'heartbeat':
        return;
      case 'usage_limit': {
        this.log.warn({ state: msg.state, untilMs: msg.untilMs, excerpt: msg.excerpt }, 'the CLI reports a usage limit');
        // The turn it cut: the one named, else the latest in flight. Its prompt arrived when its delivery was reported.
        const turnId = msg.turnId ?? [...this.turns.keys()].pop();
        const turn = turnId === undefined ? undefined : (this.turns.get(turnId) ?? (this.lastAnswered?.turnId === turnId ? this.lastAnswered : undefined));
        const cut = turnId !== undefined && turn ? { turnId, delivered: !this.awaitingDelivery.has(turnId), requester: turn.requester } : undefined;
        this.cutAwaitingProof = cut && !cut.delivered ? { turnId: cut.turnId, requester: cut.requester } : undefined;
        const notice = await this.hooks.usageLimit?.(msg, cut);
        if (notice) await this.cards.setNotice(notice);
        return;
      }
      case 'hurry_done':
        this.log.info({ turn: msg.turnId, how: msg.how, outcome: msg.outcome }, 'waiting message hurried');
        // Declined (`waits`): the message keeps its place and its card its choices; otherwise they go.
        if (msg.outcome === 'waits') await this.cards.setNotice(this.t(hurryNotice(msg.outcome, msg.how)));
        else if (this.waiting.delete(msg.turnId) || msg.outcome !== 'not_queued') await this.cards.endWaiting(this.t(hurryNotice(msg.outcome, msg.how)));
        return;
      default: {
        const never: never = msg;
        return never;
      }
    }
  }

  /** Someone answered a selection card (with a typed `text`, for a typed answer): the card shows who, the prompt is forgotten. */
  async answered(promptId: string, by: string, optionIndex: number, text?: string): Promise<boolean> {
    const sel = this.selections.get(promptId);
    if (!sel) return false;
    this.selections.delete(promptId);
    this.selectionRequesters.delete(promptId);
    this.hooks.attention?.waitEnded(promptId, 'answered on the card');
    await this.cards.answerSelection(sel, by, optionIndex, text);
    return true;
  }

  /** /close is under way: the CLI's exit is expected, not a crash. */
  markClosing(): void {
    this.closing = true;
  }

  dispose(): void {
    this.hooks.attention?.dispose();
    this.cards.dispose();
  }
}

/** Which kind of wait a prompt of the worker's kind is (permission prompts are told apart for the attention plan). */
const WAIT_REASON: Record<'startup' | 'permission' | 'menu', WaitReason> = { startup: 'selection', permission: 'permission', menu: 'selection' };

/** A session's CLI as its config names it (a built-in id, or a custom CLI's command). */
function cliLabel(cli: SessionCore['cli']): string {
  return typeof cli === 'string' ? cli : cli.command;
}
