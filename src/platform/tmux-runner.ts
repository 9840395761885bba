// The one way larkmux runs `tmux` as a process, for the daemon, the worker and the CLI alike (issue 11): argv arrays
// only (never a shell), `-L <socket>` when set, the environment policy of src/shared/env-policy.ts, a timeout, and
// failures as values of one result type. The platform layer sits below daemon, worker and cli and above src/shared:
// Node effects that more than one side needs live here, so neither side imports the other.
// Not here: the interactive attach client under a pty (worker/webterm.ts) — a tmux client of another kind, started
// with the same env policy. Lint (scripts/eslint/one-tmux-runner.js) keeps every other tmux process here.
import { execFile } from 'node:child_process';
import { tmuxClientEnv } from '../shared/env-policy.js';

export const TMUX_RUN_LIMITS = {
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
  /** `tmux -L <socket>`; null = the user's default server. */
  socket: string | null;
  /** Written to tmux's stdin (for `load-buffer -`). */
  input?: string;
  timeoutMs?: number;
  /** The tmux binary; default `tmux` from PATH. */
  binary?: string;
}

/**
 * tmux splits its own command line at any argument that ends in `;` (dropping the `;`), and turns a trailing `\;`
 * into `;`. So an argument that ends in `;` gets a backslash before that last `;`, and reaches the command intact.
 * Verified on tmux 3.3a: `x\;` → `x;`, `y\\;` → `y\;`.
 */
export function escapeTmuxArg(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

export function classifyTmuxError(stderr: string): TmuxFailureCode {
  // "server exited unexpectedly": the server went away while answering (its last session was just killed, or it
  // died) — either way no session of it exists any more.
  if (/no server running|error connecting to .*No such file or directory|server exited unexpectedly/i.test(stderr)) return 'no_server';
  // "no current target": the server is still up but holds no session (its last one was just killed and it has not
  // exited yet), so the target named cannot exist — seen under load between kill-session and the server's exit.
  if (/can't find (session|window|pane)|session not found|no such (session|window|pane)|no current target/i.test(stderr)) return 'not_found';
  return 'tmux_error';
}

/**
 * The argv of one tmux invocation running `commands` in order (joined by tmux's own `;`), every argument literal.
 * `-u` first: a client without a UTF-8 locale (a host's ssh session, a bare systemd unit) gets `-F` output with every
 * tab written as `_`, and the tab-separated pane lists would parse as empty — no pane found, no caller recognised.
 */
export function tmuxArgv(socket: string | null, commands: readonly (readonly string[])[]): string[] {
  const argv: string[] = socket === null ? ['-u'] : ['-u', '-L', socket];
  commands.forEach((cmd, i) => {
    if (i > 0) argv.push(';');
    for (const a of cmd) argv.push(escapeTmuxArg(a));
  });
  return argv;
}

/** Runs one tmux command. Every argument is passed as-is to tmux (see escapeTmuxArg). */
export function runTmux(args: readonly string[], options: TmuxRunOptions): Promise<TmuxResult> {
  return runTmuxChain([args], options);
}

/** Runs several commands in one tmux invocation, in order, before tmux's event loop runs again. */
export function runTmuxChain(commands: readonly (readonly string[])[], options: TmuxRunOptions): Promise<TmuxResult> {
  const binary = options.binary ?? 'tmux';
  const timeout = options.timeoutMs ?? TMUX_RUN_LIMITS.timeoutMs;
  // The shared policy: a server this command happens to start gets the inherited names only, never larkmux's own.
  const env = tmuxClientEnv(process.env);
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      tmuxArgv(options.socket, commands),
      { env, timeout, killSignal: 'SIGKILL', maxBuffer: TMUX_RUN_LIMITS.maxOutputBytes, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, stdout });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
        if (e.code === 'ENOENT') return resolve({ ok: false, code: 'tmux_missing', message: `${binary} is not installed or not on PATH` });
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
