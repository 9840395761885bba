// The configured hosts as `larkmux hosts` sees them: config read, pinned or not, and one connection attempt each.
import { existsSync, readFileSync } from 'node:fs';
import { readConfigFile } from '../../platform/config-file.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import { isPinned, knownHostsName } from '../../platform/ssh/known-hosts.js';
import { sshHostPart } from '../../platform/ssh/ssh-argv.js';
import type { SshFailure } from '../../platform/ssh/ssh-failure.js';
import { runOverSsh, sshPlaces } from '../../platform/ssh/ssh-run.js';
import type { Config } from '../../shared/config.js';
import type { HostConfig } from '../../shared/host-config.js';
import type { Translate } from '../../shared/i18n.js';

/** reachable: a command ran; unreachable: nothing answers; refused: the host key or our key was refused; unknown: no clear answer (a timeout is never "unreachable"). */
export type HostReach = 'reachable' | 'unreachable' | 'refused' | 'unknown';

/** The settings a one-shot command uses: the master ends with the command (a running daemon's master is reused). */
export const CLI_SSH = { persist: 'no', connectTimeoutS: 10 } as const;

/** The config, or null after saying what is wrong with it (zod's findings as config-file.ts words them). */
export function loadConfig(paths: LarkmuxPaths, env: NodeJS.ProcessEnv, err: (l: string) => void, t: Translate): Config | null {
  const cfg = readConfigFile(paths.config, env);
  if (cfg.ok) return cfg.config;
  err(t('hosts.configProblems'));
  for (const e of cfg.errors) err(`  ${e}`);
  return null;
}

export function hostIsPinned(paths: Pick<LarkmuxPaths, 'home' | 'run'>, host: HostConfig): boolean {
  const file = sshPlaces(paths).knownHosts;
  return existsSync(file) && isPinned(readFileSync(file, 'utf8'), knownHostsName(sshHostPart(host.ssh), host.port));
}

export function reachOf(failure: SshFailure | null, code: number | null): HostReach {
  if (!failure) return code === 0 ? 'reachable' : 'unknown';
  if (failure.kind === 'unreachable') return 'unreachable';
  if (failure.kind === 'unknown') return 'unknown';
  return 'refused';
}

export async function probeReach(paths: LarkmuxPaths, host: HostConfig, env: NodeJS.ProcessEnv): Promise<{ reach: HostReach; failure: SshFailure | null }> {
  const res = await runOverSsh(host, sshPlaces(paths), ['true'], { ssh: CLI_SSH, env });
  return { reach: reachOf(res.failure, res.code), failure: res.failure };
}
