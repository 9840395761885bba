// The worker's tmux client: a socket bound to the platform runner (src/platform/tmux-runner.ts, the one module that
// execs `tmux`), plus the quoting helpers the backend needs for formats and `sh -c` lines.
import { TMUX_RUN_LIMITS, runTmuxChain, type TmuxResult, type TmuxRunOptions } from '../../platform/tmux-runner.js';

// The runner's names and the shared shell quoting, for this module's existing importers.
export { classifyTmuxError, escapeTmuxArg, type TmuxFailureCode, type TmuxResult } from '../../platform/tmux-runner.js';
export { quoteShellArg } from '../../shared/shell-quote.js';

export const TMUX_CLIENT_LIMITS = TMUX_RUN_LIMITS;

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
    this.timeoutMs = options.timeoutMs ?? TMUX_CLIENT_LIMITS.timeoutMs;
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
