// The one module that runs `tmux`: argv arrays only, `-L <socket>` when configured, a timeout, failures as values.
import { execFile } from 'node:child_process';
import { tmuxClientEnv } from '../../shared/env-policy.js';

export const TMUX_CLIENT_LIMITS = {
  /** A healthy server answers an exec in 10–50 ms here (notes §4); 5 s without an answer means it is hung. */
  timeoutMs: 5_000,
  /** `capture-pane -S -` of a long history can be several MB. */
  maxOutputBytes: 64 * 1024 * 1024,
} as const;

export type TmuxFailureCode = 'tmux_missing' | 'timeout' | 'no_server' | 'not_found' | 'tmux_error';

export type TmuxResult =
  | { ok: true; stdout: string }
  | { ok: false; code: TmuxFailureCode; message: string };

export interface TmuxRunOptions {
  /** Written to tmux's stdin (for `load-buffer -`). */
  input?: string;
  timeoutMs?: number;
}

/**
 * tmux splits its own command line at any argument that ends in `;` (dropping the `;`), and turns a trailing `\;`
 * into `;`. So an argument that ends in `;` gets a backslash before that last `;`, and reaches the command intact.
 * Verified on tmux 3.3a: `x\;` → `x;`, `y\\;` → `y\;`.
 */
export function escapeTmuxArg(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

/** Strings that tmux expands as formats (`-c`, the `pipe-pane` command) keep a literal `#` as `##`. */
export function escapeTmuxFormat(s: string): string {
  return s.replace(/#/g, '##');
}

/** POSIX single-quoting for a string placed in a `sh -c` command line: `it's` → `'it'\''s'`. */
export function quoteShellArg(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function classifyTmuxError(stderr: string): TmuxFailureCode {
  if (/no server running|error connecting to .*No such file or directory/i.test(stderr)) return 'no_server';
  if (/can't find (session|window|pane)|session not found|no such (session|window|pane)/i.test(stderr)) return 'not_found';
  return 'tmux_error';
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
  /** The shared policy: a server this client happens to start gets the inherited names only, never larkmux's own. */
  private readonly env = tmuxClientEnv(process.env);

  constructor(options: TmuxClientOptions) {
    this.socket = options.socket;
    this.binary = options.binary ?? 'tmux';
    this.timeoutMs = options.timeoutMs ?? TMUX_CLIENT_LIMITS.timeoutMs;
  }

  /** Runs one tmux command. Every argument is passed as-is to tmux (see escapeTmuxArg). */
  run(args: readonly string[], options: TmuxRunOptions = {}): Promise<TmuxResult> {
    return this.runChain([args], options);
  }

  /** Runs several commands in one tmux invocation, in order, before tmux's event loop runs again. */
  runChain(commands: readonly (readonly string[])[], options: TmuxRunOptions = {}): Promise<TmuxResult> {
    const argv: string[] = this.socket === null ? [] : ['-L', this.socket];
    commands.forEach((cmd, i) => {
      if (i > 0) argv.push(';');
      for (const a of cmd) argv.push(escapeTmuxArg(a));
    });
    const timeout = options.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve) => {
      const child = execFile(
        this.binary,
        argv,
        { env: this.env, timeout, killSignal: 'SIGKILL', maxBuffer: TMUX_CLIENT_LIMITS.maxOutputBytes, encoding: 'utf8' },
        (err, stdout, stderr) => {
          if (!err) return resolve({ ok: true, stdout });
          const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
          if (e.code === 'ENOENT') return resolve({ ok: false, code: 'tmux_missing', message: `${this.binary} is not installed or not on PATH` });
          if (e.killed || e.signal === 'SIGKILL') return resolve({ ok: false, code: 'timeout', message: `tmux ${commands[0]?.[0] ?? ''} did not answer within ${timeout} ms` });
          const text = stderr.trim() || e.message;
          return resolve({ ok: false, code: classifyTmuxError(text), message: text });
        },
      );
      child.stdin?.on('error', () => { /* tmux exited before reading stdin; the exit callback reports it */ });
      if (options.input !== undefined) child.stdin?.end(options.input);
      else child.stdin?.end();
    });
  }
}
