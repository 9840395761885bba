// The fake long-connection gateway: tickets, pbbp2 websocket sessions, ping→pong, event push (fragmented), ACKs.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeFrame, encodeFrame, headerValue, type Frame } from './pbbp2.js';
import { hexId } from './envelopes.js';

/** ClientConfig values are seconds (the SDK multiplies by 1000); fractions work. */
export interface ClientConfig {
  PingInterval: number;
  ReconnectCount: number;
  ReconnectInterval: number;
  ReconnectNonce: number;
}

export interface AckResult {
  /** 200 when the handler succeeded, 500 when it threw. */
  code: number;
  /** The handler's return value, decoded from the ACK's base64 JSON (card callbacks: toast/card). */
  response?: unknown;
  /** The biz_rt header the SDK adds (≤ 0 in SDK 1.74, a quirk). */
  bizRt?: string;
}

interface Delivery {
  appId: string;
  frameMessageId: string;
  payload: Uint8Array;
  redeliver: boolean;
  resolve: (ack: AckResult | null) => void;
  timer: NodeJS.Timeout;
  conn?: Conn;
  seqId: number;
}

interface Conn {
  ws: WebSocket;
  appId: string;
  serviceId: number;
  /**
   * Events are pushed only after the client's first ping: the SDK attaches its message listener a tick after
   * 'open', so frames sent straight after the upgrade could be lost (the platform behaves the same way).
   */
  ready: boolean;
}

export interface HubOptions {
  clientConfig: () => ClientConfig;
  /** Payloads longer than this are split into `sum` fragments. */
  fragmentBytes: number;
}

export class WsHub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Map<string, { appId: string; serviceId: number }>();
  private readonly conns = new Set<Conn>();
  private readonly queue: Delivery[] = [];
  private readonly inFlight = new Map<string, Delivery>();
  private seq = 1;
  /** Every ACK the SDK sent, in arrival order. */
  readonly acks: Array<AckResult & { appId: string; frameMessageId: string }> = [];
  pingsReceived = 0;
  connectionsOpened = 0;

  constructor(private readonly opts: HubOptions) {}

  /** Issues the URL that POST /callback/ws/endpoint returns (device_id/service_id deliberately not first). */
  issueUrl(baseWsUrl: string, appId: string): string {
    const ticket = hexId(12);
    const serviceId = 100000 + Math.floor(Math.random() * 800000);
    this.tickets.set(ticket, { appId, serviceId });
    return `${baseWsUrl}/ws/v2?fpid=493&aid=${encodeURIComponent(appId)}&device_id=${hexId(8)}&access_key=${hexId(16)}&service_id=${serviceId}&ticket=${ticket}`;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const ticket = this.tickets.get(url.searchParams.get('ticket') ?? '');
    if (url.pathname !== '/ws/v2' || !ticket) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, ticket.appId, ticket.serviceId));
  }

  private onConnection(ws: WebSocket, appId: string, serviceId: number): void {
    const conn: Conn = { ws, appId, serviceId, ready: false };
    this.conns.add(conn);
    this.connectionsOpened += 1;
    ws.on('message', (data: Buffer) => this.onFrame(conn, data));
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.conns.delete(conn);
      for (const d of [...this.inFlight.values()]) {
        if (d.conn !== conn) continue;
        this.inFlight.delete(d.frameMessageId);
        d.conn = undefined;
        if (d.redeliver) this.queue.push(d);
        else { clearTimeout(d.timer); d.resolve(null); }
      }
      this.flush();
    });
    this.flush();
  }

  private onFrame(conn: Conn, data: Buffer): void {
    let frame: Frame;
    try {
      frame = decodeFrame(new Uint8Array(data));
    } catch {
      return;
    }
    const type = headerValue(frame, 'type');
    if (frame.method === 0 && type === 'ping') {
      this.pingsReceived += 1;
      const pong: Frame = {
        SeqID: 0, LogID: 0, service: conn.serviceId, method: 0,
        headers: [{ key: 'type', value: 'pong' }],
        payload: new TextEncoder().encode(JSON.stringify(this.opts.clientConfig())),
      };
      conn.ws.send(encodeFrame(pong));
      if (!conn.ready) {
        conn.ready = true;
        this.flush();
      }
      return;
    }
    if (frame.method === 1) {
      const id = headerValue(frame, 'message_id') ?? '';
      const d = this.inFlight.get(id);
      if (!d) return;
      this.inFlight.delete(id);
      clearTimeout(d.timer);
      let ack: AckResult = { code: 0 };
      try {
        const body = JSON.parse(new TextDecoder().decode(frame.payload ?? new Uint8Array())) as { code: number; data?: string };
        ack = { code: body.code, bizRt: headerValue(frame, 'biz_rt') };
        if (body.data) ack.response = JSON.parse(Buffer.from(body.data, 'base64').toString('utf8'));
      } catch {
        ack = { code: -1 };
      }
      this.acks.push({ ...ack, appId: d.appId, frameMessageId: id });
      d.resolve(ack);
    }
  }

  /**
   * Pushes one event payload to a connection of the app (a random one, as the platform does).
   * Resolves with the ACK, or null when none came within ackTimeoutMs. With `redeliver`, an event whose
   * connection dropped before the ACK is sent again on the next connection (the platform retries).
   */
  deliver(appId: string, payload: Uint8Array, opts: { ackTimeoutMs: number; redeliver: boolean }): Promise<AckResult | null> {
    return new Promise((resolve) => {
      const d: Delivery = {
        appId, payload, redeliver: opts.redeliver, resolve,
        frameMessageId: `fm_${hexId(10)}`,
        seqId: this.seq++,
        timer: setTimeout(() => {
          this.inFlight.delete(d.frameMessageId);
          const i = this.queue.indexOf(d);
          if (i >= 0) this.queue.splice(i, 1);
          resolve(null);
        }, opts.ackTimeoutMs),
      };
      this.queue.push(d);
      this.flush();
    });
  }

  private flush(): void {
    for (let i = 0; i < this.queue.length; ) {
      const d = this.queue[i]!;
      const candidates = [...this.conns].filter((c) => c.appId === d.appId && c.ready && c.ws.readyState === c.ws.OPEN);
      if (candidates.length === 0) { i++; continue; }
      this.queue.splice(i, 1);
      const conn = candidates[Math.floor(Math.random() * candidates.length)]!;
      d.conn = conn;
      this.inFlight.set(d.frameMessageId, d);
      this.sendFragments(conn, d);
    }
  }

  private sendFragments(conn: Conn, d: Delivery): void {
    const size = Math.max(1, this.opts.fragmentBytes);
    const sum = Math.max(1, Math.ceil(d.payload.length / size));
    const traceId = hexId(8);
    for (let seq = 0; seq < sum; seq++) {
      const frame: Frame = {
        SeqID: d.seqId, LogID: d.seqId, service: conn.serviceId, method: 1,
        headers: [
          { key: 'type', value: 'event' },
          { key: 'message_id', value: d.frameMessageId },
          { key: 'sum', value: String(sum) },
          { key: 'seq', value: String(seq) },
          { key: 'trace_id', value: traceId },
        ],
        payload: d.payload.subarray(seq * size, (seq + 1) * size),
      };
      conn.ws.send(encodeFrame(frame));
    }
  }

  connectionCount(appId?: string): number {
    return [...this.conns].filter((c) => !appId || c.appId === appId).filter((c) => c.ready && c.ws.readyState === c.ws.OPEN).length;
  }

  dropConnections(appId?: string): void {
    for (const c of [...this.conns]) if (!appId || c.appId === appId) c.ws.terminate();
  }

  close(): void {
    for (const d of [...this.queue, ...this.inFlight.values()]) { clearTimeout(d.timer); d.resolve(null); }
    this.queue.length = 0;
    this.inFlight.clear();
    for (const c of this.conns) c.ws.terminate();
    this.wss.close();
  }
}
