// `systemctl --user`, when this machine has a user systemd to talk to (containers and plain SSH sessions often do not).
import { spawnSync } from 'node:child_process';
import { which } from '../../platform/which.js';

/** A systemctl call that hangs (a wedged bus) must not hang the command. */
const SYSTEMCTL_TIMEOUT_MS = 10_000;

export type SystemctlResult = { usable: true; code: number; stdout: string } | { usable: false; why: string };

/** Failures that mean "no user manager here", not "the unit is in some state". */
const NO_USER_MANAGER = /Failed to connect to (the )?bus|No medium found|XDG_RUNTIME_DIR|Failed to .*(user|session) manager|System has not been booted with systemd/i;

export function systemctlUser(args: string[], env: NodeJS.ProcessEnv): SystemctlResult {
  const bin = which('systemctl', env);
  if (!bin) return { usable: false, why: 'systemctl is not installed' };
  const res = spawnSync(bin, ['--user', ...args], { env, encoding: 'utf8', timeout: SYSTEMCTL_TIMEOUT_MS });
  if (res.error) return { usable: false, why: `systemctl failed: ${res.error.message}` };
  const stderr = res.stderr.trim();
  if (NO_USER_MANAGER.test(stderr)) return { usable: false, why: `no user systemd here (${stderr.split('\n')[0]})` };
  return { usable: true, code: res.status ?? 1, stdout: res.stdout.trim() };
}
