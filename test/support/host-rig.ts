// A started e2e rig whose config.json names test sshds as hosts (their keys pinned in larkmux's own known_hosts, as
// `larkmux hosts add … --accept SHA256:…` pins them) and whose larkmux folder on every host is `hostRoot`.
import { readFileSync, writeFileSync } from 'node:fs';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { startRig, type E2eRig, type RigOptions } from './e2e-daemon.js';
import type { TestSshd } from './sshd.js';

export interface RigHost {
  name: string;
  sshd: TestSshd;
  workingDirs?: string[];
}

export async function rigWithHosts(hosts: readonly RigHost[], hostRoot: string, opts: RigOptions & { env?: Record<string, string> } = {}): Promise<E2eRig> {
  const { env, ...rigOpts } = opts;
  const rig = await startRig({ daemon: 'built', ...rigOpts });
  const entries = hosts.map((h) => ({ name: h.name, ssh: h.sshd.target, port: h.sshd.port, identityFile: h.sshd.clientKey, ...(h.workingDirs ? { workingDirs: h.workingDirs } : {}) }));
  rig.home.writeConfig({ ...JSON.parse(readFileSync(rig.home.paths.config, 'utf8')), hosts: entries });
  let knownHosts = '';
  for (const { sshd } of hosts) {
    const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
    knownHosts = pinInKnownHosts(knownHosts, knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! });
  }
  writeFileSync(sshPlaces(rig.home.paths).knownHosts, knownHosts);
  Object.assign(rig.home.env, { LARKMUX_REMOTE_ROOT: hostRoot, ...env });
  return rig;
}
