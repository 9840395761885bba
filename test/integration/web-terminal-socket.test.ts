// A worker on another host serves its web terminal on a unix socket (WebTerminalServer.startOnSocket): 0600 from the
// start, a leftover socket of a dead worker replaced, any other file at the path refused and left alone, the socket
// gone when the server is; the page comes from the bundle's own web-* copy (a host has no dist/web). Real tmux pane.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROXY_HEADERS } from '../../src/shared/webterm-protocol.js';
import { WebTerminalServer } from '../../src/worker/webterm.js';
import { authorizeFromProxy } from '../../src/worker/webterm/authorize.js';
import { WEB_DIST, buildWebBundle } from '../support/browser.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const NAME = 'lmx-50c4e700';
const SECRET = randomBytes(32).toString('base64url');
const quietLog = { info: () => {}, warn: () => {}, debug: () => {} };

let tmux: TestTmuxServer;
let dir: string;
let flat: string;
const servers: WebTerminalServer[] = [];

beforeAll(() => buildWebBundle());
beforeEach(async () => {
  tmux = makeTmuxServer();
  dir = mkdtempSync(join(tmpdir(), 'lmx-wsock-'));
  // The page as the worker bundle carries it: flat, web-* (scripts/build-worker.mjs).
  flat = mkdtempSync(join(tmpdir(), 'lmx-wflat-'));
  for (const f of ['index.html', 'main.js', 'main.css', 'style.css']) copyFileSync(join(WEB_DIST, f), join(flat, `web-${f}`));
  expect((await tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', NAME, 'bash', '--norc', '--noprofile'])).code).toBe(0);
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.dispose()));
  await tmux.kill();
  for (const d of [dir, flat]) rmSync(d, { recursive: true, force: true });
});

function server(): WebTerminalServer {
  const s = new WebTerminalServer({
    tmuxSocket: tmux.socket, tmuxName: NAME, staticDir: flat, staticPrefix: 'web-',
    authorize: authorizeFromProxy(SECRET), audit: () => {}, log: quietLog,
  });
  servers.push(s);
  return s;
}

function get(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, headers: { [PROXY_HEADERS.secret]: SECRET, [PROXY_HEADERS.access]: 'read' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

describe('the web terminal on a unix socket', () => {
  it('listens 0600 and serves the bundle\'s own page; the socket goes with the server', async () => {
    const path = join(dir, 'web-1.sock');
    const s = server();
    const res = await s.startOnSocket(path);
    expect(res).toEqual({ ok: true, socketPath: path });
    expect(lstatSync(path).isSocket()).toBe(true);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    const page = await get(path, '/');
    expect(page.status).toBe(200);
    expect(page.body).toBe(readFileSync(join(WEB_DIST, 'index.html'), 'utf8'));
    expect((await get(path, '/main.js')).body.length).toBe(readFileSync(join(WEB_DIST, 'main.js')).length);
    expect(s.port).toBeNull();
    await s.dispose();
    expect(existsSync(path)).toBe(false);
  });

  it('replaces a socket left by a worker that died, and refuses a file that is no socket without touching it', async () => {
    const left = join(dir, 'web-2.sock');
    // A worker killed while listening: its socket stays on disk with nothing behind it.
    const script = `require('node:net').createServer().listen(${JSON.stringify(left)}, () => process.kill(process.pid, 'SIGKILL'))`;
    spawnSync(process.execPath, ['-e', script]);
    expect(lstatSync(left).isSocket()).toBe(true);
    expect((await server().startOnSocket(left)).ok).toBe(true);
    expect((await get(left, '/')).status).toBe(200);

    const file = join(dir, 'web-3.sock');
    writeFileSync(file, 'someone else\'s');
    const res = await server().startOnSocket(file);
    expect(res.ok).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('someone else\'s');
  });
});
