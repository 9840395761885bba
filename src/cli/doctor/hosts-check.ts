// Doctor lines for the configured hosts (DESIGN §12): the ssh client is there and each host's key is pinned. Doctor does
// not connect (a slow host would hold it up); `larkmux hosts check NAME` does.
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { which } from '../../platform/which.js';
import { hostIsPinned } from '../hosts/host-state.js';
import type { DoctorCheck, DoctorLine } from './types.js';

export const hostsCheck: DoctorCheck = ({ config, env, paths, t }) => {
  const hosts = config?.hosts ?? [];
  if (!hosts.length) return [];
  const cmd = larkmuxCommand(env);
  const lines: DoctorLine[] = [];
  for (const program of ['ssh', 'ssh-keyscan']) {
    if (!which(program, env)) lines.push({ level: 'FAIL', label: program, detail: t('doctor.hosts.sshMissing', { program }), fix: 'apt-get install openssh-client' });
  }
  for (const h of hosts) {
    const where = h.port ? t('doctor.hosts.where', { ssh: h.ssh, port: h.port }) : h.ssh;
    if (hostIsPinned(paths, h)) lines.push({ level: 'OK', label: `host ${h.name}`, detail: t('doctor.hosts.pinned', { where, cmd, name: h.name }) });
    else lines.push({ level: 'WARN', label: `host ${h.name}`, detail: t('doctor.hosts.notPinned', { where }), fix: `${cmd} hosts add ${h.name} ${h.ssh}${h.port ? ` --port ${h.port}` : ''}` });
  }
  return lines;
};
