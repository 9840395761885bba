// Where a new session of a bot runs (its host and folder), and what its topic is told when that host cannot take a
// worker: the two placement decisions of the session's owner (session-service.ts), kept apart so it stays small.
import type { BotConfig } from '../../shared/config.js';
import { LOCAL_HOST, type HostConfig } from '../../shared/host-config.js';
import type { Translate } from '../../shared/i18n.js';
import { defaultRemoteDir, formatPlace, hostPickerEntries, pickerChoices } from '../../shared/session-place.js';
import { expandHome } from '../../platform/paths.js';
import type { WorkerPlacement } from '../workers/worker-pool.js';
import type { LowMemoryRefusal } from './capacity-keeper.js';
import type { HostWaitReason } from '../../shared/host-wait.js';
import { hostsAddCommand } from '../../platform/ssh/ssh-failure.js';

/** The folder of a new session at `host` when none was named: the bot's folder there (this machine: `~` expanded). */
export function newSessionDir(bot: Pick<BotConfig, 'workingDir'>, hosts: readonly HostConfig[], host: string): string {
  return host === LOCAL_HOST ? expandHome(bot.workingDir) : defaultRemoteDir(bot.workingDir, hosts.find((h) => h.name === host));
}

/** What a new topic's folder picker offers the bot (places as formatPlace writes them): its projects or its own folder, then each host's roots. */
export function folderPickerChoices(bot: Pick<BotConfig, 'workingDir' | 'projects' | 'host'>, hosts: readonly HostConfig[]): string[] {
  const host = bot.host ?? LOCAL_HOST;
  const botFolder = formatPlace({ host, dir: newSessionDir(bot, hosts, host) });
  return pickerChoices(bot.projects.map((p) => expandHome(p)), hostPickerEntries(hosts).map((e) => e.path), botFolder);
}

/** The card notice of a turn that found no worker: the host's reason when the pool has one, else the usual. */
export function noWorkerNotice(problem: ((p: WorkerPlacement) => string | undefined) | undefined, host: string, t: Translate): string {
  return problem?.({ host }) === 'remote_unavailable' ? t('notice.hostUnavailable', { host }) : t('notice.workerDown');
}

/**
 * The card notice of a turn whose host could not be reached: since when (the daemon's clock, hh:mm), and that it
 * waits; a changed host key says so, with the command that re-pins it (the host is not tried again until then).
 */
export function hostWaitNotice(host: HostConfig | string, since: number, reason: HostWaitReason, t: Translate): string {
  const d = new Date(since);
  const hhmm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (typeof host === 'string' || reason === 'unreachable') return t('notice.hostUnreachable', { host: typeof host === 'string' ? host : host.name, since: hhmm });
  return t('notice.hostKeyChanged', { host: host.name, since: hhmm, command: hostsAddCommand('larkmux', host.name, host.ssh, host.port) });
}

/** The card notice of a turn whose machine is short of memory for a new CLI: where, how much is free, the floor (MiB). */
export function lowMemoryNotice(why: LowMemoryRefusal, t: Translate): string {
  const mib = (b: number) => Math.floor(b / (1024 * 1024));
  const where = why.host === LOCAL_HOST ? t('capacity.thisMachine') : t('capacity.hostNamed', { host: why.host });
  return t('capacity.lowMemory', { where, free: mib(why.availableBytes), floor: mib(why.floorBytes) });
}
