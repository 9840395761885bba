// The one way larkmux runs `tmux` as a process, for the daemon, the worker and the CLI alike (issue 11): argv arrays
// only (never a shell), `-L <socket>` when set, the environment policy of src/shared/env-policy.ts, a timeout, and
// failures as values of one result type. The platform layer sits below daemon, worker and cli and above src/shared:
// Node effects that more than one side needs live here, so neither side imports the other.
// Not here: the interactive attach client under a pty (worker/webterm.ts) — a tmux client of another kind, started
// with the same env policy. Lint (scripts/eslint/one-tmux-runner.js) keeps every other tmux process here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
  /**
   * A long-lived launcher to start this tmux client from (TmuxLauncher: cheaper than a fork of this process). A call
   * it cannot carry (stdin input, an argument with a line break) or made after its disposal runs as its own process.
   */
  launcher?: TmuxLauncher;
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
  const argv = tmuxArgv(options.socket, commands);
  const launcher = options.launcher;
  if (launcher && options.input === undefined && TmuxLauncher.carries([binary, ...argv])) {
    return launcher.run([binary, ...argv], timeout).then((r) => {
      if (r === 'unavailable') return runTmuxChain(commands, { ...options, launcher: undefined });
      if (r === 'timeout') return timedOut(commands, timeout);
      if (r === 'overflow') return tooMuchOutput(commands);
      if (r === 'lost') return { ok: false, code: 'tmux_error', message: `the shell starting tmux ${commands[0]?.[0] ?? ''} exited before it answered` };
      if (r.status === 0) return { ok: true, stdout: r.stdout };
      if (r.status === TmuxLauncher.notFoundStatus) return missing(binary);
      const text = r.stderr.trim() || `tmux exited with status ${r.status}`;
      return { ok: false, code: classifyTmuxError(text), message: text };
    });
  }
  // The shared policy: a server this command happens to start gets the inherited names only, never larkmux's own.
  const env = tmuxClientEnv(process.env);
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      argv,
      { env, timeout, killSignal: 'SIGKILL', maxBuffer: TMUX_RUN_LIMITS.maxOutputBytes, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve({ ok: true, stdout });
        const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
        if (e.code === 'ENOENT') return resolve(missing(binary));
        // Node ends a client that writes more than maxBuffer; the launcher's path says the same words for it.
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return resolve(tooMuchOutput(commands));
        if (e.killed || e.signal === 'SIGKILL') return resolve(timedOut(commands, timeout));
        const text = stderr.trim() || e.message;
        return resolve({ ok: false, code: classifyTmuxError(text), message: text });
      },
    );
    child.stdin?.on('error', () => { /* tmux exited before reading stdin; the exit callback reports it */ });
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

const missing = (binary: string): TmuxResult => ({ ok: false, code: 'tmux_missing', message: `${binary} is not installed or not on PATH` });

const tooMuchOutput = (commands: readonly (readonly string[])[]): TmuxResult =>
  ({ ok: false, code: 'tmux_error', message: `tmux ${commands[0]?.[0] ?? ''} wrote more than ${TMUX_RUN_LIMITS.maxOutputBytes / 2 ** 20} MB` });

const timedOut = (commands: readonly (readonly string[])[], timeout: number): TmuxResult =>
  ({ ok: false, code: 'timeout', message: `tmux ${commands[0]?.[0] ?? ''} did not answer within ${timeout} ms` });

/** What a launcher hands back for one tmux client: its exit status and output, or why it has none. */
type LaunchResult =
  | { status: number; stdout: string; stderr: string }
  | 'timeout'
  /** The client wrote more than TMUX_RUN_LIMITS.maxOutputBytes: it was killed with the shell. */
  | 'overflow'
  /** No shell to run it (disposed, or it could not start): the call was not run. */
  | 'unavailable'
  /** The shell died during the call: the client may or may not have run, so it is not run again. */
  | 'lost';

/**
 * The launcher's loop (POSIX sh). Per call: a line with a fresh random mark, a line with the argument count, one
 * argument per line; the arguments are run as they are ("$@": never parsed by the shell). Then the mark and the exit
 * status on stdout and the mark on stderr: a client's output may hold any byte, but cannot hold a mark made after it
 * started. A closed stdin (its owner is gone) ends the loop.
 */
const LAUNCHER_LOOP = [
  'while IFS= read -r mark && IFS= read -r n; do',
  '  set --',
  '  while [ "$n" -gt 0 ]; do IFS= read -r a || exit 0; set -- "$@" "$a"; n=$((n - 1)); done',
  '  "$@" </dev/null',
  '  printf \'%s %s\\n\' "$mark" "$?"',
  '  printf \'%s\\n\' "$mark" >&2',
  'done',
].join('\n');

/**
 * Reads one call's part of a launcher's stream: the bytes before the call's mark are the client's; the mark ends
 * them, and the line it starts (up to its newline) is the shell's word after it. Exported for its unit test.
 */
export class MarkedStream {
  private readonly parts: Buffer[] = [];
  /** Before the mark: the last bytes held (fewer than the mark's length), where a mark split over two chunks starts. */
  private tail: Buffer = Buffer.alloc(0);
  /** After the mark: the bytes seen since it. */
  private seen: Buffer = Buffer.alloc(0);
  private output: Buffer | null = null;
  /** Bytes held before the mark came. */
  private held = 0;
  /** The text between the mark and its newline, once the newline came. */
  trailer: string | null = null;

  constructor(private readonly mark: Buffer) {}

  push(chunk: Buffer): void {
    if (this.output === null) {
      const markAt = this.findMark(chunk);
      if (markAt < 0) {
        this.parts.push(chunk);
        this.held += chunk.length;
        const keep = this.mark.length - 1;
        this.tail = chunk.length >= keep ? chunk.subarray(chunk.length - keep) : Buffer.concat([this.tail, chunk]).subarray(-keep);
        return;
      }
      const all = Buffer.concat([...this.parts, chunk]);
      this.output = all.subarray(0, markAt);
      this.seen = all.subarray(markAt + this.mark.length);
    } else this.seen = Buffer.concat([this.seen, chunk]);
    const end = this.seen.indexOf(0x0a);
    if (end >= 0) this.trailer = this.seen.subarray(0, end).toString('latin1').trim();
  }

  /**
   * Where the mark starts, counted from the first byte held, or -1. Only a window of under twice the mark's length is
   * copied (a mark that began in the bytes held before this chunk); the chunk itself is searched where it lies.
   */
  private findMark(chunk: Buffer): number {
    if (this.tail.length > 0) {
      const straddle = Buffer.concat([this.tail, chunk.subarray(0, this.mark.length - 1)]).indexOf(this.mark);
      if (straddle >= 0) return this.held - this.tail.length + straddle;
    }
    const at = chunk.indexOf(this.mark);
    return at < 0 ? -1 : this.held + at;
  }

  /** More output than a client may write (execFile's maxBuffer on the other path) and no mark yet. */
  get overflowed(): boolean {
    return this.held > TMUX_RUN_LIMITS.maxOutputBytes;
  }

  text(): string {
    return (this.output ?? Buffer.alloc(0)).toString('utf8');
  }
}

/**
 * A small long-lived shell that starts tmux clients for this process, one at a time. Node starts a child by forking
 * itself (libuv on Linux), and copying the page tables of a 50-200 MB process costs more than tmux's own work:
 * measured on a 120x40 capture, execFile took 2.6 ms from a bare Node, 3.6 ms with 60 MB more mapped and 5.5 ms with
 * 200 MB, and the same command started by this shell 1.8 ms at every size. A worker captures its pane for every frame
 * of a running turn, so its capture runner keeps one (one `sh` of ~1 MB per worker).
 * The environment is the env policy's, taken when the shell starts. The shell and a client it started are one
 * process group: a client that does not answer in time is killed with the shell, and the next call starts another.
 */
export class TmuxLauncher {
  /** The shell's status for a program it could not find. */
  static readonly notFoundStatus = 127;
  private child: ChildProcess | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  /** The shell's pid while it runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether an argv can go through the launcher: one argument per line, so none may hold a line break. */
  static carries(argv: readonly string[]): boolean {
    return argv.every((a) => !/[\r\n]/.test(a));
  }

  /** Runs argv (the program first) once the calls before it are done. */
  run(argv: readonly string[], timeoutMs: number): Promise<LaunchResult> {
    const next = this.queue.then(() => this.runNow(argv, timeoutMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the shell (and a client it is running); later calls run as their own processes. */
  dispose(): void {
    this.disposed = true;
    this.kill();
  }

  private runNow(argv: readonly string[], timeoutMs: number): Promise<LaunchResult> {
    const child = this.disposed ? null : (this.child ?? this.start());
    if (!child || !child.stdin || !child.stdout || !child.stderr) return Promise.resolve('unavailable');
    const { stdin, stdout, stderr } = child;
    const mark = `larkmux-launch-${randomBytes(12).toString('hex')}`;
    const out = new MarkedStream(Buffer.from(mark));
    const err = new MarkedStream(Buffer.from(mark));
    return new Promise<LaunchResult>((resolve) => {
      const finish = (r: LaunchResult) => {
        clearTimeout(timer);
        stdout.off('data', onOut);
        stderr.off('data', onErr);
        child.off('exit', onExit);
        if (r === 'timeout' || r === 'overflow' || r === 'lost') this.kill();
        resolve(r);
      };
      const settle = () => {
        if (out.overflowed || err.overflowed) return finish('overflow');
        if (out.trailer === null || err.trailer === null) return;
        finish(/^\d+$/.test(out.trailer) ? { status: Number(out.trailer), stdout: out.text(), stderr: err.text() } : 'lost');
      };
      const onOut = (c: Buffer) => { out.push(c); settle(); };
      const onErr = (c: Buffer) => { err.push(c); settle(); };
      const onExit = () => finish('lost');
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      stdout.on('data', onOut);
      stderr.on('data', onErr);
      child.once('exit', onExit);
      stdin.write(`${mark}\n${argv.length}\n${argv.map((a) => `${a}\n`).join('')}`);
    });
  }

  private start(): ChildProcess {
    // detached: its own process group, so a hung client dies with it. Unref'd (and its pipes): a call in flight holds
    // the process up through its timer, an idle launcher never does; a closed stdin ends its loop when we exit.
    const child = spawn('/bin/sh', ['-c', LAUNCHER_LOOP], { env: tmuxClientEnv(process.env), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.on('error', () => { if (this.child === child) this.child = null; });
    child.on('exit', () => { if (this.child === child) this.child = null; });
    child.stdin?.on('error', () => { /* the shell is gone; its exit ends the call in flight */ });
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
    this.child = child;
    return child;
  }

  private kill(): void {
    const child = this.child;
    this.child = null;
    if (!child?.pid) return;
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}
