// The worker's web terminal: HTTP (the bundled page) + WebSocket on 127.0.0.1, one tmux attach per browser.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { IPtyForkOptions } from '@lydell/node-pty';
import type { WebSocketServer, WebSocket } from 'ws';
import { WEBTERM_CLOSE, WEBTERM_LIMITS, type FitRequest } from '../shared/webterm-protocol.js';
import type { Authorize, TerminalAccess } from './webterm/authorize.js';
import { WebTermConnection } from './webterm/connection.js';
import { PaneReflow } from './webterm/reflow.js';
import { StaticFiles } from './webterm/static-files.js';
import {
  TmuxPaneControl, attachArgs, execTmuxRunner, tmuxClientEnv, type ClientSize, type TmuxRunner,
} from './webterm/tmux-pane.js';


export const WEBTERM_TIMING = {
  /** How often the window size is re-read while browsers are connected: a `resize` is rare, 2 s of lag is fine. */
  sizePollMs: 2_000,
  /** How long dispose() waits for tmux clients to exit after SIGHUP before moving on. */
  disposeWaitMs: 2_000,
} as const;

export interface WebAuditEntry {
  at: string;
  event: 'web_write_connect' | 'web_write_disconnect';
  userId: string;
  sessionId: string;
}

export interface WebTermLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface WebTerminalOptions {
  /** tmux -L socket name; null = the default server. */
  tmuxSocket: string | null;
  /** The tmux session (`lmx-…`) to show. */
  tmuxName: string;
  /** Session id for audit entries (defaults to tmuxName). */
  sessionId?: string;
  /** Folder of the bundled page: dist/web (index.html, main.js, main.css, style.css). */
  staticDir: string;
  /** Prefix of the page's file names in staticDir (`web-` in the flat worker bundle on another host); default none. */
  staticPrefix?: string;
  /** Decides every HTTP request and WebSocket upgrade; null = 403. Use authorizeFromProxy(secret) behind WebProxy. */
  authorize: Authorize;
  /** One call per write connection opened or closed (who and when — never what was typed). */
  audit(entry: WebAuditEntry): void;
  log: WebTermLog;
  /** Injected for tests; defaults to execFile('tmux'). */
  runTmux?: TmuxRunner;
  now?: () => number;
}

/** What only a connecting browser needs: the WebSocket server and the pty that runs its `tmux attach`. */
interface SocketDeps {
  wss: WebSocketServer;
  spawnPty: typeof import('@lydell/node-pty').spawn;
}

export type StartResult = { ok: true; port: number } | { ok: false; code: 'listen_failed'; message: string };
export type SocketStartResult = { ok: true; socketPath: string } | { ok: false; code: 'listen_failed'; message: string };

export class WebTerminalServer {
  private readonly http: Server;
  /** Loaded on the first upgrade: most sessions never open a web terminal, and an idle worker pays for every module. */
  private socketDeps: Promise<SocketDeps> | null = null;
  private readonly pane: TmuxPaneControl;
  private readonly reflow: PaneReflow;
  private readonly files: StaticFiles;
  private readonly connections = new Set<WebTermConnection>();
  private readonly exits = new Set<Promise<void>>();
  private pinned = false;
  private sizeTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  private listeningPort: number | null = null;
  private socketPath: string | null = null;

  constructor(private readonly opts: WebTerminalOptions) {
    this.pane = new TmuxPaneControl(opts.runTmux ?? execTmuxRunner(opts.tmuxSocket), opts.tmuxName);
    this.reflow = new PaneReflow(this.pane, (message) => this.opts.log.warn({ tmuxName: this.opts.tmuxName, message }, 'web terminal: fit-to-width failed'));
    this.files = new StaticFiles(opts.staticDir, opts.staticPrefix);
    this.http = createServer((req, res) => {
      const access = this.opts.authorize(req);
      if (!access) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      void this.files.serve(pathOf(req), res, req.method === 'HEAD');
    });
    this.http.on('upgrade', (req, socket) => void this.upgrade(req, socket).catch((err: unknown) => {
      // One browser's failed connection never takes the worker (and its session's turn) down with it.
      this.opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'web terminal: a connection failed');
      socket.destroy();
    }));
  }

  /** Listens on 127.0.0.1 at an ephemeral port (only the daemon's proxy connects). */
  start(): Promise<StartResult> {
    return new Promise((resolve) => {
      this.http.once('error', (e) => resolve({ ok: false, code: 'listen_failed', message: e.message }));
      this.http.listen(0, '127.0.0.1', () => {
        this.listeningPort = (this.http.address() as AddressInfo).port;
        resolve({ ok: true, port: this.listeningPort });
      });
    });
  }

  /**
   * Listens on a unix socket at `path` instead (a worker on another host: no TCP listener there), 0600 from its
   * creation. A socket left by a worker that died is replaced; any other file there is an error, never removed.
   */
  startOnSocket(path: string): Promise<SocketStartResult> {
    try {
      if (lstatSync(path, { throwIfNoEntry: false })?.isSocket()) unlinkSync(path);
    } catch (e) {
      return Promise.resolve({ ok: false, code: 'listen_failed', message: (e as Error).message });
    }
    return new Promise((resolve) => {
      this.http.once('error', (e) => resolve({ ok: false, code: 'listen_failed', message: e.message }));
      // The umask covers the bind (it happens inside listen(), synchronously): no moment where the socket is open to others.
      const mask = process.umask(0o177);
      try {
        this.http.listen(path, () => {
          chmodSync(path, 0o600);
          this.socketPath = path;
          resolve({ ok: true, socketPath: path });
        });
      } finally {
        process.umask(mask);
      }
    });
  }

  /**
   * The socket file goes now, synchronously (a worker about to exit cannot wait for dispose(); a socket left on disk
   * would outlive it). Nothing for a TCP listener.
   */
  removeSocketFile(): void {
    const path = this.socketPath;
    if (path && lstatSync(path, { throwIfNoEntry: false })?.isSocket()) unlinkSync(path);
  }

  get port(): number | null {
    return this.listeningPort;
  }

  get connectionCount(): { read: number; write: number } {
    let read = 0;
    for (const c of this.connections) if (c.readOnly) read++;
    return { read, write: this.connections.size - read };
  }

  /** Closes every open write connection (grants revoked). Returns how many were closed. */
  revokeWrites(): number {
    let n = 0;
    for (const c of [...this.connections]) {
      if (c.readOnly) continue;
      c.close(WEBTERM_CLOSE.revoked, 'write access revoked');
      n++;
    }
    return n;
  }

  /** Re-reads the window size and resizes every client to it (call after the worker resized the window). */
  async refreshSize(): Promise<void> {
    if (this.connections.size === 0) return;
    const size = await this.pane.clientSize();
    if (size) for (const c of this.connections) c.resize(size);
  }

  private async upgrade(req: IncomingMessage, socket: Duplex): Promise<void> {
    const access = this.disposed ? null : this.opts.authorize(req);
    if (!access || pathOf(req) !== '/ws') {
      socket.end(`HTTP/1.1 ${access ? '404 Not Found' : '403 Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const size = await this.prepare();
    if (!size || this.disposed) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const deps = await this.loadSocketDeps().catch((err: unknown) => {
      this.socketDeps = null; // the next browser tries again
      this.opts.log.warn({ err }, 'web terminal: cannot load the WebSocket and pty modules');
      return null;
    });
    if (!deps || this.disposed) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    deps.wss.handleUpgrade(req, socket, Buffer.alloc(0), (ws) => this.accept(deps, ws, access, size));
  }

  private loadSocketDeps(): Promise<SocketDeps> {
    this.socketDeps ??= Promise.all([import('ws'), import('@lydell/node-pty')]).then(([ws, pty]) => ({
      wss: new ws.WebSocketServer({ noServer: true, maxPayload: WEBTERM_LIMITS.frameChars * 4 }),
      // Bundled (scripts/build-worker.mjs), node-pty's CommonJS exports come as the namespace's default.
      spawnPty: pty.spawn ?? (pty as unknown as { default: typeof pty }).default.spawn,
    }));
    return this.socketDeps;
  }

  /** Before the first attach: pin the window size so no browser ever resizes the pane. */
  private async prepare(): Promise<ClientSize | null> {
    if (!this.pinned) {
      // Confinement is not optional: a browser's tmux client that could use the prefix key could reach other sessions.
      for (const step of [() => this.pane.pinWindowSize(), () => this.pane.confine()]) {
        const res = await step();
        if (!res.ok) {
          this.opts.log.warn({ tmuxName: this.opts.tmuxName, message: res.message }, 'web terminal: cannot prepare the tmux session');
          return null;
        }
      }
      this.pinned = true;
    }
    return this.pane.clientSize();
  }

  private accept(deps: SocketDeps, ws: WebSocket, access: TerminalAccess, size: ClientSize): void {
    const readOnly = access.mode === 'read';
    const child = deps.spawnPty('tmux', attachArgs(this.opts.tmuxSocket, this.opts.tmuxName, readOnly), {
      name: 'xterm-256color',
      cols: size.cols,
      rows: size.rows,
      env: tmuxClientEnv(),
      encoding: null,
    } as IPtyForkOptions);
    const exited: Promise<void> = new Promise<void>((resolve) => child.onExit(() => resolve())).then(() => void this.exits.delete(exited));
    this.exits.add(exited);
    const conn = new WebTermConnection({
      ws,
      access,
      pty: child,
      size,
      history: () => this.history(),
      fit: (c, req) => void this.fit(c, req),
      onClosed: (c) => this.closed(c),
      log: this.opts.log,
    });
    this.connections.add(conn);
    if (access.mode === 'write') this.auditWrite('web_write_connect', access.userId);
    this.opts.log.info({ tmuxName: this.opts.tmuxName, mode: access.mode }, 'web terminal: client connected');
    this.startSizePoll();
  }

  /** A write page's fit-to-width: the pane takes its size (newest page wins), then every page follows the new size. */
  private async fit(conn: WebTermConnection, req: FitRequest): Promise<void> {
    if (this.disposed || conn.readOnly) return;
    if (req.on && req.cols !== undefined && req.rows !== undefined) await this.reflow.request(conn, { cols: req.cols, rows: req.rows });
    else await this.reflow.release(conn);
    await this.refreshSize();
  }

  private closed(conn: WebTermConnection): void {
    if (!this.connections.delete(conn)) return;
    // The pane's own size comes back when the last fitting write page leaves (a phone must not leave it phone-sized).
    if (!this.disposed) void this.reflow.release(conn).then(() => this.refreshSize());
    if (conn.access.mode === 'write') this.auditWrite('web_write_disconnect', conn.access.userId);
    this.opts.log.info({ tmuxName: this.opts.tmuxName, mode: conn.access.mode, droppedFrames: conn.dropped }, 'web terminal: client disconnected');
    if (this.connections.size === 0) this.stopSizePoll();
  }

  private auditWrite(event: WebAuditEntry['event'], userId: string): void {
    const at = new Date((this.opts.now ?? Date.now)()).toISOString();
    this.opts.audit({ at, event, userId, sessionId: this.opts.sessionId ?? this.opts.tmuxName });
  }

  /** Scrolling back in a page reads the pane's history; the pane itself (copy mode, scroll position) is never touched. */
  private async history(): Promise<string | null> {
    if (this.disposed) return null;
    const res = await this.pane.history();
    if (!res.ok) this.opts.log.debug({ message: res.message }, 'web terminal: history failed');
    return res.ok ? res.stdout : null;
  }

  private startSizePoll(): void {
    if (this.sizeTimer) return;
    this.sizeTimer = setInterval(() => void this.refreshSize(), WEBTERM_TIMING.sizePollMs);
    this.sizeTimer.unref();
  }

  private stopSizePoll(): void {
    if (this.sizeTimer) clearInterval(this.sizeTimer);
    this.sizeTimer = null;
  }

  /** Closes every connection, kills every tmux client it started, and stops listening. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.stopSizePoll();
    for (const c of [...this.connections]) c.close(WEBTERM_CLOSE.shutdown, 'server stopping');
    await this.reflow.releaseAll(); // the tmux session outlives this worker: give it back its own size
    const waitExits = Promise.all([...this.exits]);
    await Promise.race([waitExits, new Promise((r) => setTimeout(r, WEBTERM_TIMING.disposeWaitMs).unref())]);
    if (this.socketDeps) (await this.socketDeps).wss.close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
