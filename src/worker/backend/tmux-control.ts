// The worker's capture runner: one `tmux` process per call through the platform runner, several commands split apart
// again by a random marker. (A control-mode client used to sit here; attaching one can crash the whole tmux server — see
// runtime/display.ts — so production stopped using it and issue 28 removed it.)
import { randomBytes } from 'node:crypto';
import { runTmuxChain, TmuxLauncher, type TmuxFailureCode } from '../../platform/tmux-runner.js';

/** A command's output lines; a failure is the runner's own (src/platform/tmux-runner.ts), so one result type and codes. */
export type TmuxLinesResult =
  | { ok: true; lines: string[] }
  | { ok: false; code: TmuxFailureCode; message: string };

/** Anything that can run one tmux command (argv, without the `tmux` and socket words). */
export interface TmuxCommandRunner {
  run(command: readonly string[]): Promise<TmuxLinesResult>;
  /** Runs several commands in one round trip; one result per command, in order. */
  runMany(commands: readonly (readonly string[])[]): Promise<TmuxLinesResult[]>;
  dispose(): void;
}

export const TMUX_CAPTURE_LIMITS = {
  /** A command that has not answered in this long means the server is wedged; fail it rather than hang the worker. */
  commandTimeoutMs: 10_000,
} as const;

/**
 * Quotes one argument for tmux's command parser: single quotes take everything literally
 * (`;`, `#{}`, `$`, `~`, spaces); a single quote itself is written as `"'"` between quoted parts.
 * Returns null for line breaks and NUL, which cannot be sent on a single command line.
 */
export function quoteTmuxArg(arg: string): string | null {
  if (/[\r\n\0]/.test(arg)) return null;
  return `'${arg.split("'").join(`'"'"'`)}'`;
}

/**
 * One `tmux` process per call, started by a launcher kept for the runner's life (platform/tmux-runner.ts: a fork of
 * the worker costs more than tmux's work); the worker's capture runner.
 */
export class TmuxExecRunner implements TmuxCommandRunner {
  private readonly launcher = new TmuxLauncher();

  constructor(private readonly opts: { socket?: string; tmuxBin?: string } = {}) {}

  run(command: readonly string[]): Promise<TmuxLinesResult> {
    return this.runChain([command]);
  }

  /**
   * All commands in one tmux process, so they also run in one turn of tmux's event loop (a capture and its cursor
   * query see the same screen). Between two commands a `display-message` prints a random marker line that splits
   * the output; pane text cannot forge it (a fresh nonce per call). tmux stops a chain at its first failing command,
   * so a failure fails every result of the call.
   */
  async runMany(commands: readonly (readonly string[])[]): Promise<TmuxLinesResult[]> {
    if (commands.length < 2) return Promise.all(commands.map((c) => this.run(c)));
    const marker = `larkmux-split-${randomBytes(12).toString('hex')}`;
    const chain = commands.flatMap((c, i) => (i === 0 ? [c] : [['display-message', '-p', marker], c]));
    const res = await this.runChain(chain);
    if (!res.ok) return commands.map(() => res);
    const parts: string[][] = [[]];
    for (const line of res.lines) {
      if (line === marker) parts.push([]);
      else parts.at(-1)!.push(line);
    }
    if (parts.length !== commands.length) {
      const bad: TmuxLinesResult = { ok: false, code: 'tmux_error', message: `tmux printed ${parts.length - 1} of ${commands.length - 1} split markers` };
      return commands.map(() => bad);
    }
    return parts.map((lines) => ({ ok: true, lines }));
  }

  private async runChain(chain: readonly (readonly string[])[]): Promise<TmuxLinesResult> {
    const res = await runTmuxChain(chain, {
      socket: this.opts.socket ?? null, timeoutMs: TMUX_CAPTURE_LIMITS.commandTimeoutMs, launcher: this.launcher,
      ...(this.opts.tmuxBin ? { binary: this.opts.tmuxBin } : {}),
    });
    if (!res.ok) return res;
    const lines = res.stdout.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return { ok: true, lines };
  }

  dispose(): void {
    this.launcher.dispose();
  }
}
