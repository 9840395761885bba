// Carries out the attention plan of one session (issue 16): pins the chat while it waits, buzzes late, unpins after.
import type { CardAttention } from '../../shared/card-model.js';
import { BotConfigSchema } from '../../shared/config.js';
import type { SessionStatus } from '../../shared/ipc.js';
import type { Translate } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import { MENTIONABLE_ID, attentionPlan, type AttentionConfig, type WaitReason } from '../ground/attention.js';
import type { ImAdapter } from '../im/types.js';
import type { ChatPlace } from '../ground/anchor.js';

export interface AttentionKeeperOptions {
  im: ImAdapter;
  place: ChatPlace;
  /** The topic root replies go under, if any. */
  replyTo?: string;
  /** The bot's `attention` settings; absent (a hand-built config) = the documented defaults. */
  config?: AttentionConfig;
  log: Logger;
  t: Translate;
}

interface Wait {
  requester: string;
  question: string;
  pinned: boolean;
  buzzTimer: NodeJS.Timeout | null;
}

/** Key of the wait a failure opens (a failed delivery, a crash): it lasts until the person's next message. */
const PROBLEM_WAIT = 'problem';

export const ATTENTION_TIMING = {
  /**
   * A prompt counts as answered in the terminal once the session has worked this long without waiting again. The
   * status flaps while Claude draws its permission dialog (waiting → working → waiting within 0.2 s, measured in
   * test/e2e/daemon-claude-attention.test.ts): unpinning on the first "working" unpinned a prompt still on screen.
   */
  promptGoneMs: 5_000,
} as const;

export class AttentionKeeper {
  private readonly waits = new Map<string, Wait>();
  /** Pin and unpin calls go out in order, so an unpin never overtakes the pin it undoes. */
  private chain: Promise<void> = Promise.resolve();
  private goneTimer: NodeJS.Timeout | null = null;
  private disposed = false;

  private readonly config: AttentionConfig;

  constructor(private readonly opts: AttentionKeeperOptions) {
    this.config = opts.config ?? BotConfigSchema.shape.attention.parse(undefined);
  }

  /**
   * The session now waits on `key` (a prompt id) for `requester`. Returns what its card shows: the mention and the
   * question as summary (the summary also without a requester: the chat list says what is asked either way).
   */
  waitStarted(key: string, reason: WaitReason, question: string, requester: string | undefined): CardAttention {
    const who = requester && MENTIONABLE_ID.test(requester) ? requester : undefined;
    const plan = attentionPlan({ kind: 'waiting', reason }, this.config, !!who);
    if (!who || this.waits.has(key) || this.disposed) return { summary: question };
    const wait: Wait = { requester: who, question, pinned: plan.pin, buzzTimer: null };
    this.waits.set(key, wait);
    this.opts.log.info({ key, reason, pin: plan.pin, mention: plan.mention, buzzAfterMs: plan.buzzAfterMs }, 'attention: waiting for a person');
    if (plan.pin) this.pin(who, true);
    if (plan.buzzAfterMs !== null) wait.buzzTimer = setTimeout(() => void this.buzz(key), plan.buzzAfterMs);
    return { summary: question, ...(plan.mention ? { mention: who } : {}) };
  }

  /** A failure leaves the person waiting for an answer that will not come: mention them with the reason. */
  async problem(reason: 'input_failed' | 'crash', text: string, requester: string | undefined): Promise<void> {
    this.waitStarted(PROBLEM_WAIT, reason, text, requester);
    const wait = this.waits.get(PROBLEM_WAIT);
    if (!wait || !attentionPlan({ kind: 'waiting', reason }, this.config, true).mention) return;
    await this.mention(wait.requester, text);
  }

  /** A turn ended: its requester is mentioned only when it took longer than notifyAfterSeconds. */
  async turnEnded(turnMs: number, requester: string | undefined): Promise<void> {
    const who = requester && MENTIONABLE_ID.test(requester) ? requester : undefined;
    if (!who || !attentionPlan({ kind: 'turn_end', turnMs }, this.config, true).mention) return;
    await this.mention(who, this.opts.t('attention.turnDone', { minutes: Math.max(1, Math.round(turnMs / 60_000)) }));
  }

  /** The wait on `key` is over (answered on the card or in the terminal): no buzz, and unpin when nothing else waits. */
  waitEnded(key: string, why: string): void {
    const wait = this.waits.get(key);
    if (!wait) return;
    this.waits.delete(key);
    this.opts.log.info({ key, why }, 'attention: the wait is over');
    if (wait.buzzTimer) clearTimeout(wait.buzzTimer);
    const stillPinned = [...this.waits.values()].some((w) => w.pinned && w.requester === wait.requester);
    if (wait.pinned && !stillPinned) this.pin(wait.requester, false);
  }

  /**
   * The session's status changed: back to waiting keeps the prompts' waits; working for promptGoneMs ends them (the
   * prompt was answered in the terminal); idle, exited or failed ends them at once. A failure's wait is not a prompt.
   */
  statusChanged(status: SessionStatus): void {
    if (this.goneTimer) clearTimeout(this.goneTimer);
    this.goneTimer = null;
    const endPrompts = (why: string) => {
      for (const key of [...this.waits.keys()]) if (key !== PROBLEM_WAIT) this.waitEnded(key, why);
    };
    if (status === 'idle' || status === 'exited' || status === 'failed') endPrompts(`status ${status}`);
    else if (status === 'working' && [...this.waits.keys()].some((k) => k !== PROBLEM_WAIT)) {
      this.goneTimer = setTimeout(() => {
        this.goneTimer = null;
        endPrompts('the CLI worked on without the prompt');
      }, ATTENTION_TIMING.promptGoneMs);
    }
  }

  /** Every wait is over (the person wrote again, the session was closed). */
  allEnded(why: string): void {
    for (const key of [...this.waits.keys()]) this.waitEnded(key, why);
  }

  /** Waits for the pin/unpin calls already decided (tests, shutdown). */
  settle(): Promise<void> {
    return this.chain;
  }

  dispose(): void {
    if (this.goneTimer) clearTimeout(this.goneTimer);
    this.goneTimer = null;
    this.allEnded('session closed');
    this.disposed = true;
  }

  private pin(userId: string, on: boolean): void {
    const pinChat = this.opts.im.pinChat?.bind(this.opts.im);
    if (!pinChat) return;
    this.chain = this.chain.then(async () => {
      const r = await pinChat(this.opts.place, userId, on);
      if (!r.ok && r.code !== 'disabled') this.opts.log.warn({ code: r.code, on }, 'could not pin or unpin the chat');
    });
  }

  private async buzz(key: string): Promise<void> {
    const wait = this.waits.get(key);
    if (!wait || this.disposed) return;
    wait.buzzTimer = null;
    // Urgent on a JSON 2.0 card shows an "upgrade your client" notice on lock screens: buzz a short text instead.
    const sent = await this.mention(wait.requester, this.opts.t('attention.buzz', { question: wait.question }));
    if (!sent || !this.opts.im.buzz || !this.waits.has(key)) return;
    const r = await this.opts.im.buzz(sent, wait.requester);
    if (!r.ok && r.code !== 'disabled') this.opts.log.warn({ code: r.code }, 'could not buzz');
  }

  private async mention(userId: string, text: string): Promise<string | undefined> {
    if (!this.opts.im.sendMention) return undefined;
    const r = await this.opts.im.sendMention(this.opts.place, userId, text, this.opts.replyTo);
    if (!r.ok) {
      this.opts.log.warn({ code: r.code }, 'could not send a mention');
      return undefined;
    }
    return r.value.messageId;
  }
}
