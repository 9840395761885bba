// A control socket (mode 0600): JSON lines from the `larkmux` command. The daemon's (LARKMUX_HOME/run/control.sock)
// answers every command; a host agent's (run/pane-control.sock on the host) answers `where` and `send` from its panes.
import { chmodSync, existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { withDeadline } from './deadline.js';
import { CONTROL_MAX_LINE, ControlRequestSchema, controlDeadlineMs, type ControlCommand, type ControlRequest, type ControlResponse } from '../shared/control-protocol.js';

/** What the server logs through: the daemon's pino logger, or a host agent's line writer. */
export interface ControlLog {
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

/** `signal` aborts when the request's deadline passes or its client goes away: a handler then lets go of what it holds. */
export type ControlHandlers = {
  [C in ControlCommand]: (req: Extract<ControlRequest, { cmd: C }>, signal: AbortSignal) => Promise<unknown> | unknown;
};

export interface ControlServerOptions {
  /** The deadline of a request (tests shorten it); by default CONTROL_DEADLINES_MS. */
  deadlineMs?: (cmd: ControlCommand) => number;
}

export class ControlServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** The socket file's inode once listening: dispose removes the file only while it is still this server's. */
  private inode: number | null = null;

  constructor(
    private readonly path: string,
    private readonly handlers: ControlHandlers,
    private readonly log: ControlLog,
    private readonly opts: ControlServerOptions = {},
  ) {}

  async listen(): Promise<void> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    // Only one daemon runs per home (the pid lock is taken first), so a leftover socket file is stale.
    if (existsSync(this.path)) unlinkSync(this.path);
    const server = createServer((sock) => this.accept(sock));
    this.server = server;
    const oldMask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.path, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } finally {
      process.umask(oldMask);
    }
    chmodSync(this.path, 0o600);
    this.inode = statSync(this.path).ino;
  }

  private accept(sock: Socket): void {
    this.sockets.add(sock);
    // Whatever the client's requests still hold is let go of when it hangs up (it no longer waits for the answer).
    const gone = new AbortController();
    sock.setEncoding('utf8');
    let buf = '';
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > CONTROL_MAX_LINE && !buf.includes('\n')) {
        this.reply(sock, { id: -1, ok: false, error: 'request too long' });
        sock.destroy();
        return;
      }
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) void this.handleLine(sock, line, gone.signal);
      }
    });
    sock.on('error', () => sock.destroy());
    sock.on('close', () => {
      this.sockets.delete(sock);
      gone.abort();
    });
  }

  private async handleLine(sock: Socket, line: string, clientGone: AbortSignal): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.reply(sock, { id: -1, ok: false, error: 'request is not JSON' });
      return;
    }
    const parsed = ControlRequestSchema.safeParse(raw);
    const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : -1;
    if (!parsed.success) {
      this.reply(sock, { id, ok: false, error: `invalid request: ${parsed.error.issues[0]?.message ?? 'unknown'}` });
      return;
    }
    const req = parsed.data;
    const deadlineMs = (this.opts.deadlineMs ?? controlDeadlineMs)(req.cmd);
    const expired = new AbortController();
    const signal = AbortSignal.any([expired.signal, clientGone]);
    try {
      const handler = this.handlers[req.cmd] as (r: ControlRequest, s: AbortSignal) => Promise<unknown> | unknown;
      const work = Promise.resolve().then(() => handler(req, signal)).then((data) => ({ data }));
      const outcome = await withDeadline(work, deadlineMs, () => ({ late: true as const }));
      if ('late' in outcome) {
        expired.abort();
        // The handler may still settle later; nobody waits for it, and a late failure must not go unhandled.
        work.catch(() => undefined);
        this.log.warn({ cmd: req.cmd, deadlineMs }, 'control request passed its deadline; its client got an error');
        this.reply(sock, { id: req.id, ok: false, error: `the daemon gave up on this request after ${deadlineMs / 1000} s` });
        return;
      }
      this.reply(sock, { id: req.id, ok: true, data: outcome.data ?? null });
    } catch (err) {
      this.log.error({ err, cmd: req.cmd }, 'control command failed');
      this.reply(sock, { id: req.id, ok: false, error: (err as Error).message });
    }
  }

  private reply(sock: Socket, res: ControlResponse): void {
    if (!sock.destroyed) sock.write(`${JSON.stringify(res)}\n`);
  }

  async dispose(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    // A host agent that outlives its link (detaching its workers) may have been replaced by the next one, which
    // listens on the same path: that one's socket stays.
    try {
      if (statSync(this.path).ino === this.inode) unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}
