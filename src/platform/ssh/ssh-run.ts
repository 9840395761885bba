// Runs the system `ssh` (and `ssh-keyscan`) for one host: the thin shell around ssh-argv.ts and ssh-failure.ts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostConfig } from '../../shared/host-config.js';
import type { LarkmuxPaths } from '../paths.js';
import { closeMasterArgv, controlPath, DEFAULT_SSH_OPTIONS, sshArgv, sshHostPart, type SshOptions, type SshPlaces } from './ssh-argv.js';
import { classifySshFailure, type SshFailure } from './ssh-failure.js';

/** Where this home's ssh files live: sockets under run/ (or a short folder in /tmp), LARKMUX_HOME/known_hosts. */
export function sshPlaces(paths: Pick<LarkmuxPaths, 'home' | 'run'>): SshPlaces {
  const uid = process.getuid?.() ?? 0;
  const tag = createHash('sha256').update(paths.home).digest('hex').slice(0, 10);
  return { runDir: paths.run, knownHosts: join(paths.home, 'known_hosts'), fallbackRunDir: join(tmpdir(), `lmx-ssh-${uid}-${tag}`) };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `file argv` with `stdin` written and closed; output capped at 1 MiB per stream (or `stdoutChars`); killed at the deadline. */
export function runProcess(file: string, argv: string[], opts: { stdin?: string | Uint8Array; timeoutMs: number; env?: NodeJS.ProcessEnv; stdoutChars?: number }): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(file, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const cap = 1 << 20;
    const outCap = opts.stdoutChars ?? cap;
    child.stdout.on('data', (d: Buffer) => void (stdout.length < outCap && (stdout += d.toString('utf8'))));
    child.stderr.on('data', (d: Buffer) => void (stderr.length < cap && (stderr += d.toString('utf8'))));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
    const done = (code: number | null) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    };
    child.on('error', () => done(127));
    child.on('close', (code) => done(code));
  });
}

/**
 * Creates the socket folder (0700) and checks that it is ours and nobody else may write in it: the fallback lives in
 * /tmp, where another user could have made it first to swap the sockets. Throws a clear error otherwise.
 */
export function ensureSocketFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} (for larkmux's sockets) must be a folder owned by this user that nobody else may write in; remove it or fix it (chmod 700 ${dir})`);
  }
}

export type SshRunResult = ProcessResult & { failure: SshFailure | null };

/**
 * Runs `remote` (fixed words only: the host's `ps` shows them) on `host`, `stdin` carrying anything else. Creates the
 * socket folder (0700) first. `failure` is set when ssh itself failed; otherwise `code` is the remote command's.
 */
export async function runOverSsh(host: HostConfig, places: SshPlaces, remote: string[], opts: { stdin?: string | Uint8Array; timeoutMs?: number; ssh?: Partial<SshOptions>; env?: NodeJS.ProcessEnv; stdoutChars?: number } = {}): Promise<SshRunResult> {
  const sshOpts = { ...DEFAULT_SSH_OPTIONS, ...opts.ssh };
  ensureSocketFolder(join(controlPath(host, places), '..'));
  const res = await runProcess('ssh', sshArgv(host, places, remote, sshOpts), { stdin: opts.stdin, timeoutMs: opts.timeoutMs ?? (sshOpts.connectTimeoutS + 15) * 1000, env: opts.env, ...(opts.stdoutChars ? { stdoutChars: opts.stdoutChars } : {}) });
  return { ...res, failure: res.code === 127 && !res.stderr ? { kind: 'unknown', detail: 'the ssh command was not found; install openssh-client' } : classifySshFailure(res.code, res.stderr, res.timedOut) };
}

/** The host keys `host` offers, read with ssh-keyscan (no trust involved: the person compares the fingerprint). */
export async function scanHostKeys(host: Pick<HostConfig, 'ssh' | 'port'>, env?: NodeJS.ProcessEnv): Promise<ProcessResult> {
  const args = ['-T', '10', ...(host.port ? ['-p', String(host.port)] : []), '--', sshHostPart(host.ssh)];
  return runProcess('ssh-keyscan', args, { timeoutMs: 30_000, env });
}

/** Ends the host's ControlMaster if one runs; true when one did. */
export async function closeMaster(host: HostConfig, places: SshPlaces, env?: NodeJS.ProcessEnv): Promise<boolean> {
  const res = await runProcess('ssh', closeMasterArgv(host, places), { timeoutMs: 15_000, env });
  return res.code === 0;
}
