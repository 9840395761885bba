// Carries out capacity plans for the whole host: gathers every bot's sessions, asks the planner (capacity.ts) and
// has each session's owner (session-service.ts) run its actions — launches at once, detaches and stops concurrently
// up to a bound. A message for a session being stopped waits for the stop and is then served by a fresh launch.
// A timer wakes it when a session's idle time (idleDetachMinutes) runs out, so idle workers go without polling.
import type { SessionStatus } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import { CAPACITY, capacityGroup, groupCaps, nextIdleDetachAt, planCapacity, type CapacityAction, type Caps, type HostSession } from './capacity.js';
import { sessionHost, type SessionCore } from '../ground/session-core.js';
import { LOCAL_HOST, type HostConfig } from '../../shared/host-config.js';

/** One bot's sessions as the keeper sees them (SessionService satisfies it): facts to plan with, actions to run. */
export interface CapacityGroup {
  readonly bot: Pick<Caps, 'maxLiveWorkers' | 'maxLiveClis'> & { appId: string; idleDetachMinutes?: number };
  all(): SessionCore[];
  get(id: string): SessionCore | undefined;
  statusOf(session: SessionCore): SessionStatus;
  workerLive(id: string): boolean;
  /** A web terminal is connected to the session's worker (it is not detached for being idle). */
  watched?(id: string): boolean;
  /** A session created by this process that never launched: its record says `live`, but no CLI runs yet. */
  launchesFresh(id: string): boolean;
  /** Forks the session's worker now, without asking for a slot (the keeper has granted one). */
  ensureWorker(session: SessionCore): boolean;
  detach(id: string): Promise<void>;
  stopCli(id: string, via: 'worker' | 'tmux'): Promise<void>;
}

export interface CapacityKeeperOptions {
  groups: () => readonly CapacityGroup[];
  /** The configured hosts: sessions placed on one count against its caps, not their bot's (capacity.ts groupCaps). */
  hosts?: () => readonly HostConfig[];
  /** Free memory of `local` or a host in bytes, null when unknown (never blocks). */
  memory?: (host: string) => number | null;
  /** No new CLI is started where less than this is free (capacity.ts MEMORY_FLOOR); absent: memory is not looked at. */
  minFreeMemoryBytes?: number;
  log: Logger;
}

/** Why a launch was refused: its machine's free memory was below the floor (both in bytes). */
export interface LowMemoryRefusal {
  host: string;
  availableBytes: number;
  floorBytes: number;
}

interface Waiter {
  id: string;
  group: string;
  /** The machine the session runs on (`local` or a host's name). */
  host: string;
  since: number;
  resolve: (ok: boolean) => void;
  onShort?: (why: LowMemoryRefusal) => void;
  /** The topic was told its machine is short of memory: told once per wait. */
  toldShort?: true;
}

export class CapacityKeeper {
  private readonly underway = new Map<string, { kind: 'detach' | 'stop'; done: Promise<void> }>();
  private readonly waiting: Waiter[] = [];
  /** Sessions handed a message: count of turns in flight and when the protection lapses at the latest. */
  private readonly pins = new Map<string, { turns: number; until: number }>();
  private scheduled = false;
  private recheck: NodeJS.Timeout | null = null;
  /** Wakes the keeper when the next idle session is due to be detached. */
  private idleTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  private disposed = false;

  constructor(private readonly opts: CapacityKeeperOptions) {}

  /**
   * Makes sure the session's worker runs, within the caps: waits for an action under way on it (a stop), then for a
   * slot, and for free memory where it would start a new CLI (`onShort` is told once why). `onQueued` is called once if
   * the wait is long enough to tell the person. Resolves false only on shutdown or when the worker could not be started.
   * The session is pinned (never detached or stopped) until `turnDone`.
   */
  async launch(rt: CapacityGroup, session: SessionCore, onQueued?: () => void, onShort?: (why: LowMemoryRefusal) => void): Promise<boolean> {
    this.pin(session.id);
    await this.underway.get(session.id)?.done;
    if (rt.workerLive(session.id)) return true;
    const queuedTimer = onQueued ? setTimeout(onQueued, CAPACITY.queuedNoticeAfterMs) : null;
    try {
      return await new Promise<boolean>((resolve) => {
        const host = sessionHost(session);
        this.waiting.push({ id: session.id, group: capacityGroup(rt.bot.appId, host), host, since: Date.now(), resolve, ...(onShort ? { onShort } : {}) });
        this.schedule();
      });
    } finally {
      if (queuedTimer) clearTimeout(queuedTimer);
    }
  }

  /** A turn of the session ended (answer, failure): one pin fewer. */
  turnDone(sessionId: string): void {
    const p = this.pins.get(sessionId);
    if (p && --p.turns <= 0) this.pins.delete(sessionId);
    this.schedule();
  }

  /** The session's worker ended: nothing is in flight for it any more. */
  workerGone(sessionId: string): void {
    this.pins.delete(sessionId);
    this.schedule();
  }

  /** Something changed (a status, a worker started elsewhere): re-plan soon, once for many changes. */
  schedule(): void {
    if (this.scheduled || this.disposed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.tick();
    });
  }

  /** One more turn in flight for the session; the protection lapses after CAPACITY.pinMaxMs at the latest. */
  private pin(id: string): void {
    const p = this.pins.get(id);
    this.pins.set(id, { turns: (p?.turns ?? 0) + 1, until: Date.now() + CAPACITY.pinMaxMs });
  }

  private tick(): void {
    if (this.disposed) return;
    const bots = this.opts.groups();
    const now = Date.now();
    // A pin lapses only once its session has its worker: a launch that waits for a slot stays protected.
    const waitingIds = new Set(this.waiting.map((w) => w.id));
    for (const [id, p] of this.pins) if (p.until < now && !waitingIds.has(id)) this.pins.delete(id);
    const owner = new Map<string, CapacityGroup>();
    const sessions: HostSession[] = [];
    for (const rt of bots) {
      for (const s of rt.all()) {
        if (s.lifecycle === 'closed') continue;
        owner.set(s.id, rt);
        const under = this.underway.get(s.id);
        sessions.push({
          id: s.id,
          group: capacityGroup(rt.bot.appId, sessionHost(s)),
          ...(sessionHost(s) === LOCAL_HOST ? {} : { idleDetachMs: (rt.bot.idleDetachMinutes ?? 0) * 60_000 }),
          status: rt.statusOf(s),
          lastActivityAt: s.lastActivityAt,
          worker: rt.workerLive(s.id),
          ...(rt.watched?.(s.id) ? { watched: true } : {}),
          cliRunning: (s.lifecycle === 'live' || s.lifecycle === 'detached') && !rt.launchesFresh(s.id),
          pinned: this.pins.has(s.id),
          ...(s.adopted ? { keepCli: true } : {}),
          ...(under ? { underway: under.kind } : {}),
        });
      }
    }
    // A waiter whose session vanished (closed meanwhile) is told so.
    for (const w of [...this.waiting]) if (!owner.has(w.id)) this.settle(w, false);
    const botCaps = bots.map((b) => b.bot);
    const hosts = this.opts.hosts?.() ?? [];
    const memory = this.opts.memory;
    const machineOf = (g: string) => this.waiting.find((w) => w.group === g)?.host ?? LOCAL_HOST;
    const host = {
      sessions, waiting: this.waiting, caps: (g: string) => groupCaps(g, botCaps, hosts), now,
      ...(memory && this.opts.minFreeMemoryBytes !== undefined ? { memory: (g: string) => memory(machineOf(g)), minFreeMemoryBytes: this.opts.minFreeMemoryBytes } : {}),
    };
    const actions = planCapacity(host);
    let room = CAPACITY.maxConcurrentActions - this.underway.size;
    for (const a of actions) {
      const rt = owner.get(a.id);
      if (!rt) continue;
      if (a.kind === 'launch') this.admit(rt, a.id);
      else if (a.kind === 'short') this.short(a);
      else if (room > 0) {
        room--;
        this.run(rt, a);
      }
    }
    this.keepChecking(sessions.length > 0 && (this.waiting.length > 0 || actions.length > 0 || this.underway.size > 0));
    this.wakeForIdle(nextIdleDetachAt(host));
  }

  /** One timer for the earliest idle session's due time (a later plan moves it); none when nothing is due. */
  private wakeForIdle(at: number | null): void {
    if (this.idleTimer && this.idleTimer.at === at) return;
    if (this.idleTimer) clearTimeout(this.idleTimer.timer);
    this.idleTimer = null;
    if (at === null || this.disposed) return;
    // Not before the plan's own recheck: a due time in the past is served by the next tick, not a busy loop.
    const timer = setTimeout(() => {
      this.idleTimer = null;
      this.schedule();
    }, Math.max(CAPACITY.recheckMs, at - Date.now()));
    timer.unref();
    this.idleTimer = { at, timer };
  }

  private admit(rt: CapacityGroup, id: string): void {
    const w = this.waiting.find((x) => x.id === id);
    const session = rt.get(id);
    if (!w || !session) return;
    // Started synchronously, so the next plan already counts this worker. The pin's time runs from here: the new
    // CLI shows its prompt (idle) before the message is typed, and must not be stopped in between.
    const ok = rt.workerLive(id) || rt.ensureWorker(session);
    const pin = this.pins.get(id);
    if (pin) pin.until = Date.now() + CAPACITY.pinMaxMs;
    if (Date.now() - w.since > CAPACITY.queuedNoticeAfterMs) this.opts.log.info({ session: id.slice(0, 8), waitedMs: Date.now() - w.since }, 'capacity: launch waited for a free slot');
    for (const x of this.waiting.filter((y) => y.id === id)) this.settle(x, ok);
  }

  /**
   * The launch's machine is short of memory: no CLI is started, the launch keeps waiting (the recheck looks again every
   * CAPACITY.recheckMs while anything waits: this machine's meminfo read anew, a host's as its agent last said).
   */
  private short(a: Extract<CapacityAction, { kind: 'short' }>): void {
    for (const w of this.waiting.filter((x) => x.id === a.id && !x.toldShort)) {
      w.toldShort = true;
      this.opts.log.warn({ session: a.id.slice(0, 8), host: w.host, freeMiB: Math.floor(a.availableBytes / 2 ** 20), floorMiB: Math.floor(a.floorBytes / 2 ** 20) }, 'capacity: a new CLI waits, free memory is below the floor');
      w.onShort?.({ host: w.host, availableBytes: a.availableBytes, floorBytes: a.floorBytes });
    }
  }

  private settle(w: Waiter, ok: boolean): void {
    const i = this.waiting.indexOf(w);
    if (i >= 0) this.waiting.splice(i, 1);
    w.resolve(ok);
  }

  private run(rt: CapacityGroup, a: Extract<CapacityAction, { kind: 'detach' | 'stop' }>): void {
    const log = this.opts.log.child({ bot: rt.bot.appId, session: a.id.slice(0, 8) });
    const done = (async () => {
      const t0 = Date.now();
      if (a.kind === 'detach') {
        await rt.detach(a.id);
        if (a.idle) log.info({ ms: Date.now() - t0, idleMinutes: rt.bot.idleDetachMinutes }, 'idle: detached the worker (its CLI keeps running in tmux; the next message re-attaches)');
        else log.info({ ms: Date.now() - t0 }, 'over maxLiveWorkers: detached the least recently used idle worker');
        return;
      }
      await rt.stopCli(a.id, a.via);
      log.info({ ms: Date.now() - t0, via: a.via }, 'over maxLiveClis: stopped the least recently used idle CLI (it resumes on the next message)');
    })()
      .catch((err) => log.error({ err, action: a.kind }, 'capacity action failed'))
      .finally(() => {
        this.underway.delete(a.id);
        this.schedule();
      });
    this.underway.set(a.id, { kind: a.kind, done });
  }

  private keepChecking(on: boolean): void {
    if (on && !this.recheck) {
      this.recheck = setInterval(() => this.schedule(), CAPACITY.recheckMs);
      this.recheck.unref();
    } else if (!on && this.recheck) {
      clearInterval(this.recheck);
      this.recheck = null;
    }
  }

  /** Waiting launches are refused; actions under way finish on their own (the pool's dispose waits for workers). */
  dispose(): void {
    this.disposed = true;
    this.keepChecking(false);
    this.wakeForIdle(null);
    for (const w of [...this.waiting]) this.settle(w, false);
  }
}
