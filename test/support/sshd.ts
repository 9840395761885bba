// A real OpenSSH server for tests: /usr/sbin/sshd as the current user on 127.0.0.1 and a free port, with its own host
// key and an authorized_keys holding a client key generated for this run. Loopback only, never another address — unless
// the caller gives the address of a network namespace it made itself (with its own veth pair) and runs sshd there.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { descendantPids, isLive } from './proc-tree.js';
import { until } from './until.js';

export const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  dir: string;
  port: number;
  user: string;
  /** `user@<address>` (127.0.0.1 unless the options name another) */
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
    // A port free on loopback here; in a namespace of the caller's every port is free.
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function answersBanner(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ host: address, port });
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

export interface TestSshdOptions {
  /** Where sshd listens (default 127.0.0.1): only an address of a network namespace the caller made. */
  address?: string;
  /** Words before sshd's own, e.g. `ip netns exec <ns>` to run it in that namespace. */
  wrap?: readonly string[];
  /** Variables sshd sets in every session it starts (its `SetEnv`), as a host's own environment would. */
  setEnv?: Record<string, string>;
}

export async function startTestSshd(opts: TestSshdOptions = {}): Promise<TestSshd> {
  const address = opts.address ?? '127.0.0.1';
  const wrap = opts.wrap ?? [];
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
      return `${user}@${address}`;
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
          `ListenAddress ${address}`,
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
      const [cmd, ...args] = [...wrap, SSHD, '-D', '-e', '-f', conf];
      const c = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      log = '';
      c.stderr?.on('data', (d) => (log += d));
      child = c;
      await until(`sshd on ${address}:${port}`, async () => c.exitCode === null && (await answersBanner(address, port)), 30_000);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.pid === undefined) return;
      // The listener's process group, and the sessions it forked: sshd puts every connection in a session of its own
      // (setsid), so a group kill alone left `sshd: <user>@notty` running while a ControlMaster held its connection.
      // Paused while its children are listed, the listener forks no new one in between.
      const pid = c.pid;
      const signal = (target: number, sig: NodeJS.Signals) => {
        try {
          process.kill(target, sig);
        } catch {
          /* already gone */
        }
      };
      signal(pid, 'SIGSTOP');
      const sessions = descendantPids(pid);
      for (const p of [-pid, ...sessions]) signal(p, 'SIGTERM');
      signal(pid, 'SIGCONT');
      await until('sshd sessions to end', () => !sessions.some(isLive), 20_000);
      await until('sshd to end', () => c.exitCode !== null || c.signalCode !== null, 20_000);
      await until(`port ${port} to close`, async () => !(await answersBanner(address, port)), 20_000);
    },
    async cleanup() {
      await sshd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await sshd.start();
  return sshd;
}
