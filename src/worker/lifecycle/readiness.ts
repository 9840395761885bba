// The readiness gate (DESIGN §6) as a pure state machine: screens in, transitions and effects out.
import type { KeyStep, ScreenState, SelectionState, StartupDefault } from '../cli/types.js';
import { safeDefaultIndex } from '../cli/screen.js';
import { optionKeys } from '../cli/key-hints.js';

export const READINESS_TIMING = {
  /** Screen poll period while the gate is open: CLIs draw their first screen 0.5–4.5 s after launch (notes). */
  pollMs: 250,
  /** Gate timeout, counting only time not spent waiting for a person. Gemini needs ~4.4 s; 60 s allows a slow box. */
  timeoutMs: 60_000,
  /** Keys sent the instant a dialog appears can be ignored (Claude: 0 ms ignored 2/2, ≥200 ms accepted 5/5). */
  dialogSettleMs: 500,
  /** After answering, the dialog must be gone within this long, else the keys are sent once more. */
  dialogGoneMs: 1_500,
  /** Answer attempts per dialog before it is reported as stuck and left to a person. */
  maxAnswerAttempts: 2,
  /**
   * The input prompt must stay on screen this long, with no dialog, before the gate opens. Measured on the loaded
   * 2-core box: Gemini's trust dialog 0.27 s after its prompt (0.5–1 s in the issue-12 runs), Claude's "Make auto
   * mode your default?" offer 1.06 s after (a first prompt's Enter picked its preselected "Yes", so the permission
   * card the CI test waited for never came). 2.5 s is over twice the slowest seen.
   */
  readySettleMs: 2_500,
  /**
   * A CLI re-attached (a daemon restart, a worker started for a detached session) that has run this long is past its
   * start-up: the late dialogs readySettleMs waits for come within seconds of the first prompt (Gemini's slowest first
   * screen 4.5 s after launch, a dialog ~1 s after its prompt). Its prompt needs only a second look, one poll later,
   * so a message after a restart is typed at once instead of 2.5 s later (issue 14).
   */
  startupOverAfterMs: 15_000,
} as const;

export type ReadinessTiming = { [K in keyof typeof READINESS_TIMING]: number };

/**
 * The gate's timing for a CLI that has been running `runningForMs` (null: just launched, or unknown), given whether a
 * start-up dialog can still replace its first prompt (CliAdapter.lateStartupDialogs). A prompt on a CLI past its
 * start-up holds for one poll (a redraw between a turn's steps can look like a prompt once), not readySettleMs. A
 * program with no late dialogs (a shell) is ready at its first prompt: the settle cost every new shell session 2.5 s
 * before its first command was typed (issue 31), and it has nothing to wait for.
 */
export function gateTimingFor(runningForMs: number | null, lateStartupDialogs: boolean, timing: ReadinessTiming = READINESS_TIMING): Partial<ReadinessTiming> {
  if (!lateStartupDialogs) return { readySettleMs: 0 };
  return runningForMs !== null && runningForMs >= timing.startupOverAfterMs ? { readySettleMs: timing.pollMs } : {};
}

export type GatePhase = 'starting' | 'polling' | 'waiting_selection' | 'selection_resolved' | 'ready' | 'missing' | 'timeout';

export interface GateState {
  phase: GatePhase;
  /** Gate time used so far, excluding time spent waiting for a person. */
  spentMs: number;
  /** Clock of the last event (for accounting `spentMs`). */
  lastAt: number;
  /** The dialog in hand (waiting_selection / selection_resolved), or one seen while polling that has not settled. */
  selection?: SelectionState;
  /** When `selection` first appeared on screen. */
  selectionSeenAt?: number;
  /** The option picked and how many times its keys were sent. */
  answer?: { index: number; by: 'default' | 'person'; sentAt: number; attempts: number };
  /** Why the gate ended (for missing/timeout). */
  reason?: string;
  /** When the current unbroken run of ready screens began (the settle clock); cleared by any other screen. */
  readySince?: number;
}

export type GateEvent =
  | { type: 'started'; at: number }
  | { type: 'screen'; at: number; screen: ScreenState }
  /** The process or its session is gone (probe said missing, pane dead). */
  | { type: 'gone'; at: number; reason: string }
  | { type: 'choice'; at: number; promptId: string; optionIndex: number };

export type GateEffect =
  | { type: 'log'; from: GatePhase; to: GatePhase; reason: string }
  /** Show the dialog to a person (IPC `selection`). */
  | { type: 'surface_selection'; selection: SelectionState; note?: string }
  /** Send keys, not before `notBefore` (clock ms): the dialog must have settled. */
  | { type: 'send_keys'; keys: KeyStep[]; notBefore: number }
  | { type: 'done'; outcome: 'ready' | 'missing' | 'timeout'; reason: string };

/** The adapter's pure parts the gate needs. */
export interface GateContext {
  startupDefaults: readonly StartupDefault[];
  choiceKeys(selection: SelectionState, optionIndex: number): KeyStep[];
  timing?: Partial<ReadinessTiming>;
}

export type GateStep = { state: GateState; effects: GateEffect[] };

export function initialGate(at: number): GateState {
  return { phase: 'starting', spentMs: 0, lastAt: at };
}

export function isGateDone(state: GateState): boolean {
  return state.phase === 'ready' || state.phase === 'missing' || state.phase === 'timeout';
}

function to(state: GateState, phase: GatePhase, reason: string, patch: Partial<GateState> = {}, extra: GateEffect[] = []): GateStep {
  const next: GateState = { ...state, ...patch, phase };
  const effects: GateEffect[] = [];
  if (phase !== state.phase) effects.push({ type: 'log', from: state.phase, to: phase, reason });
  effects.push(...extra);
  if (phase === 'ready' || phase === 'missing' || phase === 'timeout') effects.push({ type: 'done', outcome: phase, reason });
  return { state: next, effects };
}

function clearSelection(): Partial<GateState> {
  return { selection: undefined, selectionSeenAt: undefined, answer: undefined };
}

/** One transition. Time waiting for a person (waiting_selection) does not count against the timeout. */
export function gateStep(state: GateState, event: GateEvent, ctx: GateContext): GateStep {
  const timing = { ...READINESS_TIMING, ...ctx.timing };
  if (isGateDone(state)) return { state, effects: [] };
  const counts = state.phase !== 'waiting_selection';
  const accounted: GateState = { ...state, spentMs: state.spentMs + (counts ? Math.max(0, event.at - state.lastAt) : 0), lastAt: event.at };

  if (event.type === 'gone') return to(accounted, 'missing', event.reason, clearSelection());
  if (event.type === 'started') {
    return state.phase === 'starting' ? to(accounted, 'polling', 'launched; polling the screen') : { state: accounted, effects: [] };
  }
  if (event.type === 'choice') return onChoice(accounted, event, ctx, timing);

  // A screen.
  if (accounted.spentMs > timing.timeoutMs && accounted.phase !== 'waiting_selection') {
    return to(accounted, 'timeout', `no ready screen within ${timing.timeoutMs} ms`, clearSelection());
  }
  const screen = event.screen;
  if (accounted.phase === 'starting') return { state: accounted, effects: [] };
  if (screen.kind !== 'ready' && screen.kind !== 'limited') accounted.readySince = undefined;
  switch (screen.kind) {
    case 'ready':
    case 'limited': {
      // A prompt is trusted only once it has held: a late dialog (trust, onboarding) can still replace it.
      const since = accounted.readySince ?? event.at;
      if (event.at - since < timing.readySettleMs) return { state: { ...accounted, readySince: since }, effects: [] };
      return to(accounted, 'ready', screen.kind === 'ready' ? 'the CLI shows its input prompt' : 'the CLI is up but usage-limited', clearSelection());
    }
    case 'exited':
      return to(accounted, 'missing', 'the CLI exited during startup', clearSelection());
    case 'selection':
      return onDialog(accounted, screen, event.at, ctx, timing);
    default:
      // busy/unknown: still drawing. A dialog we answered that is gone counts as resolved.
      if (accounted.phase === 'selection_resolved' || accounted.phase === 'waiting_selection') {
        if (accounted.phase === 'waiting_selection') return { state: accounted, effects: [] };
        return to(accounted, 'polling', 'the dialog went away', clearSelection());
      }
      return { state: { ...accounted, ...clearSelection() }, effects: [] };
  }
}

function onDialog(state: GateState, sel: SelectionState, at: number, ctx: GateContext, timing: ReadinessTiming): GateStep {
  const same = state.selection?.id === sel.id;
  if (state.phase === 'waiting_selection') {
    // Still waiting for a person; a different dialog replacing it is surfaced afresh.
    if (same) return { state, effects: [] };
    return to({ ...state, selection: sel, selectionSeenAt: at, answer: undefined }, 'waiting_selection', 'a different dialog replaced the one shown', {}, [
      { type: 'surface_selection', selection: sel },
    ]);
  }
  if (state.phase === 'selection_resolved' && same && state.answer) {
    if (at - state.answer.sentAt < timing.dialogGoneMs) return { state, effects: [] };
    if (state.answer.attempts < timing.maxAnswerAttempts) {
      const keys = optionKeys(sel, state.answer.index, ctx.choiceKeys);
      const answer = { ...state.answer, sentAt: at, attempts: state.answer.attempts + 1 };
      return to({ ...state, answer }, 'selection_resolved', 'the dialog is still there; keys sent again', {}, [{ type: 'send_keys', keys, notBefore: at }]);
    }
    return to({ ...state, answer: undefined, selectionSeenAt: at }, 'waiting_selection', `the dialog stayed after ${state.answer.attempts} answers; asking a person`, {}, [
      { type: 'surface_selection', selection: sel, note: 'the automatic answer did not close this dialog' },
    ]);
  }
  // A new dialog (or one first seen while polling).
  const seenAt = same && state.selectionSeenAt !== undefined ? state.selectionSeenAt : at;
  const fallback = safeDefaultIndex(sel, ctx.startupDefaults);
  if (!fallback) {
    return to({ ...state, selection: sel, selectionSeenAt: seenAt, answer: undefined }, 'waiting_selection', `dialog "${sel.title}" needs a person`, {}, [
      { type: 'surface_selection', selection: sel },
    ]);
  }
  if (at - seenAt < timing.dialogSettleMs) {
    // Let it settle: keys sent the instant a dialog appears can be ignored.
    return to({ ...state, selection: sel, selectionSeenAt: seenAt, answer: undefined }, 'polling', 'dialog appeared; letting it settle');
  }
  const keys = optionKeys(sel, fallback.index, ctx.choiceKeys);
  const label = sel.options[fallback.index]?.label ?? '?';
  return to(
    { ...state, selection: sel, selectionSeenAt: seenAt, answer: { index: fallback.index, by: 'default', sentAt: at, attempts: 1 } },
    'selection_resolved',
    `answered "${sel.title}" with "${label}" by default: ${fallback.reason}`,
    {},
    [{ type: 'send_keys', keys, notBefore: at }],
  );
}

function onChoice(state: GateState, ev: Extract<GateEvent, { type: 'choice' }>, ctx: GateContext, timing: ReadinessTiming): GateStep {
  const sel = state.selection;
  if (state.phase !== 'waiting_selection' || !sel || sel.id !== ev.promptId) return { state, effects: [] };
  if (ev.optionIndex < 0 || ev.optionIndex >= sel.options.length) return { state, effects: [] };
  const keys = optionKeys(sel, ev.optionIndex, ctx.choiceKeys);
  const notBefore = Math.max(ev.at, (state.selectionSeenAt ?? ev.at) + timing.dialogSettleMs);
  const label = sel.options[ev.optionIndex]!.label;
  return to(
    { ...state, answer: { index: ev.optionIndex, by: 'person', sentAt: notBefore, attempts: 1 } },
    'selection_resolved',
    `a person chose "${label}"`,
    {},
    [{ type: 'send_keys', keys, notBefore }],
  );
}
