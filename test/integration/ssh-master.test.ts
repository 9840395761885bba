// One ControlMaster per host, for real: a persistent master is reused by the next command (one login in sshd's log)
// and `ssh -O exit` ends it. Against test/support/sshd.ts on 127.0.0.1.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { controlPath } from '../../src/platform/ssh/ssh-argv.js';
import { closeMaster, ensureSocketFolder, runOverSsh, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import type { HostConfig } from '../../src/shared/host-config.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

let sshd: TestSshd;
let home: TestHome;
let host: HostConfig;

beforeAll(async () => {
  sshd = await startTestSshd();
  home = makeTestHome('lmx-master-');
  host = { name: 'm1', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
  const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
  writeFileSync(sshPlaces(home.paths).knownHosts, pinInKnownHosts('', knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! }));
}, 60_000);

afterAll(async () => {
  if (host) await closeMaster(host, sshPlaces(home.paths));
  await sshd?.cleanup();
  home?.cleanup();
});

const logins = () => sshd.log().match(/Accepted publickey/g)?.length ?? 0;

it('keeps one master per host under LARKMUX_HOME/run, reused by the next command, ended by -O exit', { timeout: 180_000 }, async () => {
  const places = sshPlaces(home.paths);
  const persist = { persist: '120s', connectTimeoutS: 10 };
  const one = await runOverSsh(host, places, ['echo', 'one'], { ssh: persist });
  expect(one.failure, one.stderr).toBeNull();
  expect(one.stdout).toBe('one\n');
  const socket = controlPath(host, places);
  expect(dirname(socket)).toBe(home.paths.run);
  expect(existsSync(socket)).toBe(true);
  const two = await runOverSsh(host, places, ['echo', 'two'], { ssh: persist });
  expect(two.stdout).toBe('two\n');
  await until('sshd to log the login', () => logins() >= 1);
  expect(logins()).toBe(1);
  expect(await closeMaster(host, places)).toBe(true);
  await until('the master socket to go', () => !existsSync(socket));
  const three = await runOverSsh(host, places, ['echo', 'three'], { ssh: { persist: 'no', connectTimeoutS: 10 } });
  expect(three.stdout).toBe('three\n');
  await until('a second login', () => logins() === 2);
  expect(existsSync(socket)).toBe(false);
});

it('refuses a socket folder another user could write in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-sock-'));
  try {
    ensureSocketFolder(join(dir, 'ok'));
    chmodSync(dir, 0o777);
    expect(() => ensureSocketFolder(dir)).toThrow(/nobody else may write in; remove it or fix it \(chmod 700/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
