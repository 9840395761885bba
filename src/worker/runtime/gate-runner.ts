// Runs the readiness gate against a live pane: polls screens, answers or surfaces dialogs, returns the outcome.
import type { Logger } from '../../platform/log.js';
import type { WorkerToDaemon } from '../../shared/ipc.js';
import type { SessionBackend } from '../backend/types.js';
import type { CliAdapter } from '../cli/types.js';
import { gateStep, initialGate, isGateDone, READINESS_TIMING, type ReadinessTiming, type GateEffect, type GateEvent, type GateState } from '../lifecycle/readiness.js';
import { lookAt, sendSteps, sleep, sleepUntil } from './pane.js';
import { selectionMessage } from './selection-message.js';
import type { StatusReporter } from './status-reporter.js';

/** tmux's remain-on-exit banner (exit status or signal). */
export const PANE_DIED = /^Pane is dead \((?:status|signal) /m;

export const GATE_RUNNER_LIMITS = {
  /** Up to 2 s (20 × 100 ms) for tmux to mark a pane dead after its banner appeared; it is normally immediate. */
  deathChecks: 20,
  deathCheckMs: 100,
} as const;

export interface GateOutcome {
  outcome: 'ready' | 'missing' | 'timeout';
  reason: string;
}

export interface GateRunnerDeps {
  backend: SessionBackend;
  adapter: CliAdapter;
  log: Logger;
  send(msg: WorkerToDaemon): void;
  status: StatusReporter;
  /** Latest screen text for `status` messages while a dialog waits. */
  onScreen?(text: string): void;
  timing?: Partial<ReadinessTiming>;
  /** `ask`: no startup dialog is answered by the adapter's defaults; each one reaches a person. */
  startupDialogs?: 'auto' | 'ask';
}

/** One gate run. `choose()` feeds a person's `selection_choice`; `dispose()` abandons the run. */
export class GateRunner {
  private state: GateState;
  private pendingChoices: GateEvent[] = [];
  private disposed = false;
  /** Screens captured while the gate is open: logged when it closes. */
  private polls = 0;
  private surfacedId: string | null = null;

  constructor(private readonly deps: GateRunnerDeps) {
    this.state = initialGate(Date.now());
  }

  get phase(): GateState['phase'] {
    return this.state.phase;
  }

  /** The dialog shown to a person right now (its prompt id), if any. */
  get waitingPromptId(): string | null {
    return this.state.phase === 'waiting_selection' ? (this.state.selection?.id ?? null) : null;
  }

  choose(promptId: string, optionIndex: number): boolean {
    if (this.waitingPromptId !== promptId) return false;
    this.pendingChoices.push({ type: 'choice', at: Date.now(), promptId, optionIndex });
    return true;
  }

  dispose(): void {
    this.disposed = true;
  }

  async run(): Promise<GateOutcome> {
    const pollMs = this.deps.timing?.pollMs ?? READINESS_TIMING.pollMs;
    // The settle is logged so the gate's decision can be seen from outside (a shell gets none: issue 31 item 16).
    const readySettleMs = this.deps.timing?.readySettleMs ?? READINESS_TIMING.readySettleMs;
    this.deps.log.info({ cli: this.deps.adapter.id, readySettleMs }, 'readiness gate: open');
    await this.apply({ type: 'started', at: Date.now() });
    while (!isGateDone(this.state)) {
      if (this.disposed) return { outcome: 'missing', reason: 'worker closing' };
      const choice = this.pendingChoices.shift();
      if (choice) {
        await this.apply({ ...choice, at: Date.now() });
        // Answered: the CLI is starting again, not waiting for anyone (a CLI that restarts to apply it takes seconds).
        if (this.state.phase === 'selection_resolved') this.deps.status.report('starting');
        continue;
      }
      const look = await lookAt(this.deps.backend, this.deps.adapter);
      this.polls += 1;
      if (!look.ok) {
        if (look.code === 'missing') await this.apply({ type: 'gone', at: Date.now(), reason: look.message });
        else await sleep(pollMs);
        continue;
      }
      this.deps.onScreen?.(look.look.text);
      // A dead pane still shows the CLI's last screen (a dialog, say) above tmux's banner: the process is gone.
      if (PANE_DIED.test(look.look.text)) {
        await this.settleDeath();
        await this.apply({ type: 'gone', at: Date.now(), reason: 'the CLI exited during startup' });
        continue;
      }
      await this.apply({ type: 'screen', at: Date.now(), screen: look.look.screen });
      if (!isGateDone(this.state)) await sleep(pollMs);
    }
    const outcome = this.state.phase as GateOutcome['outcome'];
    return { outcome, reason: this.state.reason ?? outcome };
  }

  /** tmux can draw the banner a moment before its pane state says dead; wait for the state so a relaunch sees it. */
  private async settleDeath(): Promise<void> {
    for (let i = 0; i < GATE_RUNNER_LIMITS.deathChecks; i++) {
      const p = await this.deps.backend.probe();
      if (p.state !== 'exists' || p.paneDead) return;
      await sleep(GATE_RUNNER_LIMITS.deathCheckMs);
    }
  }

  private async apply(event: GateEvent): Promise<void> {
    const step = gateStep(this.state, event, { startupDefaults: this.deps.startupDialogs === 'ask' ? [] : this.deps.adapter.startupDefaults, choiceKeys: this.deps.adapter.choiceKeys, timing: this.deps.timing });
    this.state = step.state;
    for (const e of step.effects) await this.run1(e);
  }

  private async run1(e: GateEffect): Promise<void> {
    switch (e.type) {
      case 'log':
        this.deps.log.info({ from: e.from, to: e.to, reason: e.reason }, 'readiness gate: transition');
        return;
      case 'surface_selection': {
        if (this.surfacedId === e.selection.id && !e.note) return;
        this.surfacedId = e.selection.id;
        const s = e.selection;
        this.deps.send(selectionMessage(s));
        this.deps.status.report('waiting', { detail: e.note ?? `waiting for a choice: ${s.title}` });
        return;
      }
      case 'send_keys': {
        await sleepUntil(e.notBefore);
        const r = await sendSteps(this.deps.backend, e.keys);
        if (!r.ok) this.deps.log.warn({ err: r.message }, 'readiness gate: sending dialog keys failed');
        return;
      }
      case 'done':
        this.state = { ...this.state, reason: e.reason };
        this.deps.log.info({ outcome: e.outcome, reason: e.reason, polls: this.polls }, 'readiness gate: closed');
        return;
    }
  }
}
