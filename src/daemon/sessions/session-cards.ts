// The cards of one session: one streaming card per turn (earlier ones frozen), selection cards, screenshots paced per card.
import type { CardButton, CardModel, ChangesCard, SelectionCard, StreamingCard } from '../../shared/card-model.js';
import type { DisplayMode, SessionStatus } from '../../shared/ipc.js';
import type { Translate } from '../../shared/i18n.js';
import { cardControls } from './card-controls.js';
import type { Logger } from '../../platform/log.js';
import type { FrameRenderer } from '../../platform/render-process.js';
import type { CapturedScreen } from '../../shared/render-protocol.js';
import type { CardRef, ImAdapter } from '../im/types.js';
import type { ChatPlace } from '../ground/anchor.js';
import { tailWhole } from '../../shared/utf8-parts.js';
import { deliverAnswer } from '../outbound/answer-stream.js';
import { emptyRenderState, withFrozenCard, type RenderState } from '../ground/render-state.js';

export const CARD_PACING = {
  /** A card gets a new screenshot at most this often while the screen changes (issue 6; Feishu allows 5 patches/s). */
  screenshotIntervalMs: 2000,
  /** Screen text on a card is cut to its last lines: cards are capped at 30 KB. */
  screenTextMaxChars: 6000,
} as const;

export interface SessionCardsOptions {
  sessionId: string;
  im: ImAdapter;
  place: ChatPlace;
  /** The message a reply goes under (the topic root), if any. */
  replyTo?: string;
  title: string;
  log: Logger;
  /** The bot's locale: button labels and notices are made in it. */
  t: Translate;
  /** Draws a screen the worker sent into the card's picture (the daemon's one render process for all sessions). */
  frames: FrameRenderer;
  /** Read-only web terminal link, when the web server is configured. */
  viewUrl?: () => string | undefined;
  state?: RenderState;
  onStateChange?: (state: RenderState) => void;
  now?: () => number;
}

export class SessionCards {
  private state: RenderState;
  private status: SessionStatus = 'starting';
  private screenText = '';
  private notice: string | undefined;
  /** Turn cards asked for and not out yet (their freeze of the card before may wait on Feishu). */
  private turnsStarting = 0;
  /**
   * A notice set while a turn's card was being started belongs to that turn (its host is unreachable, it waits for a
   * slot): kept here so the start does not wipe it when it finally runs. `null`: none was set.
   */
  private noticeForNextTurn: string | undefined | null = null;
  private subtitle: string | undefined;
  private footer: string | undefined;
  /** A turn whose message waits behind a working CLI: its card offers to steer or interrupt (busy-message.ts). */
  private waitingButtons: CardButton[] = [];
  private pendingScreen: CapturedScreen | null = null;
  private lastShotAt = 0;
  private shotTimer: NodeJS.Timeout | null = null;
  /** A screen is being drawn for the card now. */
  private drawing = false;
  private imageFailed = false;
  private chain: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly opts: SessionCardsOptions) {
    this.now = opts.now ?? Date.now;
    this.state = opts.state ?? emptyRenderState(opts.sessionId, this.now());
  }

  get display(): DisplayMode {
    return this.state.display;
  }

  get currentCard(): CardRef | undefined {
    return this.state.currentCardMessageId ? { messageId: this.state.currentCardMessageId } : undefined;
  }

  /** Runs card operations one after another so a freeze never overtakes the send of the card it freezes. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(op).catch((err) => this.opts.log.error({ err }, 'card operation failed'));
    return this.chain;
  }

  private setState(next: RenderState): void {
    this.state = { ...next, updatedAt: this.now() };
    this.opts.onStateChange?.(this.state);
  }

  private model(frozen: boolean): StreamingCard {
    const sid = this.opts.sessionId;
    const { keys, buttons } = cardControls({ sessionId: sid, status: this.status, display: this.state.display, frozen, viewUrl: () => this.opts.viewUrl?.(), t: this.opts.t });
    const showImage = this.state.display === 'screenshot' && this.state.currentImageKey && !this.imageFailed;
    const showText = this.state.display === 'text' || (this.state.display === 'screenshot' && !showImage && this.screenText);
    return {
      kind: 'stream',
      sessionId: sid,
      title: this.opts.title,
      subtitle: this.subtitle,
      status: this.status,
      display: this.state.display,
      image: showImage ? { ref: this.state.currentImageKey as string } : undefined,
      screenText: showText ? tailChars(this.screenText, CARD_PACING.screenTextMaxChars) : undefined,
      notice: this.notice,
      ...(this.footer ? { footer: this.footer } : {}),
      keys,
      buttons: frozen ? buttons : [...this.waitingButtons, ...buttons],
      frozen,
    };
  }

  /** A new turn: freezes the previous card and replies with a fresh streaming card (with a waiting message's choices). */
  startTurn(prompt: string, replyTo?: string, waiting?: { notice: string; buttons: CardButton[] }): Promise<void> {
    this.turnsStarting += 1;
    return this.enqueue(async () => {
      try {
        await this.freezeCurrent();
      } finally {
        this.turnsStarting -= 1;
      }
      this.subtitle = oneLine(prompt, 80);
      this.notice = this.noticeForNextTurn ?? waiting?.notice;
      this.noticeForNextTurn = null;
      this.waitingButtons = waiting?.buttons ?? [];
      this.footer = undefined;
      this.imageFailed = false;
      this.lastShotAt = 0;
      const res = await this.opts.im.sendCard(this.opts.place, this.model(false), replyTo ?? this.opts.replyTo);
      if (!res.ok) {
        this.opts.log.warn({ code: res.code }, 'could not send the turn card');
        return;
      }
      this.setState({ ...this.state, currentCardMessageId: res.value.messageId, currentImageKey: undefined });
    });
  }

  private async freezeCurrent(): Promise<void> {
    const cur = this.currentCard;
    if (!cur) return;
    await this.opts.im.updateCard(cur, this.model(true));
    this.setState({ ...withFrozenCard(this.state, cur.messageId, this.now()), currentCardMessageId: undefined });
  }

  /** The turn's figures at the foot of the current card, until the next turn's card. */
  setFooter(footer: string): Promise<void> {
    this.footer = footer;
    return this.refresh();
  }

  /** The waiting message left the queue: its choices go, the notice says what happened. */
  endWaiting(notice: string): Promise<void> {
    this.waitingButtons = [];
    return this.setNotice(notice);
  }

  /** Shows a notice line on the current card (e.g. "resumed your earlier conversation"). */
  setNotice(notice: string | undefined): Promise<void> {
    // While a turn's card is being started the notice is the new turn's: the card before is frozen without it.
    if (this.turnsStarting > 0) this.noticeForNextTurn = notice;
    else this.notice = notice;
    return this.refresh();
  }

  setStatus(status: SessionStatus, screenText?: string): Promise<void> {
    const changed = status !== this.status || (screenText !== undefined && screenText !== this.screenText);
    this.status = status;
    if (screenText !== undefined) this.screenText = screenText;
    // The final frame of a turn is always shown: flush a waiting screenshot when the CLI settles.
    if ((status === 'idle' || status === 'exited' || status === 'waiting') && this.pendingScreen) this.flushScreenshotSoon(0);
    return changed ? this.refresh() : Promise.resolve();
  }

  setDisplay(mode: DisplayMode): Promise<void> {
    this.setState({ ...this.state, display: mode });
    return this.refresh();
  }

  /**
   * Takes a new screen; it is drawn and reaches the card at most every CARD_PACING.screenshotIntervalMs, the last one
   * always. Only the screen that goes on the card is drawn: one that a newer screen replaces before its turn costs nothing.
   */
  offerScreen(screen: CapturedScreen): void {
    if (this.state.display !== 'screenshot' || !this.currentCard) return;
    this.pendingScreen = screen;
    const wait = Math.max(0, this.lastShotAt + CARD_PACING.screenshotIntervalMs - this.now());
    this.flushScreenshotSoon(wait);
  }

  private flushScreenshotSoon(waitMs: number): void {
    // One drawing at a time: the end of the one in flight schedules the next.
    if (this.shotTimer || this.drawing || this.disposed) return;
    this.shotTimer = setTimeout(() => {
      this.shotTimer = null;
      void this.drawPending();
    }, waitMs);
  }

  /**
   * Draws the newest screen, then uploads it in the card's order. The drawing stays outside the card operations, so a
   * status change is never held behind a picture being painted (the card would skip straight from blue to green).
   */
  private async drawPending(): Promise<void> {
    const screen = this.pendingScreen;
    if (!screen || !this.currentCard) return;
    this.pendingScreen = null;
    this.lastShotAt = this.now();
    this.drawing = true;
    const drawn = await this.opts.frames.render(screen, 'card', this.opts.sessionId).finally(() => (this.drawing = false));
    if (drawn.ok) await this.enqueue(() => this.upload(drawn.png));
    // The card keeps its last picture when a drawing fails; the next screen is drawn afresh.
    else this.opts.log.warn({ code: drawn.code, err: drawn.message }, 'screenshot could not be drawn');
    // Screens that arrived while drawing or uploading wait their turn.
    if (this.pendingScreen) this.flushScreenshotSoon(Math.max(0, this.lastShotAt + CARD_PACING.screenshotIntervalMs - this.now()));
  }

  private async upload(png: Uint8Array): Promise<void> {
    if (!this.currentCard) return;
    const up = await this.opts.im.uploadImage(png);
    if (!up.ok) {
      // The card falls back to the screen as text rather than showing nothing.
      this.imageFailed = true;
      this.notice = this.opts.t('notice.uploadFailed');
      this.opts.log.warn({ code: up.code }, 'screenshot upload failed; card falls back to text');
    } else {
      this.imageFailed = false;
      if (this.notice === this.opts.t('notice.uploadFailed')) this.notice = undefined;
      this.setState({ ...this.state, currentImageKey: up.value.imageRef });
    }
    await this.patchCurrent();
  }

  private async patchCurrent(): Promise<void> {
    const card = this.currentCard;
    if (!card) return;
    const res = await this.opts.im.updateCard(card, this.model(false));
    if (!res.ok) this.opts.log.warn({ code: res.code }, 'card update failed');
  }

  refresh(): Promise<void> {
    return this.enqueue(() => this.patchCurrent());
  }

  /** A TUI menu or permission prompt as its own card; returns when it is sent. */
  showSelection(sel: Omit<SelectionCard, 'kind' | 'sessionId'>): Promise<void> {
    return this.enqueue(async () => {
      const model: CardModel = { kind: 'selection', sessionId: this.opts.sessionId, ...sel };
      const res = await this.opts.im.sendCard(this.opts.place, model, this.opts.replyTo);
      if (!res.ok) return;
      this.setState({ ...this.state, pendingSelectionCards: { ...this.state.pendingSelectionCards, [sel.promptId]: res.value.messageId } });
    });
  }

  /** Marks a selection card answered (who chose what) and removes its buttons. */
  answerSelection(sel: Omit<SelectionCard, 'kind' | 'sessionId'>, by: string, optionIndex: number, text?: string): Promise<void> {
    return this.enqueue(async () => {
      const messageId = this.state.pendingSelectionCards[sel.promptId];
      if (!messageId) return;
      const model: CardModel = { kind: 'selection', sessionId: this.opts.sessionId, ...sel, answered: { by, optionIndex, ...(text !== undefined ? { text } : {}) } };
      await this.opts.im.updateCard({ messageId }, model);
      const { [sel.promptId]: _done, ...rest } = this.state.pendingSelectionCards;
      this.setState({ ...this.state, pendingSelectionCards: rest });
    });
  }

  /** The turn's final answer in the topic: streamed into answer cards (or text messages), whole, in order. */
  sendFinal(text: string): Promise<void> {
    return this.enqueue(() => deliverAnswer(text.trim() ? text : this.opts.t('final.empty'), {
      im: this.opts.im, place: this.opts.place, replyTo: this.opts.replyTo, t: this.opts.t, log: this.opts.log,
    }));
  }

  /** What a turn changed, as its own card after the answer. */
  showChanges(card: Omit<ChangesCard, 'kind' | 'sessionId'>): Promise<void> {
    return this.enqueue(async () => {
      const res = await this.opts.im.sendCard(this.opts.place, { kind: 'changes', sessionId: this.opts.sessionId, ...card }, this.opts.replyTo);
      if (!res.ok) this.opts.log.warn({ code: res.code }, 'could not send the change card');
    });
  }

  /** Waits for every queued card operation (tests and shutdown). */
  async settle(): Promise<void> {
    while (this.shotTimer || this.drawing) await new Promise((r) => setTimeout(r, 20));
    await this.chain;
  }

  dispose(): void {
    this.disposed = true;
    if (this.shotTimer) clearTimeout(this.shotTimer);
    this.shotTimer = null;
    // The render process keeps this session's compressed bands until told (or until other sessions push them out).
    this.opts.frames.forget(this.opts.sessionId);
  }
}

function tailChars(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = tailWhole(s, max);
  const nl = cut.indexOf('\n');
  return nl >= 0 ? cut.slice(nl + 1) : cut;
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
