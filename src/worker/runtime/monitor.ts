// Watches a running CLI: status from screen + silence + transcript, runtime prompts, final output per turn, liveness.
import { stat } from 'node:fs/promises';
import type { Logger } from '../../platform/log.js';
import { IPC_LIMITS, type SessionStatus, type WorkerToDaemon } from '../../shared/ipc.js';
import { LivenessTracker } from '../backend/liveness.js';
import type { Disposable, SessionBackend } from '../backend/types.js';
import type { CliAdapter } from '../cli/types.js';
import { TranscriptFollower } from '../transcript/follower.js';
import { parserSince, type TranscriptEvent } from '../transcript/types.js';
import { decideStatus, STATUS_TIMING } from '../lifecycle/status.js';
import { promptStep, type PromptEffect, type PromptState } from '../lifecycle/selection.js';
import { paneOutputSince, paneShowsTurnEnd, paneTookTurn } from '../lifecycle/pane-output.js';
import { keyWaitLook } from '../lifecycle/key-wait.js';
import type { QueuedMessage } from '../lifecycle/input-machine.js';
import { PANE_DIED } from './gate-runner.js';
import { lookAt, type PaneLook } from './pane.js';
import { PanePidWatch } from './pane-pid-watch.js';
import { runPromptEffects } from './prompt-effects.js';
import { joinAbsorbed, MONITOR_LIMITS, takeEndedTurns, type OpenTurn } from './monitor-turns.js';
import type { StatusReporter } from './status-reporter.js';
import { UsageLimitWatch } from './usage-limit-watch.js';

export interface MonitorDeps {
  backend: SessionBackend;
  adapter: CliAdapter;
  log: Logger;
  send(msg: WorkerToDaemon): void;
  status: StatusReporter;
  /** The status changed busy ⇄ not busy; the input machine queues while busy. */
  onStatus(status: SessionStatus): void;
  onLost(reason: string): void;
  onIdentity(nativeSessionId: string, transcriptPath?: string): void;
  /** Transcript location context. */
  cwd: string; home: string; env: Record<string, string>;
}

export class Monitor {
  status: SessionStatus = 'starting';
  private lastOutputAt = Date.now();
  /** When the screen was last captured: a tick with no output since then need not capture again. */
  private lastLookAt = 0;
  private lastScreen = '';
  private readonly openTurns: OpenTurn[] = [];
  private userTurns = 0;
  /** The transcript closed every turn sent so far (cleared when the next message goes in). */
  private turnEndRecorded = false;
  /** The latest user-turn texts from the transcript (delivery matches its message against them). */
  private readonly userTurnTexts: string[] = [];
  private follower: TranscriptFollower | null = null;
  private prompt: PromptState = {};
  private liveness = new LivenessTracker();
  private timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (Date.now()): an event that needs an earlier look replaces a later timer. */
  private timerDue = 0;
  private ticking = false;
  /** An event asked for a look while a tick was running: look again right after it. */
  private lookAgain = false;
  private running = false;
  /** A turn noted before the watch began (in flight over a dropped link, noteSending): its records from then are read. */
  private replaySinceMs: number | undefined;
  private readonly subs: Disposable[] = [];
  private identitySent: string | null = null;
  /** Probe the pane on the next tick (its pipe closed). Idle ticks always probe. */
  private probeNext = false;
  /** ms (from the last look) until an unrecognised screen with a key hint has been quiet long enough to ask a person. */
  private keyWaitDueMs: number | null = null;
  /** The pane's process gone: probe now (see pane-pid-watch.ts). */
  private readonly pidWatch = new PanePidWatch(() => {
    if (!this.running) return;
    this.probeNext = true;
    this.schedule(0);
  });

  private readonly limits: UsageLimitWatch;

  constructor(private readonly deps: MonitorDeps) {
    this.limits = new UsageLimitWatch(deps);
    this.subs.push(
      deps.backend.onOutput(() => {
        this.lastOutputAt = Date.now();
        this.schedule(STATUS_TIMING.captureEveryMs);
      }),
      // The pane's pipe closing usually means its process ended: probe and look now rather than at the next slow tick.
      deps.backend.onObserverClosed(() => {
        this.probeNext = true;
        this.schedule(0);
      }),
    );
  }

  get userTurnsSeen(): number {
    return this.userTurns;
  }

  /** Texts of the user turns recorded after the count was `from` (only the latest few are kept). */
  userTurnTextsSince(from: number): readonly string[] {
    const kept = this.userTurnTexts.length;
    return this.userTurnTexts.slice(Math.max(0, kept - (this.userTurns - from)));
  }

  get screenText(): string {
    return this.lastScreen;
  }

  /** Starts watching (after the readiness gate). Transcript from its current end: old turns are not replayed. */
  async start(nativeSessionId: string | undefined, launchedAt: number): Promise<void> {
    this.running = true;
    this.liveness = new LivenessTracker();
    this.prompt = {};
    await this.startTranscript(nativeSessionId, launchedAt);
    this.setStatus('idle', this.lastScreen);
    this.schedule(0);
    this.pidWatch.start();
  }

  /** Stops watching (process lost, close); keeps the listeners for a restart. */
  pause(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pidWatch.stop();
    this.follower?.dispose();
    this.follower = null;
  }

  dispose(): void {
    this.pause();
    for (const s of this.subs) s.dispose();
  }

  async pollTranscript(): Promise<void> {
    await this.follower?.poll();
  }

  async noteSending(msg: QueuedMessage, replaySinceMs?: number): Promise<void> {
    if (msg.raw) return;
    if (replaySinceMs !== undefined && !this.running) this.replaySinceMs = Math.min(replaySinceMs, this.replaySinceMs ?? replaySinceMs);
    const turn: OpenTurn = { turnId: msg.turnId, text: msg.text, confirmed: false };
    this.turnEndRecorded = false;
    if (!this.deps.adapter.transcript) {
      const cap = await this.captureHistory();
      if (cap.ok) turn.before = cap.value;
    }
    this.openTurns.push(turn);
    this.limits.noteTurn(msg.turnId);
    this.follower?.setPace('active');
    this.pidWatch.setPace('active');
  }

  noteResult(turnId: string, delivered: boolean): void {
    const i = this.openTurns.findIndex((t) => t.turnId === turnId);
    if (i < 0) return;
    if (!delivered) this.openTurns.splice(i, 1);
    else {
      this.openTurns[i]!.confirmed = true;
      this.openTurns[i]!.confirmedAt = Date.now();
      this.lastOutputAt = Date.now();
      this.setStatus('working', this.lastScreen);
      this.schedule(STATUS_TIMING.captureEveryMs);
    }
  }

  choose(promptId: string, optionIndex: number, text?: string): boolean {
    const step = promptStep(this.prompt, { type: 'choice', at: Date.now(), promptId, optionIndex, ...(text !== undefined ? { text } : {}) }, this.deps.adapter.choiceKeys);
    this.prompt = step.state;
    void this.runPromptEffects(step.effects);
    return !step.effects.some((e) => e.type === 'ignored_choice');
  }

  private async startTranscript(nativeSessionId: string | undefined, launchedAt: number): Promise<void> {
    const t = this.deps.adapter.transcript;
    this.follower?.dispose();
    this.follower = null;
    if (!t) return;
    const ctx = { cwd: this.deps.cwd, home: this.deps.home, env: this.deps.env, nativeSessionId, startedAfterMs: launchedAt - 2_000 };
    const existing = await t.locate(ctx).catch(() => null);
    const replay = this.replaySinceMs;
    this.replaySinceMs = undefined;
    const offset = existing && replay === undefined ? await stat(existing).then((s) => s.size, () => 0) : 0;
    // Read from its end, the file's identity record is behind us: report what we know (Gemini writes it at start-up).
    if (existing && nativeSessionId) this.reportIdentity(nativeSessionId, existing);
    // Found later by time, not by id (an adopted CLI): read from its start, but only what was written since.
    const parser = replay !== undefined ? parserSince(t.parser(), replay) : !existing && !nativeSessionId ? parserSince(t.parser(), ctx.startedAfterMs) : t.parser();
    this.follower = new TranscriptFollower({
      path: existing ?? (() => t.locate(ctx).catch(() => null)),
      offset,
      parser,
      onEvent: (ev) => this.onTranscript(ev),
      onBadLine: (line) => this.deps.log.debug({ line: line.slice(0, 80) }, 'transcript: a line that is not JSON'),
    });
    this.follower.start();
  }

  private reportIdentity(id: string, path: string | undefined): void {
    if (this.identitySent === id) return;
    this.identitySent = id;
    this.deps.onIdentity(id, path);
  }

  private onTranscript(ev: TranscriptEvent): void {
    switch (ev.kind) {
      case 'identity':
        this.reportIdentity(ev.nativeSessionId, this.follower?.path ?? undefined);
        return;
      case 'absorbed_prompt':
      case 'user_turn':
        // Either proves delivery; an absorbed prompt ends with the turn it was taken into.
        if (ev.kind === 'absorbed_prompt') joinAbsorbed(this.openTurns, ev.text);
        this.userTurns += 1;
        this.userTurnTexts.push(ev.text);
        if (this.userTurnTexts.length > MONITOR_LIMITS.userTurnTextsKept) this.userTurnTexts.shift();
        return;
      case 'turn_end': {
        const { turn, joined } = takeEndedTurns(this.openTurns);
        this.turnEndRecorded = this.openTurns.length === 0;
        this.deps.send({
          type: 'final_output',
          ...(turn ? { turnId: turn.turnId } : {}),
          ...(joined.length > 0 ? { joined } : {}),
          text: ev.finalText.slice(0, IPC_LIMITS.text),
          ...(ev.usage ? { usage: ev.usage } : {}),
        });
        this.limits.turnEnded(turn?.turnId, ev.finalText);
        this.schedule(0);
        return;
      }
    }
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    const due = Date.now() + ms;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    if (this.ticking) this.lookAgain = true;
    if (!this.running || this.ticking) return;
    this.lookAgain = false;
    this.ticking = true;
    try {
      await this.tickOnce();
    } catch (err) {
      // A bug in one look must not stop the watching: log it and look again on the next tick.
      this.deps.log.error({ err }, 'monitor tick failed');
    } finally {
      this.ticking = false;
    }
    if (!this.running) return;
    // Quiet: nothing changes without an event — idle with no turn open, or a screen that waits for a person (a
    // selection, a usage limit) and changes only when output arrives. A missing session is called gone only after
    // repeated misses: those come quickly, not a minute apart.
    // An answer to a prompt in flight is not quiet: a CLI that dropped the keys leaves the screen as it was, and only
    // another look lets the selection machine send them once more (or report the prompt stuck).
    const waitsForEvent = this.prompt.answer === undefined && ((this.status === 'idle' && this.openTurns.length === 0) || this.status === 'waiting' || this.status === 'limited');
    const quiet = waitsForEvent && this.liveness.current !== 'suspect';
    this.follower?.setPace(quiet ? 'idle' : 'active');
    this.pidWatch.setPace(quiet ? 'idle' : 'active');
    const next = this.lookAgain ? 0 : quiet ? STATUS_TIMING.idleSafetyProbeMs : STATUS_TIMING.captureEveryMs;
    this.schedule(Math.min(next, this.keyWaitDueMs ?? next));
  }

  private async tickOnce(): Promise<void> {
    // tmux marks a pane dead before it draws its "Pane is dead" banner (if ever): the probe is the authority.
    // A settled status (idle, a waiting or limited screen) with nothing printed since the last look: the screen and
    // so the status cannot have changed, so a safety tick only probes. (A working status still looks: it turns idle
    // by silence alone.)
    const settled = this.status === 'idle' || this.status === 'waiting' || this.status === 'limited';
    const screenUnchanged = settled && this.lastLookAt > this.lastOutputAt && this.openTurns.length === 0 && this.prompt.answer === undefined && this.keyWaitDueMs === null;
    if (this.probeNext || this.status === 'idle' || screenUnchanged) {
      this.probeNext = false;
      const probe = await this.deps.backend.probe();
      if (probe.state === 'exists') this.pidWatch.set(probe.paneDead ? null : probe.panePid);
      if (probe.state === 'exists' && probe.paneDead) {
        this.lost(`the CLI exited (status ${probe.exitStatus ?? '?'})`, probe.exitStatus);
        return;
      }
      if (probe.state === 'missing' && this.liveness.record('missing') === 'gone') {
        this.lost('the tmux session is gone', null);
        return;
      }
      if (probe.state === 'exists' && screenUnchanged) {
        this.liveness.record(probe);
        return;
      }
    }
    this.lastLookAt = Date.now();
    const look = await lookAt(this.deps.backend, this.deps.adapter);
    if (!look.ok) {
      const verdict = look.code === 'missing' ? this.liveness.record('missing') : this.liveness.current;
      if (verdict === 'gone') this.lost('the tmux session is gone', null);
      return;
    }
    this.liveness.record('exists');
    this.lastScreen = look.look.text;
    this.limits.screen(look.look.text);
    if (look.look.screen.kind === 'exited' || PANE_DIED.test(look.look.text)) {
      const probe = await this.deps.backend.probe();
      this.lost('the CLI exited', probe.state === 'exists' ? probe.exitStatus : null);
      return;
    }
    // A screen no adapter knows that shows a key hint becomes a question once quiet (key-wait.ts).
    const { screen, dueInMs } = keyWaitLook(look.look.screen, look.look.text, Date.now() - this.lastOutputAt, this.prompt.current?.id);
    this.keyWaitDueMs = dueInMs;
    const step = promptStep(this.prompt, { type: 'screen', at: Date.now(), screen }, this.deps.adapter.choiceKeys);
    this.prompt = step.state;
    await this.runPromptEffects(step.effects);
    // Gemini writes no end-of-turn record: a ready screen lets its parser close the turn once the file is quiet.
    if (screen.kind === 'ready' && this.openTurns.length > 0 && this.deps.adapter.transcript?.turnEnd === 'screen-ready') {
      await this.follower?.poll();
      await this.follower?.settle();
    }
    const lastTurn = this.openTurns[this.openTurns.length - 1];
    const next = decideStatus({
      screen,
      msSinceOutput: Date.now() - this.lastOutputAt,
      turnOpen: this.openTurns.length > 0,
      hasTranscript: this.deps.adapter.transcript !== null,
      previous: this.status,
      processGone: false,
      turnEndRecorded: this.turnEndRecorded,
      screenShowsTurnEnd: lastTurn?.confirmed === true && paneShowsTurnEnd(this.deps.adapter.id, look.look.text, lastTurn.text),
    });
    // A quiet ready screen ends a turn only once the pane shows the CLI took its text (closeTurnsFromScreen).
    const closed = next === 'idle' && this.openTurns[0]?.confirmed ? await this.closeTurnsFromScreen(look.look) : true;
    this.setStatus(closed ? next : 'working', look.look.text);
  }

  /** The pane with history, wrapped rows joined (a long command's echo is one line to find). */
  private captureHistory() {
    return this.deps.backend.capture({ historyLines: MONITOR_LIMITS.outputHistoryLines, join: true });
  }

  /**
   * Transcript-less CLIs (shell, custom): the turn ended when the screen went idle; its output is the new pane lines.
   * false: the pane does not show the text taken yet (a slow paste), so the idle screen is the one before it.
   */
  private async closeTurnsFromScreen(look: PaneLook): Promise<boolean> {
    if (this.deps.adapter.transcript) {
      // The transcript never closed the turn within the grace period: report what the screen shows.
      const turn = this.openTurns.shift()!;
      this.deps.log.warn({ turnId: turn.turnId }, 'turn closed by a silent idle screen (no transcript turn-end record)');
      return true;
    }
    const cap = await this.captureHistory();
    const after = cap.ok ? cap.value : look.text;
    while (this.openTurns[0]?.confirmed) {
      const turn = this.openTurns[0];
      const waited = Date.now() - (turn.confirmedAt ?? 0);
      if (!paneTookTurn(this.deps.adapter.id, turn.before ?? '', after, turn.text)) {
        if (waited < MONITOR_LIMITS.unprovenTurnMs) return false;
        this.deps.log.warn({ turnId: turn.turnId, waitedMs: waited }, 'turn closed although the pane never showed its command taken');
      }
      this.openTurns.shift();
      const text = paneOutputSince(this.deps.adapter.id, turn.before ?? '', after, turn.text);
      this.deps.send({ type: 'final_output', turnId: turn.turnId, text: text.slice(0, IPC_LIMITS.text) });
    }
    return true;
  }

  private setStatus(next: SessionStatus, screenText: string): void {
    if (next === this.status) {
      this.deps.onStatus(next);
      return;
    }
    this.status = next;
    this.deps.status.report(next, { screenText });
    this.deps.onStatus(next);
  }

  /** The delivery's probe found the CLI gone: report it like a loss noticed by the monitor. */
  async reportLost(reason: string): Promise<void> {
    if (this.status === 'exited') return;
    const probe = await this.deps.backend.probe();
    this.running = true;
    this.lost(reason, probe.state === 'exists' ? probe.exitStatus : null);
  }

  private lost(reason: string, code: number | null): void {
    if (!this.running) return;
    this.deps.log.warn({ reason, code }, 'the CLI process was lost');
    this.pause();
    this.status = 'exited';
    const tail = this.lastScreen.split('\n').slice(-MONITOR_LIMITS.exitTailLines).join('\n');
    this.deps.status.report('exited', { screenText: this.lastScreen, detail: reason });
    this.deps.send({ type: 'cli_exit', code, logTail: tail.slice(-IPC_LIMITS.logTail) });
    this.openTurns.length = 0;
    this.deps.onLost(reason);
  }

  private runPromptEffects(effects: PromptEffect[]): Promise<void> {
    return runPromptEffects(effects, { backend: this.deps.backend, log: this.deps.log, send: this.deps.send, lookNow: () => this.schedule(0) });
  }
}
