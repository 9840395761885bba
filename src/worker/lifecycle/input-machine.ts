// The per-session input state machine (DESIGN §6) as a pure transition function; the runtime executes its effects.
import { failure, failureText, type Failure } from '../../shared/failure.js';
import type { HurryHow, HurryOutcome, WorkerToDaemon } from '../../shared/ipc.js';

export type InputPhase =
  | 'idle' | 'checking_tmux' | 'checking_session' | 'starting_session' | 'starting_tmux' | 'waiting_selection'
  | 'running' | 'sending' | 'failed' | 'stopped';

export interface QueuedMessage {
  turnId: string;
  text: string;
  /** A CLI slash command (`raw_input`): typed as is, never merged, no transcript evidence expected. */
  raw?: boolean;
  /** Steered into the working CLI from its card: its proof may come only at the CLI's next step (delivery.ts). */
  steered?: boolean;
  /**
   * Typed again after a host's link dropped with it in flight (its transcript has no record of it): a worker that is
   * gone may have pasted it without its Enter, so the composer is emptied before it goes in, or it would go in twice.
   */
  clearFirst?: boolean;
}

/** How the next launch starts the CLI. */
export type LaunchMode = 'new' | 'resume' | 'attach';

export interface InputState {
  phase: InputPhase;
  queue: QueuedMessage[];
  /** The message being sent (phase `sending`). */
  inFlight?: QueuedMessage;
  launchMode: LaunchMode;
  /** The CLI is busy with a turn (from the status detector); messages wait unless the CLI takes type-ahead. */
  cliBusy: boolean;
  /** A message was typed ahead into the busy CLI; only one at a time, so the CLI never merges two into one turn. */
  typedAhead: boolean;
  /** An interrupt for a waiting message is under way (hurry.ts): nothing is typed until the CLI stopped and was cleared. */
  interrupting?: boolean;
  /** The process was lost and has been restarted once for the current message; a second loss fails it. */
  recoveredFor?: string;
  /** The CLI exited during this start-up (some exit after a startup dialog, e.g. Gemini's trust) and was relaunched once. */
  relaunchedInBoot?: boolean;
  /** The current check only takes over a live pane (init in attach mode); with no pane it waits for a message. */
  takeOverOnly?: boolean;
  /** The last failure, for logs. */
  reason?: string;
}

export type SessionCheck = 'alive' | 'missing' | 'dead';

/** Launches refused before anything ran, each told to the chat with its fix (the CLI to install, the folder to create). */
export type LaunchFailureCode = 'cli_missing' | 'cwd_missing';

export type InputEvent =
  /** Take over a live pane now (init in attach mode); a missing one is started by the next message. */
  | { type: 'take_over' }
  | { type: 'input'; message: QueuedMessage }
  | { type: 'tmux_checked'; ok: boolean; reason?: string }
  | { type: 'session_checked'; session: SessionCheck }
  | { type: 'session_prepared'; ok: boolean; reason?: string; code?: LaunchFailureCode }
  | { type: 'tmux_started'; ok: boolean; created: boolean; reason?: string }
  | { type: 'gate_done'; outcome: 'ready' | 'missing' | 'timeout'; reason: string }
  /** Result of one delivery (probe + paste + Enter + proof). `lost` = the probe found no live CLI before sending. */
  | { type: 'send_done'; turnId: string; result: 'delivered' | 'failed' | 'lost'; reason?: string }
  /** The status detector noticed the process is gone (3 missing probes or a dead pane) while nothing was in flight. */
  | { type: 'process_lost'; reason: string }
  | { type: 'cli_busy'; busy: boolean }
  /** A person chose, on a waiting message's card, to steer it into the working CLI or to interrupt the turn for it. */
  | { type: 'hurry'; turnId: string; how: HurryHow }
  /** The interrupt key was pressed and the input box cleared (or that failed): the queue may move again. */
  | { type: 'interrupt_done' }
  | { type: 'stop' };

export type InputEffect =
  | { type: 'log'; from: InputPhase; to: InputPhase; reason: string }
  | { type: 'check_tmux' }
  | { type: 'check_session' }
  /**
   * The CLI said it is ending during start-up (Gemini after a trust answer): wait for its process to go, end it if it
   * lingers, then report the session as checked. A process on its way out is never taken over as the relaunch.
   */
  | { type: 'end_exiting_cli' }
  /** Choose argv (new with a chosen id, or resume with the known native id) and environment. */
  | { type: 'prepare_session'; mode: 'new' | 'resume' }
  | { type: 'start_tmux' }
  /** Attach the observer to an existing live pane (take-over), then run the gate. */
  | { type: 'attach_tmux' }
  | { type: 'run_gate' }
  /** One has-session probe, then paste/type, Enter, and proof. */
  | { type: 'deliver'; message: QueuedMessage }
  /** Press the CLI's interrupt key, wait for it to stop, clear what it put back in the input box; then `interrupt_done`. */
  | { type: 'interrupt' }
  | { type: 'report'; msg: WorkerToDaemon };

/** The adapter facts the machine needs. */
export interface InputContext {
  typeAheadWhileBusy: boolean;
  /** Text typed while the CLI works reaches the model as its own prompt (cli-spec.ts CLI_STEERS). */
  steerWhileBusy?: boolean;
}

export type InputStep = { state: InputState; effects: InputEffect[] };

export function initialInput(launchMode: LaunchMode): InputState {
  return { phase: 'idle', queue: [], launchMode, cliBusy: false, typedAhead: false };
}

function go(state: InputState, phase: InputPhase, reason: string, patch: Partial<InputState>, effects: InputEffect[]): InputStep {
  const next = { ...state, ...patch, phase };
  const log: InputEffect[] = phase !== state.phase ? [{ type: 'log', from: state.phase, to: phase, reason }] : [];
  return { state: next, effects: [...log, ...effects] };
}

const BOOTING: readonly InputPhase[] = ['checking_tmux', 'checking_session', 'starting_session', 'starting_tmux', 'waiting_selection'];

/** Fail every queued message (the CLI could not be brought up for them). */
function failQueue(queue: readonly QueuedMessage[], why: Failure): InputEffect[] {
  const reason = failureText('en', why);
  return queue.map((m) => ({ type: 'report', msg: { type: 'input_failed', turnId: m.turnId, reason, failure: why } }) as InputEffect);
}

/** From `running`: send the next queued message if the CLI can take it. */
function pump(state: InputState, ctx: InputContext, why: string): InputStep {
  if (state.phase !== 'running' || state.queue.length === 0 || state.interrupting) return { state, effects: [] };
  if (state.cliBusy && (!ctx.typeAheadWhileBusy || state.typedAhead)) return { state, effects: [] };
  const [head, ...rest] = state.queue;
  const typedAhead = state.typedAhead || state.cliBusy;
  return go(state, 'sending', state.cliBusy ? `${why}; typed ahead while the CLI is busy` : why, { queue: rest, inFlight: head, typedAhead }, [
    { type: 'deliver', message: head! },
  ]);
}

/**
 * A waiting message's card tap. Steer: it leaves the queue and is typed into the working CLI now (one typed-ahead
 * message at a time). Interrupt: it moves to the head of the queue, the turn is interrupted, and it goes once the CLI
 * is idle and its input box cleared. A message no longer queued (sent meanwhile) changes nothing: it is never doubled.
 */
function hurryStep(state: InputState, turnId: string, how: HurryHow, ctx: InputContext): InputStep {
  const at = state.queue.findIndex((m) => m.turnId === turnId);
  const answer = (outcome: HurryOutcome, step: InputStep = { state, effects: [] }): InputStep => ({
    state: step.state,
    effects: [...step.effects, { type: 'report', msg: { type: 'hurry_done', turnId, how, outcome } }],
  });
  if (at < 0) return answer('not_queued');
  if (state.phase !== 'running' || !state.cliBusy) return answer('waits');
  const message = state.queue[at]!;
  const rest = state.queue.filter((_, i) => i !== at);
  if (how === 'steer') {
    if (!ctx.steerWhileBusy || state.typedAhead) return answer('waits');
    const steered = { ...message, steered: true };
    return answer('steered', go(state, 'sending', 'steered into the working CLI by a card tap', { queue: rest, inFlight: steered, typedAhead: true }, [
      { type: 'deliver', message: steered },
    ]));
  }
  if (state.interrupting) return answer('interrupted', { state: { ...state, queue: [message, ...rest] }, effects: [] });
  return answer('interrupted', { state: { ...state, queue: [message, ...rest], interrupting: true }, effects: [{ type: 'interrupt' }] });
}

function boot(state: InputState, reason: string): InputStep {
  return go(state, 'checking_tmux', reason, { reason: undefined, takeOverOnly: false }, [{ type: 'check_tmux' }]);
}

export function inputStep(state: InputState, event: InputEvent, ctx: InputContext): InputStep {
  if (state.phase === 'stopped') {
    if (event.type === 'input') return { state, effects: failQueue([event.message], failure('session_closed')) };
    return { state, effects: [] };
  }
  switch (event.type) {
    case 'stop':
      return go(state, 'stopped', 'close requested', { queue: [], inFlight: undefined, interrupting: false }, []);

    case 'take_over':
      if (state.phase !== 'idle') return { state, effects: [] };
      return go(state, 'checking_tmux', 'worker started after a daemon restart; looking for the live CLI', { takeOverOnly: true }, [{ type: 'check_tmux' }]);

    case 'input': {
      const queued = { ...state, queue: [...state.queue, event.message] };
      if (state.phase === 'idle' || state.phase === 'failed') return boot(queued, state.phase === 'idle' ? 'a message arrived' : 'a message arrived after a failure; trying again');
      if (state.phase === 'running') return pump(queued, ctx, 'a message arrived');
      return { state: queued, effects: [] }; // booting or sending: keep order, deliver later
    }

    case 'hurry':
      return hurryStep(state, event.turnId, event.how, ctx);

    case 'interrupt_done':
      if (!state.interrupting) return { state, effects: [] };
      return pump({ ...state, interrupting: false }, ctx, 'the turn was interrupted for a waiting message');

    case 'cli_busy': {
      const next = { ...state, cliBusy: event.busy, typedAhead: event.busy ? state.typedAhead : false };
      return event.busy ? { state: next, effects: [] } : pump(next, ctx, 'the CLI is ready for the next message');
    }

    case 'tmux_checked':
      if (state.phase !== 'checking_tmux') return { state, effects: [] };
      if (!event.ok) {
        if (state.takeOverOnly && state.queue.length === 0) return go(state, 'idle', `tmux is not available: ${event.reason ?? 'unknown'}`, { takeOverOnly: false }, []);
        return fail(state, failure('tmux_unavailable', event.reason ?? 'unknown'));
      }
      return go(state, 'checking_session', 'tmux answers', {}, [{ type: 'check_session' }]);

    case 'session_checked':
      if (state.phase !== 'checking_session') return { state, effects: [] };
      if (event.session === 'alive' && state.relaunchedInBoot) {
        // The CLI that said it was ending still runs after being ended: taking it over would wait on a dying screen.
        return fail(state, failure('not_ready', 'the CLI said it was ending during start-up, and its process would not end'));
      }
      if (event.session === 'alive') {
        // Take-over of a live pane (daemon restart, worker re-fork): attach, then the gate checks the screen once.
        return go(state, 'starting_tmux', 'a live CLI session exists; taking it over', {}, [{ type: 'attach_tmux' }]);
      }
      if (state.takeOverOnly && state.queue.length === 0) {
        return go(state, 'idle', 'no live CLI to take over; the next message starts it', { takeOverOnly: false }, []);
      }
      {
        const mode = state.launchMode === 'new' ? 'new' : 'resume';
        return go(state, 'starting_session', event.session === 'dead' ? 'the CLI in the session has exited' : 'no session yet', {}, [
          { type: 'prepare_session', mode },
        ]);
      }

    case 'session_prepared':
      if (state.phase !== 'starting_session') return { state, effects: [] };
      if (!event.ok) return fail(state, failure('launch_prepare_failed', event.reason ?? '?'), event.code);
      return go(state, 'starting_tmux', 'launch prepared', {}, [{ type: 'start_tmux' }]);

    case 'tmux_started':
      if (state.phase !== 'starting_tmux') return { state, effects: [] };
      if (!event.ok) return fail(state, failure('tmux_start_failed', event.reason ?? '?'));
      return go(state, 'waiting_selection', event.created ? 'CLI launched; readiness gate open' : 'attached; readiness gate open', {}, [{ type: 'run_gate' }]);

    case 'gate_done':
      if (state.phase !== 'waiting_selection') return { state, effects: [] };
      if (event.outcome === 'missing' && !state.relaunchedInBoot) {
        // Some CLIs quit after a startup answer and expect to be started again (Gemini after trusting a folder). Its
        // process may still be ending (or hang while it does): it is ended first, so the relaunch is a fresh one.
        return go(state, 'checking_session', `the CLI exited during start-up (${event.reason}); launching it once more`, { relaunchedInBoot: true }, [
          { type: 'end_exiting_cli' },
        ]);
      }
      if (event.outcome !== 'ready') return fail(state, failure('not_ready', `${event.outcome}: ${event.reason}`));
      // From now on the session exists: a later loss resumes the CLI's own conversation.
      return withReadyReport(state, ctx);

    case 'send_done': {
      if (state.phase !== 'sending' || state.inFlight?.turnId !== event.turnId) return { state, effects: [] };
      const msg = state.inFlight;
      if (event.result === 'lost') {
        if (state.recoveredFor === msg.turnId) {
          const failed = go(state, 'running', 'the CLI was lost again', { inFlight: undefined }, [
            { type: 'report', msg: { type: 'input_failed', turnId: msg.turnId, reason: failureText('en', failure('exited_after_restart')), failure: failure('exited_after_restart') } },
          ]);
          const next = pump(failed.state, ctx, 'next message');
          return { state: next.state, effects: [...failed.effects, ...next.effects] };
        }
        // Recover once: the message goes back to the head of the queue and the CLI is resumed.
        return go(state, 'checking_tmux', `the CLI is gone (${event.reason ?? 'probe'}); restarting it with resume`, {
          queue: [msg, ...state.queue], inFlight: undefined, recoveredFor: msg.turnId, launchMode: 'resume',
        }, [{ type: 'check_tmux' }]);
      }
      const after = go(state, 'running', event.result === 'delivered' ? 'delivered' : 'delivery failed', {
        inFlight: undefined, cliBusy: event.result === 'delivered' ? true : state.cliBusy,
      }, []);
      const pumped = pump(after.state, ctx, 'next queued message');
      return { state: pumped.state, effects: [...after.effects, ...pumped.effects] };
    }

    case 'process_lost':
      if (BOOTING.includes(state.phase) || state.phase === 'idle' || state.phase === 'failed') return { state, effects: [] };
      if (state.phase === 'sending') return { state, effects: [] }; // the delivery's own probe decides
      return go(state, 'idle', `the CLI process was lost: ${event.reason}`, { launchMode: 'resume', cliBusy: false, typedAhead: false, recoveredFor: undefined, interrupting: false }, []);
  }
}

function withReadyReport(state: InputState, ctx: InputContext): InputStep {
  const ready = go(state, 'running', 'ready', { launchMode: 'resume', cliBusy: false, typedAhead: false, relaunchedInBoot: false }, []);
  const pumped = pump(ready.state, ctx, 'delivering the first queued message');
  return { state: pumped.state, effects: [...ready.effects, ...pumped.effects] };
}

/** `code` tells the daemon which failure this is (cli_missing gets the install command); the reason is for logs. */
function fail(state: InputState, why: Failure, code: 'cli_start_failed' | LaunchFailureCode = 'cli_start_failed'): InputStep {
  const msgs = state.inFlight ? [state.inFlight, ...state.queue] : state.queue;
  const reason = failureText('en', why);
  return go(state, 'failed', reason, { queue: [], inFlight: undefined, reason, relaunchedInBoot: false, interrupting: false }, [
    ...failQueue(msgs, why),
    { type: 'report', msg: { type: 'error', code, message: reason.slice(0, 4000), failure: why } },
  ]);
}
