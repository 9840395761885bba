// PipePaneObserver: `tmux pipe-pane -O` into a FIFO, drained continuously and decoded as UTF-8, never blocking the pane.
import { execFile } from 'node:child_process';
import { constants as fsConstants, mkdir, open, unlink } from 'node:fs';
import { dirname } from 'node:path';
import { Socket } from 'node:net';
import { promisify } from 'node:util';
import type { TmuxResult } from '../../platform/tmux-runner.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import { escapeTmuxFormat, type TmuxClient } from './tmux-client.js';
import { listenOn, type BackendResult, type Disposable, type ObserverClosed } from './types.js';
import { fail, OK } from './types.js';
import { Utf8Stream } from './utf8-stream.js';

const openAsync = promisify(open);
const mkdirAsync = promisify(mkdir);
const unlinkAsync = promisify(unlink);
const execFileAsync = promisify(execFile);

export const OBSERVER_LIMITS = {
  /**
   * A consumer that pause()s the observer for longer than this has fallen behind: the pipe is closed. While the
   * reader is paused tmux keeps everything the pane prints in its own memory, without limit (notes §5: +17 MB of
   * server RSS for 17 MB of output, never given back). At the ~20 MB/s a flooding pane reaches here, 2 s bounds that
   * to about 40 MB; a CLI printing at human rates buffers a few KB. The consumer re-attaches and resyncs by capture.
   */
  stallTimeoutMs: 2_000,
} as const;

export interface PaneObserver {
  readonly attached: boolean;
  attach(): Promise<BackendResult>;
  openReader(): Promise<BackendResult<string[]>>;
  confirmPipe(res: TmuxResult): Promise<BackendResult>;
  onText(listener: (text: string) => void): Disposable;
  onClosed(listener: (closed: ObserverClosed) => void): Disposable;
  /** Backpressure from the consumer; a pause longer than stallTimeoutMs closes the pipe (reason `stalled`). */
  pause(): void;
  resume(): void;
  detach(): Promise<void>;
  dispose(): Promise<void>;
}

export interface PipePaneObserverOptions {
  client: TmuxClient;
  /** A pane target, e.g. `=lmx-0123abcd:`. */
  target: string;
  /** Where the FIFO lives: `larkmuxPaths(home).fifo(sessionId)`. */
  fifoPath: string;
  stallTimeoutMs?: number;
}

export class PipePaneObserver implements PaneObserver {
  private readonly textListeners = new Set<(text: string) => void>();
  private readonly closedListeners = new Set<(closed: ObserverClosed) => void>();
  private readonly decoder = new Utf8Stream();
  private socket: Socket | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private closingReason: ObserverClosed | null = null;
  private disposed = false;

  constructor(private readonly options: PipePaneObserverOptions) {}

  get attached(): boolean {
    return this.socket !== null;
  }

  /** (Re)creates the FIFO, opens its read side without blocking, and points the pane's pipe at it (replacing any). */
  async attach(): Promise<BackendResult> {
    const opened = await this.openReader();
    if (!opened.ok) return opened;
    const res = await this.options.client.run(opened.value);
    return this.confirmPipe(res);
  }

  /**
   * First half of attach(): the FIFO and its reader. Returns the `pipe-pane` command for the caller to run, so it can
   * be chained right after `new-session` and the CLI's first byte is observed. Then call confirmPipe() with its result.
   */
  async openReader(): Promise<BackendResult<string[]>> {
    if (this.disposed) throw new Error('PipePaneObserver used after dispose');
    await this.closeReader(null);
    const { fifoPath, target } = this.options;
    let fd: number;
    try {
      await mkdirAsync(dirname(fifoPath), { recursive: true, mode: 0o700 });
      await unlinkAsync(fifoPath).catch(() => undefined);
      await execFileAsync('mkfifo', ['-m', '600', '--', fifoPath]);
      // O_NONBLOCK: a blocking open would hold a libuv pool thread until tmux's `cat` opens the write side.
      fd = await openAsync(fifoPath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    } catch (err) {
      return fail('observer_failed', `cannot create the output FIFO ${fifoPath}: ${(err as Error).message}`);
    }
    // A net.Socket reads the pipe through epoll on the main loop: no pool thread, 64 KiB reads, no copies added.
    const socket = new Socket({ fd, readable: true, writable: false });
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.deliver(this.decoder.write(chunk)));
    socket.on('error', (err) => { this.closingReason ??= { reason: 'error', message: err.message }; });
    socket.on('close', () => this.onSocketClosed(socket));
    // Without -o, pipe-pane closes an existing pipe first: re-attaching replaces it. The command runs under /bin/sh
    // and is format-expanded, hence both escapes; the path is ours, but LARKMUX_HOME may hold any character.
    return { ok: true, value: ['pipe-pane', '-O', '-t', target, escapeTmuxFormat(`exec cat > ${quoteShellArg(fifoPath)}`)] };
  }

  /** Second half of attach(): on a failed pipe-pane, the reader and FIFO are removed again. */
  async confirmPipe(res: TmuxResult): Promise<BackendResult> {
    if (res.ok) return OK;
    await this.closeReader(null);
    await unlinkAsync(this.options.fifoPath).catch(() => undefined);
    const unreachable = res.code === 'timeout' || res.code === 'tmux_missing' || res.code === 'no_server';
    return fail(unreachable ? 'tmux_unavailable' : 'observer_failed', `pipe-pane failed: ${res.message}`);
  }

  onText(listener: (text: string) => void): Disposable {
    return listenOn(this.textListeners, listener);
  }

  onClosed(listener: (closed: ObserverClosed) => void): Disposable {
    return listenOn(this.closedListeners, listener);
  }

  pause(): void {
    const socket = this.socket;
    if (!socket || this.stallTimer) return;
    socket.pause();
    const ms = this.options.stallTimeoutMs ?? OBSERVER_LIMITS.stallTimeoutMs;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = null;
      if (this.socket !== socket) return;
      const stalled: ObserverClosed = { reason: 'stalled', message: `the output consumer was paused for over ${ms} ms; the pane pipe was closed so tmux stops buffering` };
      this.closingReason = stalled;
      // Only the pipe we paused: if a re-attach replaced it meanwhile, the new one is left alone.
      void this.stopPipe().then(() => (this.socket === socket ? this.closeReader(stalled) : undefined));
    }, ms);
  }

  resume(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
    this.socket?.resume();
  }

  /** Closes the pane's pipe and our FIFO; the CLI keeps running. */
  async detach(): Promise<void> {
    // Our read side first, so the pipe's EOF is not reported as the pane closing it.
    const hadPipe = this.socket !== null;
    await this.closeReader(null);
    if (hadPipe) await this.stopPipe();
    await unlinkAsync(this.options.fifoPath).catch(() => undefined);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.detach();
    this.disposed = true;
    this.textListeners.clear();
    this.closedListeners.clear();
  }

  private deliver(text: string): void {
    if (text.length === 0) return;
    for (const listener of this.textListeners) listener(text);
  }

  private async stopPipe(): Promise<void> {
    // `pipe-pane` with no command closes the pane's pipe; failure means the pane or server is gone already.
    await this.options.client.run(['pipe-pane', '-t', this.options.target]);
  }

  /** Closes our read side; `reason` null = we asked for it, so nobody is told. */
  private async closeReader(reason: ObserverClosed | null): Promise<void> {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    this.closingReason = reason;
    if (socket.closed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }

  private onSocketClosed(socket: Socket): void {
    this.deliver(this.decoder.end());
    const wasCurrent = this.socket === socket;
    if (wasCurrent) this.socket = null;
    if (this.stallTimer && wasCurrent) { clearTimeout(this.stallTimer); this.stallTimer = null; }
    const reason = wasCurrent
      ? this.closingReason ?? { reason: 'pipe_closed' as const, message: 'the pane closed its output pipe (pane exited, session killed, or another observer took over)' }
      : this.closingReason;
    this.closingReason = null;
    if (reason) for (const listener of this.closedListeners) listener(reason);
  }
}
