// WebTerminalServer against a real tmux pane and a real WebSocket client: access modes, history, revocation, sizing, dispose.
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROXY_HEADERS, WEBTERM_CLOSE, parseServerFrame, type ClientFrame, type InfoMessage } from '../../src/shared/webterm-protocol.js';
import { WebTerminalServer, type WebAuditEntry } from '../../src/worker/webterm.js';
import { authorizeFromProxy } from '../../src/worker/webterm/authorize.js';
import { WEB_DIST, buildWebBundle, waitFor } from '../support/browser.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const NAME = 'lmx-0badc0de';
const SECRET = randomBytes(32).toString('base64url');
const quietLog = { info: () => {}, warn: () => {}, debug: () => {} };

let tmux: TestTmuxServer;
let home: TestHome;
let server: WebTerminalServer;
let port: number;
let audit: WebAuditEntry[];
const sockets: WebSocket[] = [];

beforeAll(() => buildWebBundle());
beforeEach(async () => {
  tmux = makeTmuxServer();
  home = makeTestHome('lmx-webi-');
  const res = await tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', NAME, '-x', '90', '-y', '25', '-e', 'PS1=$ ', 'bash', '--norc', '--noprofile']);
  expect(res.code).toBe(0);
  audit = [];
  server = new WebTerminalServer({
    tmuxSocket: tmux.socket, tmuxName: NAME, sessionId: 'sess-1', staticDir: WEB_DIST,
    authorize: authorizeFromProxy(SECRET), audit: (e) => audit.push(e), log: quietLog,
  });
  const started = await server.start();
  if (!started.ok) throw new Error(started.message);
  port = started.port;
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await server.dispose();
  await tmux.kill();
  home.cleanup();
});

function headers(access: 'read' | 'write' | null, secret = SECRET): Record<string, string> {
  const h: Record<string, string> = { [PROXY_HEADERS.secret]: secret };
  if (access) h[PROXY_HEADERS.access] = access;
  if (access === 'write') h[PROXY_HEADERS.user] = 'ou_dave';
  return h;
}

interface Client {
  ws: WebSocket;
  infos: InfoMessage[];
  histories: string[];
  output(): string;
  send(f: ClientFrame): void;
  closed: Promise<number>;
}

async function connect(access: 'read' | 'write', secret = SECRET): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: headers(access, secret) });
  sockets.push(ws);
  const infos: InfoMessage[] = [];
  const histories: string[] = [];
  const chunks: Buffer[] = [];
  ws.on('message', (data, isBinary) => {
    if (isBinary) chunks.push(data as Buffer);
    else {
      const p = parseServerFrame(String(data));
      if (p.ok && p.frame.t === 'info') infos.push(p.frame);
      if (p.ok && p.frame.t === 'history') histories.push(p.frame.text);
    }
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  await waitFor('info frame', () => infos.length > 0);
  return { ws, infos, histories, output: () => Buffer.concat(chunks).toString('utf8'), send: (f) => ws.send(JSON.stringify(f)), closed };
}

const display = async (fmt: string) => (await tmux.run(['display', '-p', '-t', NAME, fmt])).stdout.trim();

describe('WebTerminalServer', () => {
  it.each([
    ['no proxy secret', {}, 403],
    ['wrong proxy secret', headers('write', 'x'.repeat(43)), 403],
    ['secret but no access', headers(null), 403],
    ['read access', headers('read'), 200],
  ] as const)('HTTP with %s → %i', async (_name, h, status) => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: h });
    expect(res.status).toBe(status);
    if (status === 200) expect(await res.text()).toContain('<script src="main.js"');
  });

  it('refuses a WebSocket without the proxy secret', async () => {
    await expect(connect('write', 'y'.repeat(43))).rejects.toThrow('HTTP 403');
    expect(server.connectionCount).toEqual({ read: 0, write: 0 });
  });

  it('sizes clients to the window (plus status line), pins window-size manual, and follows a resize', async () => {
    const c = await connect('read');
    expect(c.infos[0]).toMatchObject({ t: 'info', readOnly: true, cols: 90, rows: 26 });
    expect(await display('#{window-size}')).toBe('manual');
    c.send({ t: 'hello', cols: 30, rows: 10 }); // a phone's size: never applied to the pane
    await tmux.run(['resize-window', '-t', NAME, '-x', '120', '-y', '40']);
    await server.refreshSize();
    await waitFor('new info frame', () => c.infos.length > 1);
    expect(c.infos.at(-1)).toMatchObject({ cols: 120, rows: 41 });
    expect(await display('#{window_width}x#{window_height}')).toBe('120x40');
    const clients = (await tmux.run(['list-clients', '-F', '#{client_termfeatures}|#{client_flags}'])).stdout;
    expect(clients).toContain('RGB'); // truecolor kept for this client
    expect(clients).toContain('read-only');
  });

  it('write clients type into the pane and are audited; read-only keystrokes are dropped', async () => {
    const file = join(home.dir, 'w.txt');
    const reader = await connect('read');
    reader.send({ t: 'in', d: `echo ro > ${file}-ro\r` });
    const writer = await connect('write');
    writer.send({ t: 'in', d: `echo rw > ${file}\r` });
    await waitFor('written by the write client', () => existsSync(file));
    expect(existsSync(`${file}-ro`)).toBe(false);
    expect(audit).toEqual([{ at: expect.any(String), event: 'web_write_connect', userId: 'ou_dave', sessionId: 'sess-1' }]);
    writer.ws.close();
    await waitFor('disconnect audited', () => audit.length === 2);
    expect(audit[1]).toMatchObject({ event: 'web_write_disconnect', userId: 'ou_dave' });
    expect(JSON.stringify(audit)).not.toContain('echo'); // no keystroke content
  });

  it('scrolling back reads the pane history for the page and sends nothing to the pane, even to a mouse-reporting app', async () => {
    await tmux.run(['send-keys', '-t', NAME, '-l', 'seq -f HIST-%g 1 300']);
    await tmux.run(['send-keys', '-t', NAME, 'Enter']);
    await waitFor('seq output', async () => (await tmux.run(['capture-pane', '-p', '-t', NAME])).stdout.includes('HIST-300'));
    const reader = await connect('read');
    reader.send({ t: 'in', d: 'typed-by-viewer' });
    reader.send({ t: 'history' });
    await waitFor('history answer', () => reader.histories.length > 0);
    const lines = (reader.histories[0] ?? '').split('\n');
    expect(lines).toContain('HIST-1'); // the scrollback, oldest first
    expect(lines.indexOf('HIST-1')).toBeLessThan(lines.indexOf('HIST-300'));
    expect(await display('#{pane_in_mode}')).toBe('0'); // the pane never entered copy mode

    const app = join(home.dir, 'mouse-app.cjs');
    const log = join(home.dir, 'mouse.log');
    writeFileSync(app, [
      "const fs = require('fs');",
      "process.stdout.write('\\x1b[?1049h\\x1b[?1000h\\x1b[?1006hMOUSE-APP-READY');",
      'process.stdin.setRawMode(true);',
      `process.stdin.on('data', (d) => fs.appendFileSync(${JSON.stringify(log)}, d));`,
    ].join('\n'));
    await tmux.run(['send-keys', '-t', NAME, '-l', `node ${app}`]);
    await tmux.run(['send-keys', '-t', NAME, 'Enter']);
    await waitFor('app in alt screen with mouse on', async () => (await display('#{alternate_on} #{mouse_sgr_flag}')) === '1 1');
    reader.send({ t: 'history' });
    await waitFor('second history answer', () => reader.histories.length > 1);
    expect(reader.histories[1]).toContain('MOUSE-APP-READY'); // what the pane shows now, as plain text
    reader.send({ t: 'in', d: 'typed-by-viewer' });
    const marker = await connect('write'); // a writer's keys arrive, so the viewer's would have by now
    marker.send({ t: 'in', d: 'W' });
    await waitFor('the writer key reached the app', () => existsSync(log));
    expect(readFileSync(log, 'latin1')).toBe('W'); // no wheel report and no viewer key ever reached the app
    expect(await display('#{pane_in_mode}')).toBe('0');
  });

  it('revokeWrites closes write connections only, with the revoked close code', async () => {
    const reader = await connect('read');
    const writer = await connect('write');
    expect(server.revokeWrites()).toBe(1);
    expect(await writer.closed).toBe(WEBTERM_CLOSE.revoked);
    expect(server.connectionCount).toEqual({ read: 1, write: 0 });
    expect(reader.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('dispose closes every connection and ends every tmux client it started; the pane lives on', async () => {
    const a = await connect('read');
    await connect('write');
    await waitFor('two tmux clients', async () => (await tmux.run(['list-clients'])).stdout.trim().split('\n').length === 2);
    await server.dispose();
    expect(await a.closed).toBe(WEBTERM_CLOSE.shutdown);
    await waitFor('no tmux clients left', async () => (await tmux.run(['list-clients'])).stdout.trim() === '');
    expect((await tmux.run(['has-session', '-t', NAME])).code).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/`, { headers: headers('read') })).rejects.toThrow();
  });
});
