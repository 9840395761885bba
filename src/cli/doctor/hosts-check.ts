// Doctor lines for the configured hosts (DESIGN §12): the ssh client is there and each host's key is pinned. Doctor does
// not connect (a slow host would hold it up); `larkmux hosts check NAME` does.
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { which } from '../../platform/which.js';
import { hostIsPinned } from '../hosts/host-state.js';
import type { DoctorCheck, DoctorLine } from './types.js';

export const hostsCheck: DoctorCheck = ({ config, env, paths }) => {
  const hosts = config?.hosts ?? [];
  if (!hosts.length) return [];
  const cmd = larkmuxCommand(env);
  const lines: DoctorLine[] = [];
  for (const program of ['ssh', 'ssh-keyscan']) {
    if (!which(program, env)) lines.push({ level: 'FAIL', label: program, detail: `${program} not found on PATH (hosts are reached with the system OpenSSH client)`, fix: 'apt-get install openssh-client' });
  }
  for (const h of hosts) {
    const where = `${h.ssh}${h.port ? ` port ${h.port}` : ''}`;
    if (hostIsPinned(paths, h)) lines.push({ level: 'OK', label: `host ${h.name}`, detail: `${where}, key pinned; \`${cmd} hosts check ${h.name}\` checks it over SSH` });
    else lines.push({ level: 'WARN', label: `host ${h.name}`, detail: `${where}: no host key pinned, so every connection is refused`, fix: `${cmd} hosts add ${h.name} ${h.ssh}${h.port ? ` --port ${h.port}` : ''}` });
  }
  return lines;
};
