// The daemon's local control socket (LARKMUX_HOME/run/control.sock, mode 0600): JSON lines from the `larkmux` command.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { Logger } from '../../platform/log.js';
import { CONTROL_MAX_LINE, ControlRequestSchema, type ControlCommand, type ControlRequest, type ControlResponse } from '../../shared/control-protocol.js';

export type ControlHandlers = {
  [C in ControlCommand]: (req: Extract<ControlRequest, { cmd: C }>) => Promise<unknown> | unknown;
};

export class ControlServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly path: string,
    private readonly handlers: ControlHandlers,
    private readonly log: Logger,
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
  }

  private accept(sock: Socket): void {
    this.sockets.add(sock);
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
        if (line.trim()) void this.handleLine(sock, line);
      }
    });
    sock.on('error', () => sock.destroy());
    sock.on('close', () => this.sockets.delete(sock));
  }

  private async handleLine(sock: Socket, line: string): Promise<void> {
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
    try {
      const handler = this.handlers[req.cmd] as (r: ControlRequest) => Promise<unknown> | unknown;
      const data = await handler(req);
      this.reply(sock, { id: req.id, ok: true, data: data ?? null });
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
    if (existsSync(this.path)) {
      try {
        unlinkSync(this.path);
      } catch {
        /* already gone */
      }
    }
  }
}
