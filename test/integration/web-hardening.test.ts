// Issue 13 (web side), from outside: the real proxy, a real worker web server, real tmux, real WebSockets. One block
// per finding: 4 (view links cannot disturb the session), 5 (Secure cookie), 6 (a write grant reaches its own session
// only), 10 (a write link is spent only by a deliberate POST), 12b (missing and forbidden look the same).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WEB_PROXY_LIMITS, WebProxy } from '../../src/daemon/web/web-proxy.js';
import { WebGrants } from '../../src/daemon/web/web-grants.js';
import { parseServerFrame } from '../../src/shared/webterm-protocol.js';
import { PANE, buildWebBundle, startWebStack, waitFor, type WebStack } from '../support/browser.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const S1 = '4d'.repeat(16);
const S2 = '5e'.repeat(16);
const UNKNOWN = '6f'.repeat(16);
const OTHER_MARK = 'OTHER-SESSION-CONTENT-7319';

let tmux: TestTmuxServer;
let home: TestHome;
let stack: WebStack;
const sockets: WebSocket[] = [];

beforeAll(() => buildWebBundle());
beforeEach(async () => {
  tmux = makeTmuxServer();
  home = makeTestHome('lmx-webh-');
  stack = await startWebStack({ tmux, home: home.dir, sessionIds: [S1, S2] });
  await tmux.run(['send-keys', '-t', stack.target(S2), '-l', `echo ${OTHER_MARK.replace('7319', '$((7300+19))')}`]);
  await tmux.run(['send-keys', '-t', stack.target(S2), 'Enter']);
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await stack?.dispose();
  await tmux?.kill();
  home?.cleanup();
});

interface Conn {
  ws: WebSocket;
  output(): string;
  histories: string[];
  closed: Promise<number>;
  send(frame: unknown): void;
}

/** Opens the page's WebSocket through the proxy, as a browser on the proxy's own origin would. */
function openSocket(path: string, cookie?: string, from: { localAddress?: string; forwardedFor?: string } = {}): Promise<Conn> {
  const origin = stack.baseUrl;
  const headers = { origin, ...(cookie ? { cookie } : {}), ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}) };
  const ws = new WebSocket(`${stack.baseUrl.replace('http', 'ws')}${path}`, { headers, ...(from.localAddress ? { localAddress: from.localAddress } : {}) });
  sockets.push(ws);
  const chunks: Buffer[] = [];
  const histories: string[] = [];
  ws.on('message', (data, binary) => {
    if (binary) return void chunks.push(data as Buffer);
    const p = parseServerFrame(String(data));
    if (p.ok && p.frame.t === 'history') histories.push(p.frame.text);
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, histories, closed, output: () => Buffer.concat(chunks).toString('utf8'), send: (f) => ws.send(JSON.stringify(f)) }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const viewPath = (id: string, token = stack.grants.viewToken(id)) => `/s/${id}/ws?v=${token}`;

/** A write cookie for `user` (the exchange itself is finding 10's test; here only what the grant reaches matters). */
async function writeCookie(id: string, user: string): Promise<string> {
  const res = stack.grants.exchangeWriteLink(id, stack.grants.issueWriteLink(id, user).token);
  if (!res.ok) throw new Error(res.code);
  return `lmx_write=${res.cookieValue}`;
}

const display = async (id: string, fmt: string) => (await tmux.run(['display', '-p', '-t', stack.target(id), fmt])).stdout.trim();
const paneText = async (id: string) => (await tmux.run(['capture-pane', '-p', '-t', stack.target(id)])).stdout;

describe('finding 4: a view link cannot disturb the session', () => {
  it('a flood of scroll and key frames never puts the pane in copy mode, and the worker stays responsive', async () => {
    await tmux.run(['send-keys', '-t', stack.target(S1), '-l', 'seq 1 300']);
    await tmux.run(['send-keys', '-t', stack.target(S1), 'Enter']);
    await waitFor('seq output', async () => (await paneText(S1)).includes('300'));
    const viewer = await openSocket(viewPath(S1));
    for (let i = 0; i < 2000; i++) {
      viewer.send({ t: 'wheel', dir: 'up', n: 50 }); // what pages sent before: scroll the shared pane
      viewer.send({ t: 'history' });
      viewer.send({ t: 'in', d: 'x' });
    }
    // A writer's keys arrive after the flood: when they have run, every flood frame has been handled or dropped.
    const writer = await openSocket(`/s/${S1}/ws`, await writeCookie(S1, 'ou_alice'));
    writer.send({ t: 'in', d: 'echo AFTER-$((40+2))\r' });
    await waitFor('the writer command ran after the flood', async () => (await paneText(S1)).includes('AFTER-42'));
    expect(await display(S1, '#{pane_in_mode}')).toBe('0');
    expect(await paneText(S1)).not.toMatch(/xxx/);
    await waitFor('a history answer', () => viewer.histories.length > 0);
    expect(viewer.histories.length).toBeLessThan(200); // bounded work: not one capture per frame
    expect(viewer.histories[0]).toContain('\n300');
    expect(viewer.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('caps open sockets per view link (each is a pty and a tmux client); closing one frees a place', async () => {
    const cap = WEB_PROXY_LIMITS.viewSocketsPerSession;
    const per = WEB_PROXY_LIMITS.viewSocketsPerViewer;
    const open: Conn[] = [];
    // Several viewers (distinct client addresses: all of 127/8 is this machine) fill the session's places.
    for (let i = 0; i < cap; i++) open.push(await openSocket(viewPath(S1), undefined, { localAddress: `127.0.0.${2 + Math.floor(i / per)}` }));
    await expect(openSocket(viewPath(S1), undefined, { localAddress: '127.0.0.99' })).rejects.toThrow('HTTP 429');
    await openSocket(viewPath(S2)); // another session's link has its own allowance
    expect(stack.workers.get(S1)?.connectionCount.read).toBe(cap);
    open[0]?.ws.close();
    await open[0]?.closed;
    await waitFor('a place is free again', async () => openSocket(viewPath(S1), undefined, { localAddress: '127.0.0.99' }).then(() => true, () => false));
  });

  it('one holder of the view link cannot take every place: a viewer gets viewSocketsPerViewer, the others still get in', async () => {
    const per = WEB_PROXY_LIMITS.viewSocketsPerViewer;
    expect(per).toBeLessThan(WEB_PROXY_LIMITS.viewSocketsPerSession);
    const hog: Conn[] = [];
    for (let i = 0; i < per; i++) hog.push(await openSocket(viewPath(S2), undefined, { localAddress: '127.0.0.20' }));
    // The extra connection gets a clear refusal: 429 with a plain reason.
    const refused = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(`${stack.baseUrl.replace('http', 'ws')}${viewPath(S2)}`, { headers: { origin: stack.baseUrl }, localAddress: '127.0.0.20' });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('open', () => resolve({ status: 101, body: '' }));
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Too many open connections');
    // Somebody else with the same link still gets in.
    const other = await openSocket(viewPath(S2), undefined, { localAddress: '127.0.0.21' });
    // Behind a reverse proxy on this machine, the address it appends to X-Forwarded-For is the viewer; what the client
    // wrote before it is not believed.
    const viaProxy: Conn[] = [];
    for (let i = 0; i < per; i++) viaProxy.push(await openSocket(viewPath(S2), undefined, { forwardedFor: `198.51.100.${i}, 203.0.113.7` }));
    await expect(openSocket(viewPath(S2), undefined, { forwardedFor: '198.51.100.200, 203.0.113.7' })).rejects.toThrow('HTTP 429');
    await openSocket(viewPath(S2), undefined, { forwardedFor: '203.0.113.8' });
    // Closing one of the hog's connections gives that viewer a place back.
    hog[0]?.ws.close();
    await hog[0]?.closed;
    await waitFor('the viewer has a place again', async () => openSocket(viewPath(S2), undefined, { localAddress: '127.0.0.20' }).then(() => true, () => false));
    other.ws.close();
  });

  it('rotating the view token (/revoke-term --view) closes open views; the old link is refused, the new one works', async () => {
    const old = stack.grants.viewToken(S1);
    const viewer = await openSocket(viewPath(S1, old));
    const writer = await openSocket(`/s/${S1}/ws`, await writeCookie(S1, 'ou_alice'));
    const { token, connections } = stack.proxy.rotateView(S1);
    expect(connections).toBe(1);
    expect(token).not.toBe(old);
    await viewer.closed;
    expect(writer.ws.readyState).toBe(WebSocket.OPEN); // a writer is not a view-link holder
    expect((await fetch(`${stack.baseUrl}/s/${S1}/?v=${old}`)).status).toBe(404);
    await expect(openSocket(viewPath(S1, old))).rejects.toThrow('HTTP 404');
    expect((await fetch(`${stack.baseUrl}/s/${S1}/?v=${token}`)).status).toBe(200);
    await openSocket(viewPath(S1, token));
  });
});

describe('finding 6: a write grant reaches its own session and nothing else', () => {
  // Every way a tmux client can leave its session or run tmux commands, under the default prefix, a user's own prefix,
  // root-table bindings from a user's ~/.tmux.conf, and the mouse.
  const DANGEROUS: [string, string][] = [
    ['C-b s (choose-tree)', '\x02s'], ['C-b w (choose-window)', '\x02w'], ['C-b ( (previous session)', '\x02('],
    ['C-b ) (next session)', '\x02)'], ['C-b L (last session)', '\x02L'], ['C-b : (command prompt)', '\x02:'],
    ['C-b c (new window)', '\x02c'], ['C-b d (detach)', '\x02d'], ['C-b ? (list keys)', '\x02?'],
    ['C-a s (user prefix)', '\x01s'], ['C-a ) (user prefix)', '\x01)'],
    ['M-x (root switch-client)', '\x1bx'], ['F5 (root choose-tree)', '\x1b[15~'], ['C-t (root command prompt)', '\x14'],
    ['left click', '\x1b[<0;5;5M\x1b[<0;5;5m'], ['right click (menu)', '\x1b[<2;5;5M\x1b[<2;5;5m'],
    ['wheel up (copy mode)', '\x1b[<64;5;5M'], ['click on the status line', `\x1b[<0;3;${PANE.rows + 1}M\x1b[<0;3;${PANE.rows + 1}m`],
  ];

  it('survives every dangerous key and mouse sequence, also with hostile root-table bindings in the tmux config', async () => {
    const conf = join(home.dir, 'hostile.tmux.conf');
    writeFileSync(conf, [
      'set -g prefix2 C-a',
      'set -g mouse on',
      'bind -n M-x switch-client -n',
      'bind -n F5 choose-tree',
      'bind -n C-t command-prompt',
      'bind -n MouseDown1Pane switch-client -n',
      'bind -n MouseDown1Status choose-tree',
      'bind -n WheelUpPane copy-mode',
      '',
    ].join('\n'));
    expect((await tmux.run(['source-file', conf])).code).toBe(0);
    await waitFor('other session shows its content', async () => (await paneText(S2)).includes(OTHER_MARK));

    const writer = await openSocket(`/s/${S1}/ws`, await writeCookie(S1, 'ou_alice'));
    for (const [, keys] of DANGEROUS) {
      writer.send({ t: 'in', d: keys });
      await new Promise((r) => setTimeout(r, 100));
    }
    // Clear whatever the sequences typed into bash's line (they include readline edits: C-a, C-b, C-t…), then type a
    // command; bash may still be digesting a half sequence, so the line is cleared and typed again until it runs.
    writer.send({ t: 'in', d: '\x03' });
    await waitFor('the writer is still typing into its own pane', async () => {
      writer.send({ t: 'in', d: '\x05\x15echo STILL-$((6*7))\r' });
      await new Promise((r) => setTimeout(r, 1_000));
      return (await paneText(S1)).includes('STILL-42');
    });

    const clients = (await tmux.run(['list-clients', '-F', '#{client_session}|#{client_key_table}'])).stdout.trim().split('\n');
    expect(clients).toEqual([`${stack.target(S1)}|larkmux-confined`]);
    expect(await display(S1, '#{pane_in_mode} #{session_windows}')).toBe('0 1');
    expect(writer.ws.readyState).toBe(WebSocket.OPEN);
    expect(writer.output()).not.toContain(OTHER_MARK);
    expect(writer.output()).not.toContain(stack.target(S2));
  });
});

describe('finding 10: a write link is spent only by the button (POST)', () => {
  it('GET and HEAD show a page with one button and no cookie; the POST exchanges once', async () => {
    const { token } = stack.grants.issueWriteLink(S1, 'ou_alice');
    const url = `${stack.baseUrl}/s/${S1}/w/${token}`;
    for (const method of ['HEAD', 'GET', 'GET']) {
      const res = await fetch(url, { method, redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      if (method === 'GET') {
        const html = await res.text();
        expect(html).toMatch(/<form method="post">\s*<button/);
        expect(html).not.toContain(token);
      }
    }
    expect(stack.workers.size).toBe(0); // a preview wakes nothing
    const post = await fetch(url, { method: 'POST', redirect: 'manual', headers: { origin: stack.baseUrl } });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe(`/s/${S1}/`);
    expect(post.headers.get('set-cookie')).toMatch(/^lmx_write=[A-Za-z0-9_-]{43}; Path=\/s\/[0-9a-f]+\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    expect((await fetch(url, { method: 'POST', redirect: 'manual' })).status).toBe(404); // single use
  });

  it('a POST from another site is refused and does not spend the link', async () => {
    const { token } = stack.grants.issueWriteLink(S1, 'ou_alice');
    const url = `${stack.baseUrl}/s/${S1}/w/${token}`;
    expect((await fetch(url, { method: 'POST', redirect: 'manual', headers: { origin: 'https://evil.example' } })).status).toBe(404);
    expect((await fetch(url, { method: 'POST', redirect: 'manual', headers: { origin: stack.baseUrl } })).status).toBe(303);
  });
});

describe('finding 12b: a missing session and a forbidden one look the same', () => {
  it('every refusal is the same 404 with the same body, for HTTP and WebSocket', async () => {
    const answers: string[] = [];
    const known = [`/s/${S1}/`, `/s/${S1}/?v=${stack.grants.viewToken(S2)}`, `/s/${S1}/main.js`, `/s/${S1}`];
    const unknown = [`/s/${UNKNOWN}/`, `/s/${UNKNOWN}/?v=${stack.grants.viewToken(S2)}`, `/s/${UNKNOWN}/main.js`, `/s/${UNKNOWN}`];
    for (const path of [...known, ...unknown]) {
      const res = await fetch(stack.baseUrl + path, { redirect: 'manual' });
      answers.push(`${res.status} ${res.status === 308 ? '' : await res.text()}`);
    }
    for (const id of [S1, UNKNOWN]) {
      const res = await fetch(`${stack.baseUrl}/s/${id}/w/${'A'.repeat(43)}`, { method: 'POST', redirect: 'manual', headers: { origin: stack.baseUrl } });
      answers.push(`${res.status} ${await res.text()}`);
    }
    expect(answers.slice(0, 4)).toEqual(answers.slice(4, 8));
    expect(new Set(answers.filter((a) => !a.startsWith('308'))).size).toBe(1);
    expect(answers[0]).toMatch(/^404 /);
    await expect(openSocket(`/s/${S1}/ws`)).rejects.toThrow('HTTP 404');
    await expect(openSocket(`/s/${UNKNOWN}/ws`)).rejects.toThrow('HTTP 404');
    expect(stack.workers.size).toBe(0);
  });
});

describe('finding 5: the write cookie is Secure behind https', () => {
  it.each([
    ['https://box.example.com', true],
    ['http://box.example.com', false],
    [undefined, false],
  ] as const)('publicUrl %s → Secure %s', async (publicUrl, secure) => {
    const grants = new WebGrants();
    const proxy = new WebProxy({
      host: '127.0.0.1', port: 0, grants, sessionExists: (id) => id === S1, resolveWorker: async () => null,
      sessionLocale: () => 'en', log: { info: () => {}, warn: () => {} }, ...(publicUrl ? { publicUrl } : {}),
    });
    const started = await proxy.start();
    if (!started.ok) throw new Error(started.message);
    try {
      const { token } = grants.issueWriteLink(S1, 'ou_alice');
      const res = await fetch(`http://127.0.0.1:${started.port}/s/${S1}/w/${token}`, { method: 'POST', redirect: 'manual' });
      expect(res.status).toBe(303);
      expect((res.headers.get('set-cookie') ?? '').endsWith('; Secure')).toBe(secure);
    } finally {
      await proxy.dispose();
    }
  });
});
