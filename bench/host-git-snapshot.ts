// A turn's start snapshot of a session on a host (the wait before its prompt is typed), on loopback: a real sshd on
// 127.0.0.1 as the host (test/support/sshd.ts), the built bundle placed there by a RemoteHost, a small git repository.
// Measures remoteTreeGit().snapshot() as the one-shot `changes` command (no link up: one ssh exec and a node start on
// the host each) and on the agent's link (a git_ask frame: a round trip and git's own time). `--quick`: fewer samples.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteTreeGit } from '../src/daemon/workers/remote-changes.js';
import { RemoteHost } from '../src/daemon/workers/remote-host.js';
import { readBundle } from '../src/platform/bundle-manifest.js';
import { createLogger } from '../src/platform/log.js';
import { knownHostsName, pinInKnownHosts } from '../src/platform/ssh/known-hosts.js';
import { sshPlaces } from '../src/platform/ssh/ssh-run.js';
import { makeTestHome } from '../test/support/home.js';
import { startTestSshd } from '../test/support/sshd.js';
import { log, quantile, round, waitFor } from './support/pane-timing.js';

const SAMPLES = process.argv.includes('--quick') ? 10 : 40;
const BUNDLE = join(import.meta.dirname, '..', 'dist', 'worker', 'bundle');

async function timed(samples: number, f: () => Promise<unknown>): Promise<{ p50Ms: number; p90Ms: number }> {
  await f(); // warm: the ControlMaster, the bundle placed
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    if (!(await f())) throw new Error('the snapshot had no answer');
    ms.push(performance.now() - t0);
  }
  return { p50Ms: round(quantile(ms, 0.5)), p90Ms: round(quantile(ms, 0.9)) };
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-bench-hgit-')));
const sshd = await startTestSshd();
const home = makeTestHome('lmx-bench-hgit-home-');
let remote: RemoteHost | undefined;
try {
  const repo = join(scratch, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['-C', repo, 'init', '-q']);
  for (let i = 0; i < 50; i++) writeFileSync(join(repo, `f${i}.txt`), `${i}\n`.repeat(20));
  const places = sshPlaces(home.paths);
  const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
  writeFileSync(places.knownHosts, pinInKnownHosts('', knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! }));
  const logger = createLogger({ file: join(scratch, 'daemon.log') });
  const host = { name: 'b', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
  remote = new RemoteHost({ host, places, log: logger, bundle: () => readBundle(BUNDLE), remoteRoot: join(scratch, 'root') });
  const git = remoteTreeGit(remote, logger);
  const oneShot = await timed(SAMPLES, () => git.snapshot(repo));
  log(`one-shot: ${JSON.stringify(oneShot)}`);
  const r = remote;
  r.startWorker(randomBytes(16).toString('hex'), {});
  await waitFor('the host agent up', () => r.agentPid, 60_000);
  const onLink = await timed(SAMPLES, () => git.snapshot(repo));
  log(`on the link: ${JSON.stringify(onLink)}`);
  console.log(JSON.stringify({ bench: 'host-git-snapshot', samples: SAMPLES, loadavg1: round(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])), oneShot, onLink }));
} finally {
  await remote?.dispose();
  await sshd.cleanup();
  home.cleanup();
  rmSync(scratch, { recursive: true, force: true });
}
