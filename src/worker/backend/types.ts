// The SessionBackend contract: how a worker creates, observes, types into and ends the pane a CLI runs in.
import type { BackendKind } from '../../shared/ipc.js';
import type { KeyName } from '../../shared/keys.js';
import type { PaneForeground } from '../lifecycle/takeover-ready.js';

export type BackendErrorCode =
  /** No tmux binary, or the server could not be reached or answered in time. */
  | 'tmux_unavailable'
  /** The session does not exist (and no launch spec was given to create it). */
  | 'missing'
  /** tmux refused the launch (bad cwd, bad argv...). */
  | 'launch_failed'
  /** The CLI started but exited at once; its pane was kept under a diagnostic name. */
  | 'launch_exited'
  /** The pane observer could not be set up (FIFO, pipe-pane). */
  | 'observer_failed'
  /** Any other command that tmux (or the pty) refused. */
  | 'command_failed';

export type BackendResult<T = void> =
  | { ok: true; value: T }
  | { ok: false; code: BackendErrorCode; message: string };

export interface Disposable {
  dispose(): void;
}

/** Adds `listener` to `listeners`; disposing the result takes it out again (the backends' and observer's onX methods). */
export function listenOn<T>(listeners: Set<T>, listener: T): Disposable {
  listeners.add(listener);
  return { dispose: () => { listeners.delete(listener); } };
}

/** What to run when the session has to be created. `argv[0]` is the program; nothing is passed through a shell. */
export interface LaunchSpec {
  argv: readonly string[];
  cwd: string;
  /** Extra environment for this CLI only; reserved keys are refused with a warning. */
  env: Readonly<Record<string, string>>;
  /**
   * Set by larkmux itself and passed past the bot-env filter: PATH with this home's `larkmux` first and the same command
   * as a bash function (shared/pane-command.ts). Never LARKMUX_HOME, TMUX or TMUX_PANE: the CLI gets none of them.
   */
  larkmuxEnv?: Readonly<Record<string, string>>;
  cols: number;
  rows: number;
}

export interface StartInfo {
  /** tmux session name (or a label for the pty). */
  name: string;
  /** false = an existing session was re-attached. */
  created: boolean;
  /** Human-readable warnings, e.g. refused env keys (never their values). */
  warnings: string[];
  /** Re-attached: how long the CLI has been running (from its session's creation), when the backend can tell. */
  runningForMs?: number;
  /** Re-attached: what the pane's foreground is (a full-screen program, or which process), when the backend can tell. */
  foreground?: PaneForeground;
}

export type ProbeResult =
  | { state: 'exists'; panePid: number | null; paneDead: boolean; exitStatus: number | null }
  | { state: 'missing' }
  | { state: 'unknown'; reason: string };

export interface CaptureOptions {
  /** Keep colours and attributes as escape sequences (`capture-pane -e`). */
  escapes?: boolean;
  /** Also include this many lines of scrollback above the visible screen. */
  historyLines?: number;
  /** Join wrapped rows into their logical line (`capture-pane -J`); the pty mirror ignores it. */
  join?: boolean;
}

/**
 * Why output stopped flowing: the pane closed its pipe, the observer was stalled, or someone else replaced it;
 * `pane_died`: the pane's process exited (tmux keeps the dead pane and its pipe open, so the pipe alone cannot say).
 */
export interface ObserverClosed {
  reason: 'pipe_closed' | 'stalled' | 'error' | 'pane_died';
  message: string;
}

export interface SendTextOptions {
  /** Paste even a short single line (adapters whose CLI handles pastes better than fast keystrokes). */
  paste?: boolean;
}

export interface SessionBackend {
  readonly kind: BackendKind;
  readonly name: string;
  /** Create the session (when `launch` is given and it is missing) or re-attach to it, and start observing. */
  start(launch?: LaunchSpec): Promise<BackendResult<StartInfo>>;
  /** Decoded output text, in order, split anywhere but never inside a character. */
  onOutput(listener: (text: string) => void): Disposable;
  onObserverClosed(listener: (closed: ObserverClosed) => void): Disposable;
  /**
   * Backpressure from a slow consumer. tmux: a pause longer than OBSERVER_LIMITS.stallTimeoutMs closes the pipe
   * (onObserverClosed `stalled`; call start() to re-attach and capture() to resync). pty: the CLI simply blocks.
   */
  pauseOutput(): void;
  resumeOutput(): void;
  /** The screen as text (rows joined with `\n`). */
  capture(options?: CaptureOptions): Promise<BackendResult<string>>;
  /** Types text literally; multi-line or long text (or any text with `paste: true`) goes in as one bracketed paste. */
  sendText(text: string, options?: SendTextOptions): Promise<BackendResult>;
  sendKey(key: KeyName): Promise<BackendResult>;
  resize(cols: number, rows: number): Promise<BackendResult>;
  probe(): Promise<ProbeResult>;
  /** Ends the CLI and its session. Killing a missing session is not an error. */
  kill(): Promise<BackendResult>;
  /** Stops observing and leaves the CLI running. */
  detach(): Promise<void>;
  /** detach() plus dropping every listener; the object is unusable afterwards. */
  dispose(): Promise<void>;
}

export function fail(code: BackendErrorCode, message: string): { ok: false; code: BackendErrorCode; message: string } {
  return { ok: false, code, message };
}

export const OK: { ok: true; value: undefined } = { ok: true, value: undefined };
