// A long-lived tmux control-mode client (`tmux -C attach -f ignore-size,no-output`) that runs commands without a process per call,
// and the exec runner (one `tmux` per command). The worker captures through the exec runner: a control client attaching
// can crash the whole tmux server (see runtime/display.ts); the control client stays for `bench -- render`'s comparison.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { runTmuxChain } from '../../platform/tmux-runner.js';
import { tmuxClientEnv } from '../../shared/env-policy.js';

/** A control-mode answer: the command's output lines (the exec runner's TmuxResult carries stdout instead). */
export type TmuxLinesResult =
  | { ok: true; lines: string[] }
  | { ok: false; code: 'command-failed' | 'closed' | 'spawn-failed' | 'timeout' | 'bad-argument'; message: string };

/** Anything that can run one tmux command (argv, without the `tmux` and socket words). */
export interface TmuxCommandRunner {
  run(command: readonly string[]): Promise<TmuxLinesResult>;
  /** Runs several commands in one write / round trip; one result per command, in order. */
  runMany(commands: readonly (readonly string[])[]): Promise<TmuxLinesResult[]>;
  dispose(): void;
}

export interface TmuxControlOptions {
  /** tmux `-L` socket name; omitted = the default server. */
  socket?: string;
  /** Session to attach to (the control client needs one; it never changes its size thanks to ignore-size). */
  session: string;
  tmuxBin?: string;
}

export const TMUX_CONTROL_LIMITS = {
  /** A command that has not answered in this long means the server is wedged; fail it rather than hang the worker. */
  commandTimeoutMs: 10_000,
  /** Attaching normally answers in ~5 ms here; a missing session or server answers with %exit well before this. */
  attachTimeoutMs: 5_000,
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

export function tmuxCommandLine(command: readonly string[]): string | null {
  if (command.length === 0) return null;
  const parts: string[] = [];
  for (const arg of command) {
    const q = quoteTmuxArg(arg);
    if (q === null) return null;
    parts.push(q);
  }
  return parts.join(' ');
}

interface Pending {
  resolve(r: TmuxLinesResult): void;
  timer: NodeJS.Timeout;
}

interface OpenBlock {
  key: string; // "<time> <number>"
  ours: boolean;
  lines: string[];
}

const BLOCK_LINE = /^%(begin|end|error) (\d+) (\d+) (\d+)$/;

export class TmuxControlClient implements TmuxCommandRunner {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private block: OpenBlock | null = null;
  private closedReason: string | null = null;
  private readonly readyPromise: Promise<TmuxLinesResult>;
  private markReady!: (r: TmuxLinesResult) => void;
  private attached = false;

  private constructor(opts: TmuxControlOptions) {
    const argv = [...(opts.socket ? ['-L', opts.socket] : []), '-C', 'attach', '-t', opts.session, '-f', 'ignore-size,no-output'];
    // The shared policy (no TMUX: attaching from inside tmux is refused as "nested" otherwise).
    const env = tmuxClientEnv(process.env);
    this.readyPromise = new Promise((resolve) => (this.markReady = resolve));
    this.child = spawn(opts.tmuxBin ?? 'tmux', argv, { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', () => {}); // drained; tmux writes nothing useful here in control mode
    this.child.stdin.on('error', () => {}); // EPIPE after death is handled by 'exit'
    this.child.on('error', (err) => this.close(`spawn failed: ${err.message}`));
    this.child.on('exit', (code, signal) => this.close(`tmux control client exited (${signal ?? code})`));
  }

  /** Starts a client and waits until tmux has answered the attach; a missing session or server is a result value. */
  static async start(opts: TmuxControlOptions): Promise<{ ok: true; client: TmuxControlClient } | { ok: false; code: string; message: string }> {
    const client = new TmuxControlClient(opts);
    const timer = setTimeout(() => client.close('attach timed out'), TMUX_CONTROL_LIMITS.attachTimeoutMs);
    const r = await client.readyPromise;
    clearTimeout(timer);
    if (!r.ok) {
      client.dispose();
      return { ok: false, code: 'attach-failed', message: r.message };
    }
    return { ok: true, client };
  }

  get alive(): boolean {
    return this.closedReason === null;
  }

  run(command: readonly string[]): Promise<TmuxLinesResult> {
    return this.runMany([command]).then((r) => r[0]!);
  }

  runMany(commands: readonly (readonly string[])[]): Promise<TmuxLinesResult[]> {
    if (this.closedReason !== null) {
      const message = this.closedReason;
      return Promise.resolve(commands.map(() => ({ ok: false as const, code: 'closed' as const, message })));
    }
    const lines: string[] = [];
    for (const c of commands) {
      const line = tmuxCommandLine(c);
      if (line === null) {
        return Promise.resolve(commands.map(() => ({ ok: false as const, code: 'bad-argument' as const, message: 'empty command or line break in an argument' })));
      }
      lines.push(line);
    }
    // One line per command (never a `;` chain): a failing command in a chain silently drops the rest of it,
    // which would leave a waiter without its %end block.
    const results = commands.map(
      () =>
        new Promise<TmuxLinesResult>((resolve) => {
          const pending: Pending = {
            resolve,
            timer: setTimeout(() => this.close('command timed out'), TMUX_CONTROL_LIMITS.commandTimeoutMs),
          };
          this.queue.push(pending);
        }),
    );
    this.child.stdin.write(lines.join('\n') + '\n');
    return Promise.all(results);
  }

  private onData(chunk: Buffer): void {
    const text = this.partial + this.decoder.write(chunk);
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.onLine(line);
  }

  private onLine(line: string): void {
    if (this.block) {
      const m = BLOCK_LINE.exec(line);
      // Pane text may itself contain "%end ..." lines: only the guard with the same time and number closes the block.
      if (m && m[1] !== 'begin' && `${m[2]} ${m[3]}` === this.block.key) {
        const block = this.block;
        this.block = null;
        this.finishBlock(block, m[1] === 'end');
        return;
      }
      this.block.lines.push(line);
      return;
    }
    const m = BLOCK_LINE.exec(line);
    if (m && m[1] === 'begin') {
      const flags = Number(m[4]);
      this.block = { key: `${m[2]} ${m[3]}`, ours: (flags & 1) === 1, lines: [] };
      return;
    }
    if (line.startsWith('%exit')) this.close(`tmux control client got ${line}`);
    // Other notifications (%session-changed, %window-add, ...) are not needed here.
  }

  private finishBlock(block: OpenBlock, ok: boolean): void {
    if (!block.ours) {
      // The first block (flags 0) answers the attach itself.
      if (!this.attached) {
        this.attached = true;
        this.markReady(ok ? { ok: true, lines: [] } : { ok: false, code: 'command-failed', message: block.lines.join('\n') });
      }
      return;
    }
    const pending = this.queue.shift();
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.resolve(ok ? { ok: true, lines: block.lines } : { ok: false, code: 'command-failed', message: block.lines.join('\n') });
  }

  private close(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    this.markReady({ ok: false, code: 'closed', message: reason });
    for (const p of this.queue.splice(0)) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, code: 'closed', message: reason });
    }
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }

  dispose(): void {
    if (this.closedReason === null) this.child.stdin.end();
    this.close('disposed');
  }
}

/** One `tmux` process per call (12–48 ms each here, ~45x slower than control mode); the worker's capture runner. */
export class TmuxExecRunner implements TmuxCommandRunner {
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
      const bad: TmuxLinesResult = { ok: false, code: 'command-failed', message: `tmux printed ${parts.length - 1} of ${commands.length - 1} split markers` };
      return commands.map(() => bad);
    }
    return parts.map((lines) => ({ ok: true, lines }));
  }

  private async runChain(chain: readonly (readonly string[])[]): Promise<TmuxLinesResult> {
    const res = await runTmuxChain(chain, { socket: this.opts.socket ?? null, timeoutMs: TMUX_CONTROL_LIMITS.commandTimeoutMs, ...(this.opts.tmuxBin ? { binary: this.opts.tmuxBin } : {}) });
    if (!res.ok) return { ok: false, code: res.code === 'timeout' ? 'timeout' : 'command-failed', message: res.message };
    const lines = res.stdout.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return { ok: true, lines };
  }

  dispose(): void {}
}

/** Control mode when it attaches, else the exec fallback (reported so the caller can log it once). */
export async function connectTmux(opts: TmuxControlOptions): Promise<{ runner: TmuxCommandRunner; mode: 'control' | 'exec'; reason?: string }> {
  const started = await TmuxControlClient.start(opts);
  if (started.ok) return { runner: started.client, mode: 'control' };
  return { runner: new TmuxExecRunner({ socket: opts.socket, tmuxBin: opts.tmuxBin }), mode: 'exec', reason: started.message };
}
