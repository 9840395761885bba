// The argv for the system `ssh` client talking to one configured host: one ControlMaster per host, keys only, the host
// key checked strictly against larkmux's own known_hosts, nothing forwarded. Pure: the shells around it spawn it.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HostConfig } from '../../shared/host-config.js';

/**
 * Longest ControlPath we hand to ssh. A unix socket path holds at most 107 bytes, and while a master starts ssh binds
 * the path plus a 17-character random suffix before renaming it.
 */
export const MAX_CONTROL_PATH = 88;

export interface SshPlaces {
  /** LARKMUX_HOME/run: where the ControlMaster sockets live. */
  runDir: string;
  /** LARKMUX_HOME/known_hosts: the only host keys trusted. */
  knownHosts: string;
  /** The folder used instead of runDir when LARKMUX_HOME is too deep for a socket path (created 0700 by the caller). */
  fallbackRunDir: string;
}

export interface SshOptions {
  /** ControlPersist: how long an idle master stays (`no`: it ends with the command that started it). */
  persist: string;
  connectTimeoutS: number;
}

export const DEFAULT_SSH_OPTIONS: SshOptions = { persist: '10m', connectTimeoutS: 15 };

/** A short stable id for the connection (name, target and port): the socket's file name. */
export function connectionId(host: Pick<HostConfig, 'name' | 'ssh' | 'port'>): string {
  return createHash('sha256').update(`${host.name}\0${host.ssh}\0${host.port ?? 22}`).digest('hex').slice(0, 16);
}

/** Where the host's ControlMaster socket lives: under runDir, or the fallback folder when that path would be too long. */
export function controlPath(host: Pick<HostConfig, 'name' | 'ssh' | 'port'>, places: Pick<SshPlaces, 'runDir' | 'fallbackRunDir'>): string {
  const file = `ssh-${connectionId(host)}`;
  const inRun = join(places.runDir, file);
  return Buffer.byteLength(inRun) <= MAX_CONTROL_PATH ? inRun : join(places.fallbackRunDir, file);
}

/**
 * A path as an ssh option value: ssh expands `%` tokens (and `~`) in these options and splits on blanks, so `%` is
 * doubled and the whole value quoted.
 */
export function sshPathValue(path: string): string {
  if (/["\n\r]/.test(path)) throw new Error(`a path with a quote or a line break cannot be given to ssh: ${JSON.stringify(path)}`);
  return `"${path.replace(/%/g, '%%')}"`;
}

/** The host part of `user@host` (IPv6 brackets removed). */
export function sshHostPart(target: string): string {
  return target.slice(target.lastIndexOf('@') + 1).replace(/^\[|\]$/g, '');
}

/** The `-o` options every connection to a host gets. */
export function sshOptionArgs(host: HostConfig, places: SshPlaces, opts: SshOptions = DEFAULT_SSH_OPTIONS): string[] {
  const o = (kv: string) => ['-o', kv];
  return [
    ...o('BatchMode=yes'),
    ...o('StrictHostKeyChecking=yes'),
    ...o(`UserKnownHostsFile=${sshPathValue(places.knownHosts)}`),
    ...o('GlobalKnownHostsFile=/dev/null'),
    ...o('UpdateHostKeys=no'),
    ...o('CheckHostIP=no'),
    ...o('ForwardAgent=no'),
    ...o('ForwardX11=no'),
    ...o('ClearAllForwardings=yes'),
    ...o('PermitLocalCommand=no'),
    ...o('PasswordAuthentication=no'),
    ...o('KbdInteractiveAuthentication=no'),
    ...o('ServerAliveInterval=15'),
    ...o('ServerAliveCountMax=3'),
    ...o(`ConnectTimeout=${opts.connectTimeoutS}`),
    ...o('ControlMaster=auto'),
    ...o(`ControlPath=${sshPathValue(controlPath(host, places))}`),
    ...o(`ControlPersist=${opts.persist}`),
    ...(host.identityFile ? [...o(`IdentityFile=${sshPathValue(host.identityFile)}`), ...o('IdentitiesOnly=yes')] : []),
    ...(host.port ? ['-p', String(host.port)] : []),
  ];
}

/**
 * `ssh <options> -T -- user@host <remote words>`: the remote words are one shell command line on the host, visible
 * to `ps` there, so callers put only fixed commands in it and send anything else on stdin.
 */
export function sshArgv(host: HostConfig, places: SshPlaces, remote: string[], opts: SshOptions = DEFAULT_SSH_OPTIONS): string[] {
  return [...sshOptionArgs(host, places, opts), '-T', '--', host.ssh, ...remote];
}

/** `ssh -O exit`: ends the host's ControlMaster (its sessions end with it); nothing else is sent to the host. */
export function closeMasterArgv(host: HostConfig, places: SshPlaces): string[] {
  return ['-o', `ControlPath=${sshPathValue(controlPath(host, places))}`, '-O', 'exit', '--', host.ssh];
}

/**
 * `ssh -O forward|cancel -L local.sock:remote.sock`: a stream-local forward on the host's running ControlMaster (the
 * master binds the local socket with its StreamLocalBindMask, 0177: 0600). ssh splits the spec at `:`, so a path with
 * one (or a blank or a line break) cannot be forwarded: undefined.
 */
export function socketForwardArgv(host: HostConfig, places: SshPlaces, op: 'forward' | 'cancel', local: string, remote: string): string[] | undefined {
  if (![local, remote].every((p) => p.startsWith('/') && !/[:\s]/.test(p))) return undefined;
  return ['-o', `ControlPath=${sshPathValue(controlPath(host, places))}`, '-O', op, '-L', `${local}:${remote}`, '--', host.ssh];
}
