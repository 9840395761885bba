// A real OpenSSH server for tests: /usr/sbin/sshd as the current user on 127.0.0.1 and a free port, with its own host
// key and an authorized_keys holding a client key generated for this run. Loopback only, never another address.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { until } from './until.js';

export const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  dir: string;
  port: number;
  user: string;
  /** `user@127.0.0.1` */
  target: string;
  /** The client's private key (authorized on this server). */
  clientKey: string;
  /** The public host key file, as an admin would fingerprint it. */
  hostKeyPub: string;
  /** What sshd logged (-e) since it was last started. */
  log(): string;
  /** A new host key, as after a reinstall; takes effect on the next start. */
  regenerateHostKey(): void;
  start(): Promise<void>;
  /** Ends the listener and every connection it serves. */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

function keygen(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.pub`, { force: true });
  const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'larkmux-test', '-f', file]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr.toString()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function answersBanner(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ host: '127.0.0.1', port });
    c.setTimeout(2000);
    c.once('data', (d) => {
      c.destroy();
      resolve(d.toString().startsWith('SSH-'));
    });
    c.once('error', () => resolve(false));
    c.once('timeout', () => {
      c.destroy();
      resolve(false);
    });
  });
}

/** `setEnv`: variables sshd sets in every session it starts (its `SetEnv`), as a host's own environment would. */
export async function startTestSshd(opts: { setEnv?: Record<string, string> } = {}): Promise<TestSshd> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: install openssh-server (.ci/run does)`);
  // Short path: sshd and ssh put unix sockets near here.
  const dir = mkdtempSync(join(tmpdir(), 'lmx-sshd-'));
  const user = userInfo().username;
  const hostKey = join(dir, 'host_key');
  const clientKey = join(dir, 'client_key');
  keygen(hostKey);
  keygen(clientKey);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${clientKey}.pub`));
  // As root, sshd wants its privilege-separation folder (the package's service would create it).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  let child: ChildProcess | undefined;
  let port = 0;
  let log = '';
  const sshd: TestSshd = {
    dir,
    get port() {
      return port;
    },
    user,
    get target() {
      return `${user}@127.0.0.1`;
    },
    clientKey,
    hostKeyPub: `${hostKey}.pub`,
    log: () => log,
    regenerateHostKey: () => keygen(hostKey),
    async start() {
      // The same port again after a stop: the host comes back where the config points.
      if (!port) port = await freePort();
      const conf = join(dir, 'sshd_config');
      writeFileSync(
        conf,
        [
          `Port ${port}`,
          'ListenAddress 127.0.0.1',
          `HostKey ${hostKey}`,
          `PidFile ${join(dir, 'sshd.pid')}`,
          `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
          'UsePAM no',
          'StrictModes no',
          'PubkeyAuthentication yes',
          'PasswordAuthentication no',
          'KbdInteractiveAuthentication no',
          'PermitRootLogin prohibit-password',
          'AllowAgentForwarding no',
          'X11Forwarding no',
          'PrintMotd no',
          ...(opts.setEnv ? [`SetEnv ${Object.entries(opts.setEnv).map(([k, v]) => `${k}="${v}"`).join(' ')}`] : []),
          '',
        ].join('\n'),
      );
      const c = spawn(SSHD, ['-D', '-e', '-f', conf], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      log = '';
      c.stderr?.on('data', (d) => (log += d));
      child = c;
      await until(`sshd on 127.0.0.1:${port}`, async () => c.exitCode === null && (await answersBanner(port)), 30_000);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.pid === undefined) return;
      // Its own process group: the listener and the per-connection children it forked end together.
      try {
        process.kill(-c.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await until('sshd to end', () => c.exitCode !== null || c.signalCode !== null, 20_000);
      await until(`port ${port} to close`, async () => !(await answersBanner(port)), 20_000);
    },
    async cleanup() {
      await sshd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await sshd.start();
  return sshd;
}
