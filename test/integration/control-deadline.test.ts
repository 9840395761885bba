// The control socket gives every request a deadline: past it the client gets a clear error, the handler's signal aborts
// (it lets go of what it holds), and other requests are answered all along (issue 31 item 2). A real unix socket.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { controlCall } from '../../src/platform/control-client.js';
import { ControlServer, type ControlHandlers } from '../../src/platform/control-server.js';
import { until } from '../support/until.js';

const never = () => new Promise<never>(() => undefined);

describe('control request deadlines', () => {
  let server: ControlServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    server = undefined;
  });

  async function serve(overrides: Partial<ControlHandlers>, deadlineMs: number): Promise<string> {
    dir = mkdtempSync(join(tmpdir(), 'lmx-ctl-'));
    const path = join(dir, 'control.sock');
    const handlers = { ping: () => ({ pong: true }), ...overrides } as ControlHandlers;
    server = new ControlServer(path, handlers, createLogger({ file: join(dir, 'log'), level: 'warn' }), { deadlineMs: (cmd) => (cmd === 'ping' ? 60_000 : deadlineMs) });
    await server.listen();
    return path;
  }

  it('a request that never finishes gets an error at its deadline, its signal aborts, and ping answers meanwhile', async () => {
    let signal: AbortSignal | undefined;
    const path = await serve({ status: (_req, s) => ((signal = s), never()) }, 2000);
    const stuck = controlCall(path, { cmd: 'status' }, 30_000);
    await until('the handler runs', () => signal);
    expect(await controlCall(path, { cmd: 'ping' })).toEqual({ ok: true, data: { pong: true } });
    expect(await stuck).toEqual({ ok: false, code: 'error', message: 'the daemon gave up on this request after 2 s' });
    expect(signal!.aborted).toBe(true);
  });

  it('a client that hangs up aborts its request at once', async () => {
    let signal: AbortSignal | undefined;
    const path = await serve({ status: (_req, s) => ((signal = s), never()) }, 60_000);
    const gaveUp = await controlCall(path, { cmd: 'status' }, 300);
    expect(gaveUp.ok).toBe(false);
    await until('the request is aborted', () => signal?.aborted);
  });
});
