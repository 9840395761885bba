// The `larkmux` command's side of the control socket: one request, one JSON line back, with a timeout.
import { connect } from 'node:net';
import { ControlResponseSchema, type ControlRequest } from '../shared/control-protocol.js';

export type ControlCallResult = { ok: true; data: unknown } | { ok: false; code: 'not_running' | 'timeout' | 'error'; message: string };

type RequestBody = ControlRequest extends infer R ? (R extends ControlRequest ? Omit<R, 'id'> : never) : never;

export function controlCall(socketPath: string, req: RequestBody, timeoutMs = 5000): Promise<ControlCallResult> {
  return new Promise((resolve) => {
    const sock = connect(socketPath);
    let buf = '';
    let done = false;
    const finish = (r: ControlCallResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, code: 'timeout', message: 'the daemon did not answer in time' }), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ id: 1, ...req })}\n`));
    sock.on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      let raw: unknown;
      try {
        raw = JSON.parse(buf.slice(0, nl));
      } catch {
        finish({ ok: false, code: 'error', message: 'the daemon sent an unreadable answer' });
        return;
      }
      const res = ControlResponseSchema.safeParse(raw);
      if (!res.success) finish({ ok: false, code: 'error', message: 'the daemon sent an unexpected answer' });
      else if (res.data.ok) finish({ ok: true, data: res.data.data });
      else finish({ ok: false, code: 'error', message: res.data.error });
    });
    sock.on('error', (err: NodeJS.ErrnoException) => {
      const notRunning = err.code === 'ENOENT' || err.code === 'ECONNREFUSED';
      finish({ ok: false, code: notRunning ? 'not_running' : 'error', message: notRunning ? 'the daemon is not running' : err.message });
    });
    sock.on('close', () => finish({ ok: false, code: 'error', message: 'the daemon closed the connection' }));
  });
}
