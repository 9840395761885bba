// What an ssh failure means, read from its exit code and stderr. A timeout or an unclear failure is "unknown", never
// "offline": nothing may be ended or relaunched because a probe was slow.
export type SshFailureKind = 'host-key-changed' | 'host-key-unknown' | 'auth-refused' | 'unreachable' | 'unknown';

export interface SshFailure {
  kind: SshFailureKind;
  /** One line for a person: what happened, without anything ssh printed that could hold a secret. */
  detail: string;
}

/** ssh's own exit code for its errors; any other code is the remote command's. */
export const SSH_ERROR_EXIT = 255;

const UNREACHABLE = /Connection refused|No route to host|Network is unreachable|Could not resolve hostname|Name or service not known|Temporary failure in name resolution/i;

/**
 * The kind of failure behind one ssh run, or null when ssh itself did not fail (the remote command ran; its exit
 * code is its own). `timedOut`: our own deadline ended the run.
 */
export function classifySshFailure(exitCode: number | null, stderr: string, timedOut = false): SshFailure | null {
  if (timedOut) return { kind: 'unknown', detail: 'no answer in time (the host may be slow or the link down); state unknown' };
  if (exitCode !== SSH_ERROR_EXIT) return null;
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for \S+ has changed/i.test(stderr)) {
    return { kind: 'host-key-changed', detail: 'the host key differs from the one pinned; refused (this may be an attack, or the host was reinstalled)' };
  }
  if (/No \S+ host key is known for|Host key verification failed/i.test(stderr)) {
    return { kind: 'host-key-unknown', detail: 'no host key is pinned for this host; refused' };
  }
  if (/Permission denied \(|Too many authentication failures|no mutual signature algorithm/i.test(stderr)) {
    return { kind: 'auth-refused', detail: 'the host refused our key' };
  }
  if (/timed out|Operation timed out/i.test(stderr)) return { kind: 'unknown', detail: 'the connection timed out; state unknown' };
  const unreachable = UNREACHABLE.exec(stderr);
  if (unreachable) return { kind: 'unreachable', detail: `cannot connect: ${unreachable[0].toLowerCase()}` };
  return { kind: 'unknown', detail: 'ssh failed without a known reason; state unknown' };
}

/** The command that (re-)pins host `name`'s key: `larkmux hosts add NAME user@host [--port N]`. */
export function hostsAddCommand(cmd: string, name: string, target: string, port: number | undefined): string {
  return `${cmd} hosts add ${name} ${target}${port ? ` --port ${port}` : ''}`;
}

/** The fix to print for a failure on host `name` (target `ssh`, port), naming the command where there is one. */
export function sshFailureFix(f: SshFailure, cmd: string, name: string, target: string, port: number | undefined): string {
  const add = hostsAddCommand(cmd, name, target, port);
  switch (f.kind) {
    case 'host-key-changed':
      return `ask the host's admin whether its key changed (reinstall, new sshd); only then re-pin it with \`${add}\``;
    case 'host-key-unknown':
      return `pin the host key with \`${add}\``;
    case 'auth-refused':
      return `put your public key in ~/.ssh/authorized_keys of ${target}, or name the right key with --identity in \`${add}\``;
    case 'unreachable':
      return `check that ${name} is up and sshd listens${port ? ` on port ${port}` : ''}, and that no firewall blocks it`;
    case 'unknown':
      return `try again; if it stays so, run \`ssh${port ? ` -p ${port}` : ''} ${target} true\` by hand to see why`;
  }
}
