// DNS rebinding through the real daemon: a Host name larkmux does not serve gets 421 on every route and spends nothing.
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

interface Answer { status: number; setCookie: string[]; body: string }

/** One HTTP request with exactly these headers (fetch does not let a caller set Host). */
function send(base: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status a WebSocket upgrade is answered with (101 when it opens). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', () => resolve(0));
  });
}

describe('web port Host check (DNS rebinding)', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('a write link POSTed under a rebinding Host gets 421 and no cookie; the link still works from the real host', { timeout: 120_000 }, async () => {
    rig = await startRig({ web: { allowedHosts: ['larkmux.lan'] } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const base = (await rig.status()).webUrl as string;
    const port = new URL(base).port;

    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo HOST-$((40+2))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('HOST-42')), 30_000, 'answer');
    await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/term' });
    const dm = await fake.waitFor(
      () => fake.messages.find((m) => m.appId === appId && m.msgType === 'text' && String((m.content as { text?: string }).text).includes('/w/')),
      15_000,
      'DM with the write link',
    );
    const link = new URL(/(http:\/\/\S+\/w\/[A-Za-z0-9_-]+)/.exec(String((dm.content as { text: string }).text))![1]!);
    const sessionPath = link.pathname.replace(/w\/[^/]+$/, '');

    // The rebinding attack: the browser thinks it talks to evil.example, whose name now resolves to 127.0.0.1.
    const evil = { host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
    const posted = await send(base, 'POST', link.pathname, evil);
    expect(posted.status).toBe(421);
    expect(posted.setCookie).toEqual([]);
    expect(posted.body).toContain('web.allowedHosts');
    expect((await send(base, 'GET', link.pathname, evil)).status).toBe(421);
    expect((await send(base, 'GET', '/healthz', evil)).status).toBe(421);
    expect((await send(base, 'GET', '/console/', evil)).status).toBe(421);
    expect((await send(base, 'GET', `${sessionPath}`, { host: 'evil.example' })).status).toBe(421);
    // No Host at all: Node's HTTP server answers 400 before any route (HTTP/1.1 requires the header).
    expect((await send(base, 'GET', '/healthz', {})).status).toBe(400);
    expect(await upgradeStatus(`ws://127.0.0.1:${port}${sessionPath}ws`, evil)).toBe(421);

    // The names larkmux serves: loopback names with or without the port, and the configured list.
    for (const host of ['localhost', `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `larkmux.lan:${port}`]) {
      expect((await send(base, 'GET', '/healthz', { host })).status, host).toBe(200);
    }

    // The refused POST spent nothing: the same link, posted from the daemon's own origin, is exchanged once.
    const own = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
    const exchanged = await send(base, 'POST', link.pathname, own);
    expect(exchanged.status).toBe(303);
    expect(exchanged.setCookie.join(';')).toContain('lmx_write=');
    expect(rig.logText()).toContain('refused a Host name this port does not serve');
  });
});
