// Capacity planning (pure): from every session and the launches waiting for a slot, which actions to take now —
// launch a waiting session, detach an idle worker, stop an idle CLI (through its worker, or through tmux when it has
// none) — so that every group stays within maxLiveWorkers / maxLiveClis and busy sessions are never touched; and detach
// the worker of a session that has been idle for its bot's idleDetachMinutes (its CLI keeps running in tmux). A group is
// a bot's sessions on this machine (its own caps, as before hosts), or all sessions on another host (that host's caps,
// DESIGN §12): groups are planned apart, so a full host never blocks sessions anywhere else.
import type { SessionStatus } from '../../shared/ipc.js';
import { LOCAL_HOST } from '../../shared/host-config.js';

export const CAPACITY = {
  /**
   * Actions (worker detaches, CLI stops) running at once: each is an exec or a worker's exit, cheap for the daemon;
   * 8 drains a burst of 100 topics within the 2 s goal (issue 14) without flooding a 2-core host with tmux forks.
   */
  maxConcurrentActions: 8,
  /**
   * A session that was handed a message stays protected until its answer (or failure) comes back, at most this long:
   * a turn whose CLI never reports an answer must not hold a slot for ever.
   */
  pinMaxMs: 120_000,
  /** While launches wait or a bot is over its caps, the plan is re-made this often even if nothing reports. */
  recheckMs: 500,
  /** A launch that waits this long for a slot says so on its card (the person sees why it has not started). */
  queuedNoticeAfterMs: 1_500,
  /**
   * An idle session that a web terminal is watching keeps its worker (detaching would cut the terminal); it is looked
   * at again this often, and detached once nobody watches.
   */
  watchedRecheckMs: 60_000,
} as const;

/**
 * The free memory (MemAvailable) below which no new CLI is started, on this machine or a host alike: a model CLI's
 * node process takes 200–400 MB as it starts, and one started into less pushes the machine into swap or has the OOM
 * killer end a CLI that was already working. An unknown amount (no /proc/meminfo, a host not reached yet) never blocks.
 * `LARKMUX_MIN_FREE_MEMORY_MIB` sets another floor (an operator's small VM; tests).
 */
export const MEMORY_FLOOR = { defaultBytes: 512 * 1024 * 1024, env: 'LARKMUX_MIN_FREE_MEMORY_MIB' } as const;

/** The floor in bytes: the environment's when it is a whole number of MiB, else the default. */
export function memoryFloorBytes(env: NodeJS.ProcessEnv): number {
  const raw = env[MEMORY_FLOOR.env];
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) * 1024 * 1024 : MEMORY_FLOOR.defaultBytes;
}

/**
 * Caps of another host whose config names none: the bot defaults (config.ts), so a host is no roomier than this machine
 * unless its entry says so.
 */
export const HOST_CAP_DEFAULTS = { maxLiveWorkers: 30, maxLiveClis: 20 } as const;

/** The group a session's caps count in: its bot's on this machine, its host's elsewhere (every bot's sessions there). */
export function capacityGroup(appId: string, host: string): string {
  return host === LOCAL_HOST ? appId : `host:${host}`;
}

/** A group's caps: a bot's own (this machine), or a host's `maxLiveWorkers` / `maxLiveClis` (defaults above). */
export function groupCaps(
  group: string,
  bots: readonly { appId: string; maxLiveWorkers: number; maxLiveClis: number; idleDetachMinutes?: number }[],
  hosts: readonly { name: string; maxLiveWorkers?: number; maxLiveClis?: number }[],
): Caps {
  if (group.startsWith('host:')) {
    const h = hosts.find((x) => `host:${x.name}` === group);
    return { maxLiveWorkers: h?.maxLiveWorkers ?? HOST_CAP_DEFAULTS.maxLiveWorkers, maxLiveClis: h?.maxLiveClis ?? HOST_CAP_DEFAULTS.maxLiveClis };
  }
  const b = bots.find((x) => x.appId === group);
  return b ? { maxLiveWorkers: b.maxLiveWorkers, maxLiveClis: b.maxLiveClis, idleDetachMs: (b.idleDetachMinutes ?? 0) * 60_000 } : { maxLiveWorkers: Infinity, maxLiveClis: Infinity };
}

export interface Caps {
  maxLiveWorkers: number;
  maxLiveClis: number;
  /** A quiet session's worker is detached after this long without activity; absent or 0 = never. */
  idleDetachMs?: number;
}

/** One session of the host as the planner sees it. */
export interface HostSession {
  id: string;
  /** Where its caps count (capacityGroup): its bot on this machine, its host elsewhere. */
  group: string;
  /** Its bot's idle rule, when its group mixes bots (another host); absent: the group's caps say. */
  idleDetachMs?: number;
  status: SessionStatus;
  lastActivityAt: number;
  /** A worker process runs for it (also while it is being stopped). */
  worker: boolean;
  /** Its CLI runs in tmux — attached or detached. */
  cliRunning: boolean;
  /** A message is on its way to it: never chosen. */
  pinned: boolean;
  /**
   * Its CLI is a person's own (taken over with /adopt): it is never stopped — ending larkmux's link would leave it
   * running, and the next message would start a second one beside it. Its worker may still be detached.
   */
  keepCli?: boolean;
  /** A web terminal is connected to its worker: never detached for being idle (caps still apply). */
  watched?: boolean;
  /** An action on it is under way: never chosen again, and counted as done for planning further evictions. */
  underway?: 'detach' | 'stop';
}

/** A session waiting for a worker slot, in arrival order. */
export interface WaitingLaunch {
  id: string;
  group: string;
}

export type CapacityAction =
  | { kind: 'launch'; id: string }
  /** `idle`: detached for having been idle for idleDetachMs, not for a cap. */
  | { kind: 'detach'; id: string; idle?: true }
  /** `tmux`: no worker runs, so the daemon ends the tmux session itself (no worker is forked to do it). */
  | { kind: 'stop'; id: string; via: 'worker' | 'tmux' }
  /**
   * Its group's machine has less free memory than the floor: no new CLI is started there yet. The launch keeps waiting
   * (the topic is told once why) and goes as soon as a later plan finds enough free memory.
   */
  | { kind: 'short'; id: string; availableBytes: number; floorBytes: number };

export interface HostState {
  sessions: readonly HostSession[];
  waiting: readonly WaitingLaunch[];
  caps: (group: string) => Caps;
  /** The time the idle rule measures against; without it no session is detached for being idle. */
  now?: number;
  /** Free memory of the group's machine in bytes, null when unknown; asked only for a group with launches waiting. */
  memory?: (group: string) => number | null;
  /** No new CLI starts where less than this is free (MEMORY_FLOOR); absent: memory is not looked at. */
  minFreeMemoryBytes?: number;
}

/** Only a session that waits for nothing may be touched: busy or asking ones never are. */
export function isQuiet(status: SessionStatus): boolean {
  return status === 'idle' || status === 'exited' || status === 'failed';
}

/**
 * Per bot: first make room — least recently used quiet sessions go, a stopped CLI also frees its worker — for what is
 * running plus the waiting launches the worker cap can take next (not the whole backlog); then admit waiting launches while the caps, counted with the processes that still exist
 * (a stop under way still occupies its slot), allow. So our own launches never push a bot over its caps, and a stream
 * of arrivals only ever waits for slots that quiet sessions free.
 */
export function planCapacity(host: HostState): CapacityAction[] {
  const groups = new Set([...host.sessions.map((s) => s.group), ...host.waiting.map((w) => w.group)]);
  return [...groups].sort().flatMap((g) =>
    planGroup(
      host.sessions.filter((s) => s.group === g),
      host.waiting.filter((w) => w.group === g),
      host.caps(g),
      host.now,
      () => (host.minFreeMemoryBytes === undefined ? null : lowMemory(host.memory?.(g) ?? null, host.minFreeMemoryBytes)),
    ),
  );
}

/** The refusal's numbers when `available` is known and below `floor`; null: nothing to refuse for. */
function lowMemory(available: number | null, floor: number): { availableBytes: number; floorBytes: number } | null {
  return available !== null && available < floor ? { availableBytes: available, floorBytes: floor } : null;
}

/** A session the idle rule may detach (at its due time): a quiet worker nobody waits on or watches. */
function idleCandidate(s: HostSession, waitingIds: ReadonlySet<string>): boolean {
  return s.worker && s.underway === undefined && !s.pinned && !s.watched && !waitingIds.has(s.id) && isQuiet(s.status);
}

/**
 * When the idle rule will next have something to detach, for the keeper's timer: the earliest due time of a quiet
 * worker, or of a watched one a minute on (it is looked at again then); null when no bot has the rule or nothing is due.
 */
export function nextIdleDetachAt(host: HostState): number | null {
  const waitingIds = new Set(host.waiting.map((w) => w.id));
  let next: number | null = null;
  for (const s of host.sessions) {
    const idleMs = s.idleDetachMs ?? host.caps(s.group).idleDetachMs;
    if (!idleMs || !idleCandidate({ ...s, watched: false }, waitingIds)) continue;
    let due = s.lastActivityAt + idleMs;
    if (s.watched) due = Math.max(due, (host.now ?? 0) + CAPACITY.watchedRecheckMs);
    if (next === null || due < next) next = due;
  }
  return next;
}

function planGroup(
  sessions: readonly HostSession[], waiting: readonly WaitingLaunch[], caps: Caps, now: number | undefined, short: () => { availableBytes: number; floorBytes: number } | null,
): CapacityAction[] {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const waitingIds = new Set(waiting.map((w) => w.id));
  // Waiting sessions that already have a worker need no slot (their stop is still under way, or they just got one).
  const slotless = waiting.map((w) => byId.get(w.id)).filter((s): s is HostSession => s !== undefined && !s.worker);
  // A launch that would start a CLI where memory is short waits for memory, and makes no room meanwhile (stopping
  // idle CLIs for it would lose them for nothing). Re-attaching to a running CLI starts none: it may go.
  const low = slotless.some((s) => !s.cliRunning) ? short() : null;
  const refusals: CapacityAction[] = low ? slotless.filter((s) => !s.cliRunning).map((s) => ({ kind: 'short', id: s.id, ...low })) : [];
  const queued = low ? slotless.filter((s) => s.cliRunning) : slotless;
  const count = (f: (s: HostSession) => boolean) => sessions.filter(f).length;

  const lru = sessions
    .filter((s) => s.underway === undefined && !s.pinned && !waitingIds.has(s.id) && isQuiet(s.status))
    .sort((a, b) => a.lastActivityAt - b.lastActivityAt || a.id.localeCompare(b.id));
  // Workers no stop or detach is under way for: they stay unless this plan ends them.
  const settledWorkers = count((s) => s.worker && s.underway === undefined);
  // Only the launches the worker cap can admit once every quiet worker is gone make room now: the rest wait behind
  // busy workers anyway, and stopping an idle CLI for them only loses it (issue 31 item 15: a backlog of 72 launches
  // at caps 4/8 stopped 64 idle CLIs and kept 4 alive). Each later plan admits, and makes room for, the next ones.
  const keptWorkers = settledWorkers - lru.filter((s) => s.worker).length; // the quiet ones (lru) may go
  const admissible = queued.slice(0, Math.max(0, caps.maxLiveWorkers - keptWorkers));

  // What will exist once the actions under way have finished, plus what the admissible launches need.
  let wantWorkers = settledWorkers + admissible.length;
  let wantClis = count((s) => s.cliRunning && s.underway !== 'stop') + admissible.filter((s) => !s.cliRunning).length;

  const actions: CapacityAction[] = [];
  const chosen = new Set<string>();
  for (const s of lru) {
    if (wantClis <= caps.maxLiveClis) break;
    if (!s.cliRunning || s.keepCli) continue;
    actions.push({ kind: 'stop', id: s.id, via: s.worker ? 'worker' : 'tmux' });
    chosen.add(s.id);
    wantClis--;
    if (s.worker) wantWorkers--;
  }
  for (const s of lru) {
    if (wantWorkers <= caps.maxLiveWorkers) break;
    if (!s.worker || chosen.has(s.id)) continue;
    actions.push({ kind: 'detach', id: s.id });
    chosen.add(s.id);
    wantWorkers--;
  }
  // Idle for long enough: the worker goes whatever the caps (an idle session then costs no process of larkmux's).
  if (now !== undefined) {
    for (const s of sessions) {
      const idleMs = s.idleDetachMs ?? caps.idleDetachMs;
      if (!idleMs || chosen.has(s.id) || !idleCandidate(s, waitingIds) || now - s.lastActivityAt < idleMs) continue;
      actions.push({ kind: 'detach', id: s.id, idle: true });
    }
  }

  // Admission counts every process that exists now, including those on their way out.
  let workers = count((s) => s.worker);
  let clis = count((s) => s.cliRunning);
  const launches: CapacityAction[] = [];
  for (const s of queued) {
    const needsCli = !s.cliRunning;
    if (workers >= caps.maxLiveWorkers || (needsCli && clis >= caps.maxLiveClis)) continue;
    launches.push({ kind: 'launch', id: s.id });
    workers++;
    if (needsCli) clis++;
  }
  return [...refusals, ...launches, ...actions];
}
