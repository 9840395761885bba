// A CLI's env reaches tmux in a 0600 file that a tiny sh launcher sources, deletes and then execs the CLI from:
// `new-session -e K=V` would put every value on the tmux command line, which `ps` shows to every local user (and a
// tmux server keeps the argv of the client that started it for its whole life).
import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ENV_NAME } from '../../shared/env-policy.js';
import { quoteShellArg } from '../../shared/shell-quote.js';

export const LAUNCHER = {
  shell: '/bin/sh',
  /** By absolute path: a bot's `env` may set a PATH without it. */
  env: '/usr/bin/env',
  /** $0 of the launcher, so `ps` shows what it is during its few milliseconds. */
  name: 'larkmux-launch',
  /**
   * Source the file, delete it whatever happened, then become the CLI (exec keeps the pid: the pane's pid is the
   * CLI's). A file that failed to load stops the launch instead of running the CLI without its env.
   */
  script: 'f=$1; shift; . "$f"; s=$?; rm -f -- "$f"; [ "$s" -eq 0 ] || exit 126; exec "$@"',
} as const;

/** The file's text: unset what must not reach the CLI, then export the bot's env, every value single-quoted. */
export function launchScript(env: Readonly<Record<string, string>>, unset: readonly string[]): string {
  const lines = unset.length ? [`unset ${unset.join(' ')}`] : [];
  for (const [k, v] of Object.entries(env)) lines.push(`export ${k}=${quoteShellArg(v)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Splits an environment into what the launch file can export (ENV_NAME: a name `export` in /bin/sh accepts) and what
 * needs env(1) on the command line (bash's exported functions, `BASH_FUNC_x%%`).
 */
export function splitByShellName(env: Readonly<Record<string, string>>): { shell: Record<string, string>; exported: Record<string, string> } {
  const shell: Record<string, string> = {};
  const exported: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) (ENV_NAME.test(k) ? shell : exported)[k] = v;
  return { shell, exported };
}

/**
 * argv for new-session: the launcher, the file, then the CLI's own argv untouched. `viaEnv` (names sh cannot export;
 * larkmux's own, never a secret: they are visible in `ps` for the moment before the CLI execs) are set by env(1).
 */
export function launcherArgv(file: string, argv: readonly string[], viaEnv: Readonly<Record<string, string>> = {}): string[] {
  const assignments = Object.entries(viaEnv).map(([k, v]) => `${k}=${v}`);
  // env(1) takes any leading word with a `=` for an assignment, and sh drops such names from what it passes on: a
  // program path with a `=` goes without them (for the pane's `larkmux`, PATH still has it).
  const prefix = assignments.length && !(argv[0] ?? '').includes('=') ? [LAUNCHER.env, ...assignments] : [];
  return [LAUNCHER.shell, '-c', LAUNCHER.script, LAUNCHER.name, file, ...prefix, ...argv];
}

/** Writes the file (0600, created exclusively) in `dir` (0700); returns its path. */
export async function writeLaunchFile(dir: string, tag: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `launch-${tag}-${randomBytes(6).toString('hex')}.env`);
  await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  return path;
}

/** Removes a launch file the launcher never ran for (tmux refused the session). */
export async function discardLaunchFile(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}
