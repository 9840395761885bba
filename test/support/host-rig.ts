// A real daemon (the build: its bundle is what ships to a host) whose config.json has hosts served by test sshds on
// 127.0.0.1 (test/support/sshd.ts), their keys pinned in larkmux's own known_hosts as `larkmux hosts add … --accept`
// pins them, and larkmux's folder on the hosts (LARKMUX_REMOTE_ROOT) apart from the user's.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { startRig, type E2eRig, type RigOptions } from './e2e-daemon.js';
import type { TestSshd } from './sshd.js';

export interface TestHost {
  name: string;
  sshd: TestSshd;
  workingDirs?: string[];
}

/** A started rig with `hosts` in its config beside its bots (`opts`: the bots' settings), kept in `into` (for the cleanup). */
export async function rigWithHosts(into: E2eRig[], hosts: readonly TestHost[], hostRoot: string, opts: Omit<RigOptions, 'daemon'> = {}): Promise<E2eRig> {
  const made = await startRig({ ...opts, daemon: 'built' });
  into.push(made);
  const configured = hosts.map((h) => ({ name: h.name, ssh: h.sshd.target, port: h.sshd.port, identityFile: h.sshd.clientKey, ...(h.workingDirs ? { workingDirs: h.workingDirs } : {}) }));
  made.home.writeConfig({ ...JSON.parse(readFileSync(made.home.paths.config, 'utf8')), hosts: configured });
  let knownHosts = '';
  for (const { sshd } of hosts) {
    const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
    knownHosts = pinInKnownHosts(knownHosts, knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! });
  }
  writeFileSync(sshPlaces(made.home.paths).knownHosts, knownHosts);
  made.home.env.LARKMUX_REMOTE_ROOT = hostRoot;
  await made.start();
  return made;
}

/** The tmux server larkmux's workers use on a host whose larkmux folder is `hostRoot`: the one that folder derives. */
export function hostTmux(hostRoot: string, args: string[]): SpawnSyncReturns<string> {
  // -u: the test's own environment may name no UTF-8 locale, and tmux would then write CJK and tabs as `_`.
  return spawnSync('tmux', ['-u', '-L', tmuxSocketName(null, hostRoot), ...args], { encoding: 'utf8' });
}
