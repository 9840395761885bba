// One browser connection: its own tmux client in a pty, pane output to the socket, checked frames back to tmux.
import type { IPty } from '@lydell/node-pty';
import type { WebSocket, RawData } from 'ws';
import {
  WEBTERM_CLOSE, WEBTERM_PROTOCOL_VERSION, encodeFrame, parseClientFrame, type FitRequest,
} from '../../shared/webterm-protocol.js';
import type { TerminalAccess } from './authorize.js';
import { FrameBudget } from './frame-budget.js';
import type { ClientSize } from './tmux-pane.js';

/** Flow control by watermarks (as ttyd does): stop reading tmux while the browser is this far behind. */
export const CONNECTION_LIMITS = {
  /** 1 MiB unsent: several full redraws; a slow phone link should not make the worker buffer without bound. */
  pauseAboveBytes: 1_048_576,
  /** Resume once most of it has gone out. */
  resumeBelowBytes: 131_072,
} as const;

export interface ConnectionDeps {
  ws: WebSocket;
  access: TerminalAccess;
  pty: IPty;
  size: ClientSize;
  /** The pane's history as plain text (capture-pane; never changes the pane), or null when tmux failed. */
  history(): Promise<string | null>;
  /** Fit-to-width from a write connection (read-only connections never get here: they must not resize the shared pane). */
  fit(conn: WebTermConnection, req: FitRequest): void;
  onClosed(conn: WebTermConnection): void;
  log: { debug(obj: object, msg: string): void };
}

export class WebTermConnection {
  readonly access: TerminalAccess;
  private readonly ws: WebSocket;
  private readonly pty: IPty;
  private size: ClientSize;
  private paused = false;
  private closed = false;
  private readonly budget = new FrameBudget();
  private historyBusy = false;
  /** Frames dropped: invalid, over the frame budget, keys on a read-only connection, history while one is pending. */
  dropped = 0;

  constructor(private readonly deps: ConnectionDeps) {
    this.ws = deps.ws;
    this.pty = deps.pty;
    this.access = deps.access;
    this.size = deps.size;
    this.sendInfo();
    this.pty.onData((chunk) => this.forward(chunk as unknown as Buffer | string));
    this.pty.onExit(() => this.close(WEBTERM_CLOSE.paneGone, 'terminal ended'));
    this.ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.ws.on('close', () => this.close());
    this.ws.on('error', () => this.close());
  }

  get readOnly(): boolean {
    return this.access.mode === 'read';
  }

  private sendInfo(): void {
    this.ws.send(encodeFrame({ t: 'info', protocol: WEBTERM_PROTOCOL_VERSION, readOnly: this.readOnly, ...this.size }));
  }

  /** The pane's window changed size: follow it (never the other way round). */
  resize(size: ClientSize): void {
    if (this.closed || (size.cols === this.size.cols && size.rows === this.size.rows)) return;
    this.size = size;
    try {
      this.pty.resize(size.cols, size.rows);
    } catch {
      return; // the pty is already gone; its exit closes us
    }
    this.sendInfo();
  }

  private forward(chunk: Buffer | string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(chunk, { binary: true }, () => {
      if (this.paused && this.ws.bufferedAmount < CONNECTION_LIMITS.resumeBelowBytes) {
        this.paused = false;
        this.pty.resume();
      }
    });
    if (!this.paused && this.ws.bufferedAmount > CONNECTION_LIMITS.pauseAboveBytes) {
      this.paused = true;
      this.pty.pause();
    }
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (isBinary || !this.budget.take()) {
      this.dropped++;
      return;
    }
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const parsed = parseClientFrame(text);
    if (!parsed.ok) {
      this.dropped++;
      this.deps.log.debug({ reason: parsed.reason }, 'web terminal: invalid frame dropped');
      return;
    }
    const frame = parsed.frame;
    switch (frame.t) {
      case 'history':
        this.sendHistory();
        return;
      case 'in':
        // Read-only clients may scroll and nothing else; tmux -r would ignore the keys too, but they never get there.
        if (this.readOnly) this.dropped++;
        else this.pty.write(frame.d);
        return;
      case 'fit':
        if (this.readOnly) this.dropped++;
        else this.deps.fit(this, frame);
        return;
      case 'hello':
        return; // informative only: only an explicit fit from a write page resizes the pane
    }
  }

  /** One history answer at a time per connection: requests while one is being read are dropped. */
  private sendHistory(): void {
    if (this.historyBusy) {
      this.dropped++;
      return;
    }
    this.historyBusy = true;
    void this.deps.history().then((text) => {
      this.historyBusy = false;
      if (text !== null && !this.closed && this.ws.readyState === this.ws.OPEN) this.ws.send(encodeFrame({ t: 'history', text }));
    });
  }

  /** Ends the connection: closes the socket (with a code the page explains) and kills this client's tmux attach. */
  close(code: number = WEBTERM_CLOSE.shutdown, reason = ''): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
    try {
      this.pty.kill();
    } catch {
      // already exited
    }
    this.deps.onClosed(this);
  }
}
