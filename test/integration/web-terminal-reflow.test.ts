// Fit-to-width on a real tmux pane: a write page reflows the shared pane to its size and the pane's size comes back when it leaves.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROXY_HEADERS, parseServerFrame, type ClientFrame, type InfoMessage } from '../../src/shared/webterm-protocol.js';
import { WebTerminalServer } from '../../src/worker/webterm.js';
import { authorizeFromProxy } from '../../src/worker/webterm/authorize.js';
import { WEB_DIST, waitFor } from '../support/browser.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const NAME = 'lmx-0f17f17e';
const SECRET = randomBytes(32).toString('base64url');
const quietLog = { info: () => {}, warn: () => {}, debug: () => {} };

let tmux: TestTmuxServer;
let server: WebTerminalServer;
let port: number;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  tmux = makeTmuxServer();
  const res = await tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', NAME, '-x', '120', '-y', '40', 'bash', '--norc', '--noprofile']);
  expect(res.code).toBe(0);
  server = new WebTerminalServer({
    tmuxSocket: tmux.socket, tmuxName: NAME, staticDir: WEB_DIST, authorize: authorizeFromProxy(SECRET), audit: () => {}, log: quietLog,
  });
  const started = await server.start();
  if (!started.ok) throw new Error(started.message);
  port = started.port;
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await server.dispose();
  await tmux.kill();
});

interface Page {
  infos: InfoMessage[];
  send(f: ClientFrame): void;
  close(): Promise<void>;
}

async function open(access: 'read' | 'write'): Promise<Page> {
  const headers: Record<string, string> = { [PROXY_HEADERS.secret]: SECRET, [PROXY_HEADERS.access]: access };
  if (access === 'write') headers[PROXY_HEADERS.user] = 'ou_phone';
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
  sockets.push(ws);
  const infos: InfoMessage[] = [];
  ws.on('message', (data, isBinary) => {
    const p = isBinary ? null : parseServerFrame(String(data));
    if (p?.ok && p.frame.t === 'info') infos.push(p.frame);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await waitFor('info frame', () => infos.length > 0);
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  return { infos, send: (f) => ws.send(JSON.stringify(f)), close: () => (ws.close(), closed) };
}

const windowSize = async () => (await tmux.run(['display', '-p', '-t', NAME, '#{window_width}x#{window_height}'])).stdout.trim();
const DEADLINE = 20_000;

describe('fit-to-width', () => {
  it('a write page reflows the pane to its size, every page follows, and the size comes back when it leaves', async () => {
    const viewer = await open('read');
    const phone = await open('write');
    expect(phone.infos[0]).toMatchObject({ cols: 120, rows: 41 });
    phone.send({ t: 'fit', on: true, cols: 46, rows: 38 });
    await waitFor('pane at the phone size', async () => (await windowSize()) === '46x37', DEADLINE);
    // Both pages are told the new client size (window + status line).
    await waitFor('phone info', () => phone.infos.at(-1)?.cols === 46, DEADLINE);
    await waitFor('viewer info', () => viewer.infos.at(-1)?.cols === 46, DEADLINE);
    expect(viewer.infos.at(-1)).toMatchObject({ cols: 46, rows: 38 });
    await phone.close();
    await waitFor('pane size restored', async () => (await windowSize()) === '120x40', DEADLINE);
    await waitFor('viewer back at the pane size', () => viewer.infos.at(-1)?.cols === 120, DEADLINE);
  });

  it("fit off restores at once; the newest of two phones wins and the first one's size is kept until both leave", async () => {
    const a = await open('write');
    const b = await open('write');
    a.send({ t: 'fit', on: true, cols: 40, rows: 30 });
    await waitFor('a applied', async () => (await windowSize()) === '40x29', DEADLINE);
    b.send({ t: 'fit', on: true, cols: 50, rows: 20 });
    await waitFor('b applied', async () => (await windowSize()) === '50x19', DEADLINE);
    b.send({ t: 'fit', on: false });
    await waitFor('a again', async () => (await windowSize()) === '40x29', DEADLINE);
    a.send({ t: 'fit', on: false });
    await waitFor('restored', async () => (await windowSize()) === '120x40', DEADLINE);
  });

  it('a view-only page can never resize the shared pane', async () => {
    const viewer = await open('read');
    viewer.send({ t: 'fit', on: true, cols: 30, rows: 20 });
    viewer.send({ t: 'hello', cols: 30, rows: 20 });
    // A write page's later no-op proves the frames before it were handled (one socket each, handled in order per page).
    const writer = await open('write');
    writer.send({ t: 'fit', on: false });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await windowSize()).toBe('120x40');
  });

  it('the pane gets its size back when the worker stops while a phone still fits it', async () => {
    const phone = await open('write');
    phone.send({ t: 'fit', on: true, cols: 44, rows: 30 });
    await waitFor('fitted', async () => (await windowSize()) === '44x29', DEADLINE);
    await server.dispose();
    expect(await windowSize()).toBe('120x40');
  });
});
