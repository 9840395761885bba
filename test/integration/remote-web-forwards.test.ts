// The daemon's stream-local forwards to a host's web terminal sockets, for real: `ssh -O forward -L` on a running
// ControlMaster (test/support/sshd.ts on 127.0.0.1 as the host), a socket "on the host" answering through it, the local
// end 0600; a daemon that stopped before its cancel ran leaves the forward on the master, and the next one still gets a
// working forward for the same sockets; a visit right after a cancel gets a forward the cancel does not undo; a cancel
// closes it and removes the local end.
import { mkdtempSync, lstatSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RemoteWebForwards } from '../../src/daemon/workers/remote-web-forwards.js';
import { createLogger } from '../../src/platform/log.js';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { closeMaster, runOverSsh, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import type { HostConfig } from '../../src/shared/host-config.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

let sshd: TestSshd;
let home: TestHome;
let host: HostConfig;
let hostDir: string;
let worker: Server;
const SESSION = 'f00dcafe-0000-4000-8000-000000000000';

beforeAll(async () => {
  sshd = await startTestSshd();
  home = makeTestHome('lmx-fwd-');
  hostDir = mkdtempSync(join(tmpdir(), 'lmx-fwdhost-'));
  host = { name: 'b', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
  const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
  writeFileSync(sshPlaces(home.paths).knownHosts, pinInKnownHosts('', knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! }));
  // The worker's socket on the host: answers each connection with what it was sent, reversed.
  worker = createServer((c) => c.once('data', (d) => c.end([...d.toString()].reverse().join(''))));
  await new Promise<void>((r) => worker.listen(join(hostDir, 'web-f00dcafe.sock'), r));
}, 60_000);

afterAll(async () => {
  worker?.close();
  if (host) await closeMaster(host, sshPlaces(home.paths));
  await sshd?.cleanup();
  home?.cleanup();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

/** One round trip through the socket at `path`. */
function ask(path: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect({ path }, () => c.write(text));
    let got = '';
    c.setEncoding('utf8').on('data', (d: string) => (got += d)).on('end', () => resolve(got)).on('error', reject);
  });
}

it('forwards a socket here to the worker\'s socket on the host; a new daemon\'s forward works over a stale one; cancel removes it', { timeout: 120_000 }, async () => {
  const places = sshPlaces(home.paths);
  const log = createLogger({ file: join(home.dir, 'fwd.log'), name: 'test' });
  const master = await runOverSsh(host, places, ['true'], { ssh: { persist: '120s', connectTimeoutS: 10 } });
  expect(master.failure, master.stderr).toBeNull();
  const remote = join(hostDir, 'web-f00dcafe.sock');

  const first = new RemoteWebForwards({ host, places, log });
  const local = await first.reach(SESSION, remote);
  expect(local).toBe(join(home.paths.run, 'web-fwd-f00dcafe.sock'));
  expect(lstatSync(local!).mode & 0o777).toBe(0o600);
  expect(await ask(local!, 'abc 中文')).toBe('文中 cba');
  expect(await first.reach(SESSION, remote)).toBe(local);

  // A daemon that stopped without cancelling: the master still holds the forward. The next daemon's works.
  const second = new RemoteWebForwards({ host, places, log });
  expect(await second.reach(SESSION, remote)).toBe(local);
  expect(await ask(local!, 'xyz')).toBe('zyx');

  // The worker goes and the next one of the session is visited at once: the new forward is made after the cancel,
  // never undone by it.
  second.cancel(SESSION);
  expect(await second.reach(SESSION, remote)).toBe(local);
  expect(await ask(local!, 'again')).toBe('niaga');

  second.cancel(SESSION);
  await until('the local end removed', () => !existsSync(local!), 30_000);
  await expect(ask(local!, 'x')).rejects.toThrow();
  // A path ssh would split is never handed to it.
  expect(await second.reach(SESSION, '/tmp/a:b.sock')).toBeNull();
});
