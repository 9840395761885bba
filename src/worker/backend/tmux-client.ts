// The worker's tmux client: a socket bound to the platform runner (src/platform/tmux-runner.ts, the one module that
// execs `tmux`), plus the quoting the backend needs for formats.
import { TMUX_RUN_LIMITS, runTmuxChain, type TmuxResult, type TmuxRunOptions } from '../../platform/tmux-runner.js';

/** Strings that tmux expands as formats (`-c`, the `pipe-pane` command) keep a literal `#` as `##`. */
export function escapeTmuxFormat(s: string): string {
  return s.replace(/#/g, '##');
}

export interface TmuxClientOptions {
  /** `tmux -L <socket>`; null = the user's default server. */
  socket: string | null;
  /** The tmux binary; default `tmux` from PATH. */
  binary?: string;
  timeoutMs?: number;
}

export class TmuxClient {
  readonly socket: string | null;
  private readonly binary: string;
  private readonly timeoutMs: number;

  constructor(options: TmuxClientOptions) {
    this.socket = options.socket;
    this.binary = options.binary ?? 'tmux';
    this.timeoutMs = options.timeoutMs ?? TMUX_RUN_LIMITS.timeoutMs;
  }

  /** Runs one tmux command. Every argument is passed as-is to tmux (see escapeTmuxArg). */
  run(args: readonly string[], options: Omit<TmuxRunOptions, 'socket' | 'binary'> = {}): Promise<TmuxResult> {
    return this.runChain([args], options);
  }

  /** Runs several commands in one tmux invocation, in order, before tmux's event loop runs again. */
  runChain(commands: readonly (readonly string[])[], options: Omit<TmuxRunOptions, 'socket' | 'binary'> = {}): Promise<TmuxResult> {
    return runTmuxChain(commands, { ...options, timeoutMs: options.timeoutMs ?? this.timeoutMs, socket: this.socket, binary: this.binary });
  }
}
