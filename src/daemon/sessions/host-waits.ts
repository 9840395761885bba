// Prompts for sessions whose host could not be reached: they wait here — never run on this machine, never dropped,
// kept on disk (host-wait-store.ts) so a daemon restart during the outage keeps them in order — and are sent again
// after a pause that doubles up to a minute, so a host that stays down costs a connection attempt a minute, not a
// tight loop. A host whose key changed is not tried every minute: its link is refused until someone re-pins the key,
// so it is tried again as soon as larkmux's known_hosts changes (a stat a minute, no connection) or once an hour.
// Prompts that never left this machine come here (worker-link.ts `unsent`): sending them again cannot make a
// duplicate. So do prompts that were in flight (handed to the worker on the host, their delivery never reported),
// marked `inFlightSince`: the worker there checks the CLI's transcript before typing one (worker/lifecycle/in-flight.ts),
// so each is typed again only when the transcript proves it did not arrive. A prompt handed to a worker leaves the
// file only when that worker says it is ready on its host.
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { HostWaitReason, HostWaitRecord } from '../../shared/host-wait.js';
export type { HostWaitReason } from '../../shared/host-wait.js';
import type { HostWaitStore } from './host-wait-store.js';
import type { SessionCore } from '../ground/session-core.js';
import type { SendOutcome, SessionWorker } from '../workers/session-worker.js';

export const HOST_RETRY = {
  /** The first pause: a host that blinked is back soon. */
  firstMs: 2_000,
  /**
   * The longest pause while the outage is young (earlyForMs): a link that was down for a minute (an interface
   * restarted, sshd restarted, a VPN reconnecting) is found again within seconds of its return, not up to a minute later.
   * 2 s keeps a returned link's first prompt under 5 s even when the connect itself takes 2–3 s on a loaded machine;
   * each waiting session tries on its own timer, but a connect under way is shared by all of a host's (remote-host.ts).
   */
  earlyMaxMs: 2_000,
  earlyForMs: 2 * 60_000,
  /** The longest pause after that: a host that stays down is tried once a minute. */
  maxMs: 60_000,
  /** A changed host key with known_hosts untouched: tried again this rarely (someone may have fixed the host's key). */
  keyChangedMs: 60 * 60_000,
} as const;

/**
 * The pause before retry number `attempt` (0 first) of a host down for `downForMs`: doubling from firstMs, capped at
 * earlyMaxMs while the outage is young, at maxMs after.
 */
export function hostRetryDelayMs(attempt: number, downForMs = Infinity): number {
  const cap = downForMs < HOST_RETRY.earlyForMs ? HOST_RETRY.earlyMaxMs : HOST_RETRY.maxMs;
  return Math.min(cap, HOST_RETRY.firstMs * 2 ** Math.min(Math.max(attempt, 0), 16));
}

export type WaitingPrompt = Extract<DaemonToWorker, { type: 'input' | 'raw_input' }>;

/** The prompts among messages that did not reach a host (other messages — keys, screenshots — lose their moment). */
export function waitingPrompts(unsent: readonly DaemonToWorker[]): WaitingPrompt[] {
  return unsent.filter((m): m is WaitingPrompt => m.type === 'input' || m.type === 'raw_input');
}

/** A turn's text as the message its worker gets. */
export function turnPrompt(turn: { messageId: string; kind: 'prompt' | 'passthrough'; text: string; requester: Extract<WaitingPrompt, { type: 'input' }>['requester'] }): WaitingPrompt {
  return turn.kind === 'prompt' ? { type: 'input', turnId: turn.messageId, text: turn.text, requester: turn.requester } : { type: 'raw_input', turnId: turn.messageId, text: turn.text };
}

export function sendPrompt(w: SessionWorker, m: WaitingPrompt): SendOutcome {
  return m.type === 'input' ? w.input(m.turnId, m.text, m.requester, m.inFlightSince, m.delivered) : w.rawInput(m.turnId, m.text, m.inFlightSince);
}

/** What the waits need of the session's owner (SessionService). */
export interface HostWaitPorts {
  session(id: string): SessionCore | undefined;
  /** Runs a job in the session's message order. */
  inOrder(s: SessionCore, job: () => Promise<void>): void;
  /** Launches the session's worker within the caps (false: it could not be launched). */
  launch(s: SessionCore): Promise<boolean>;
  worker(s: SessionCore): SessionWorker;
  /** Tells the session's topic, once an outage and reason, that its host is unreachable (or its key changed) since `since`. */
  notify(s: SessionCore, since: number, reason: HostWaitReason): void;
  /** What larkmux's known_hosts looks like now (size and mtime): a change means a key may have been re-pinned. */
  keysStamp(): string;
  /** Where the waiting prompts are kept. */
  store: HostWaitStore;
  now?: () => number;
}

interface Outage {
  since: number;
  reason: HostWaitReason;
  told: HostWaitReason[];
  attempts: number;
  timer: NodeJS.Timeout | null;
  /** Waiting for the next try, oldest first. */
  prompts: WaitingPrompt[];
  /** Handed to the worker at the last try; on disk until the worker is ready on its host. */
  sending: WaitingPrompt[];
  /** With `host-key-changed`: known_hosts as it was at the refusal, and when the host was last tried. */
  keys?: { stamp: string; triedAt: number };
}

export class HostWaits {
  private readonly outages = new Map<string, Outage>();
  /** The daemon is stopping: links dropped now are its own doing; nothing is retried (what waits stays on disk). */
  private disposed = false;

  constructor(private readonly ports: HostWaitPorts) {}

  private now(): number {
    return (this.ports.now ?? Date.now)();
  }

  /** After a restart: the prompts that waited on disk wait again (told already as the file says), tried soon. */
  async load(): Promise<Awaited<ReturnType<HostWaitStore['load']>>> {
    const res = await this.ports.store.load();
    for (const r of this.ports.store.all()) {
      const s = this.ports.session(r.sessionId);
      if (!s || s.lifecycle === 'closed' || !r.prompts.length) {
        if (this.ports.store.remove(r.sessionId)) void this.ports.store.flush();
        continue;
      }
      const o: Outage = { since: r.since, reason: r.reason, told: [...r.told], attempts: 0, timer: null, prompts: [...r.prompts], sending: [] };
      if (r.reason === 'host-key-changed') o.keys = { stamp: this.ports.keysStamp(), triedAt: 0 };
      this.outages.set(r.sessionId, o);
      this.schedule(r.sessionId, o);
    }
    return res;
  }

  /**
   * Session `id`'s link to its host was lost or never made (`reason`: why, when known): an outage begins (if none
   * runs), and the prompts that did not reach the host wait in it, sent again after the pause. The topic is told once
   * per reason, when a prompt first waits for it; the prompts are on disk before that.
   */
  hold(id: string, unsent: readonly DaemonToWorker[], reason: HostWaitReason = 'unreachable', inFlight: readonly WaitingPrompt[] = []): void {
    if (this.disposed) return;
    const o: Outage = this.outages.get(id) ?? { since: this.now(), reason, told: [], attempts: 0, timer: null, prompts: [], sending: [] };
    this.outages.set(id, o);
    if (reason !== o.reason) o.attempts = 0;
    o.reason = reason;
    o.keys = reason === 'host-key-changed' ? { stamp: this.ports.keysStamp(), triedAt: this.now() } : undefined;
    // What never reached the host comes back as `unsent`, in the order it was sent: what the last try handed over
    // is older than what waits, anything else is newer. What was handed over and is not among it reached the host.
    // In flight ones were handed over before anything still unsent.
    const back = [...inFlight, ...waitingPrompts(unsent)];
    const handed = new Set(o.sending.map((p) => p.turnId));
    const again = new Set(back.map((p) => p.turnId));
    o.prompts = [...back.filter((p) => handed.has(p.turnId)), ...o.prompts.filter((p) => !again.has(p.turnId)), ...back.filter((p) => !handed.has(p.turnId))];
    o.sending = [];
    const s = this.ports.session(id);
    const tell = o.prompts.length > 0 && !!s && !o.told.includes(reason);
    if (tell) o.told.push(reason);
    this.save(id, o);
    if (!o.prompts.length) return;
    this.schedule(id, o);
    if (tell && s) this.ports.notify(s, o.since, reason);
  }

  /**
   * A prompt that found no worker: when the session's host is out (the link failed before the prompt was handed over),
   * it waits with the others (true); otherwise false, and the caller says the worker is down.
   */
  join(id: string, prompt: WaitingPrompt): boolean {
    const o = this.outages.get(id);
    if (!o) return false;
    this.hold(id, [prompt], o.reason);
    return true;
  }

  /** Whether prompts of session `id` wait for its host: a new one waits behind them, never overtakes them. */
  waiting(id: string): boolean {
    return (this.outages.get(id)?.prompts.length ?? 0) > 0;
  }

  /** The session's worker is up on its host: the outage is over (a later loss is a new one, told again). */
  recovered(id: string): void {
    if (this.disposed) return;
    const o = this.outages.get(id);
    if (o?.timer) clearTimeout(o.timer);
    this.outages.delete(id);
    if (this.ports.store.remove(id)) void this.ports.store.flush();
  }

  /** The daemon stops: timers end now; what waits stays on disk for the next run (written when the promise settles). */
  dispose(): Promise<void> {
    this.disposed = true;
    for (const o of this.outages.values()) if (o.timer) clearTimeout(o.timer);
    this.outages.clear();
    return this.ports.store.dispose();
  }

  private save(id: string, o: Outage): void {
    const prompts = [...o.sending, ...o.prompts];
    if (prompts.length) this.ports.store.put({ sessionId: id, since: o.since, reason: o.reason, told: o.told, prompts } satisfies HostWaitRecord);
    else this.ports.store.remove(id);
    void this.ports.store.flush();
  }

  private schedule(id: string, o: Outage): void {
    const pause = o.reason === 'host-key-changed' ? HOST_RETRY.maxMs : hostRetryDelayMs(o.attempts, this.now() - o.since);
    o.timer ??= setTimeout(() => this.retry(id, o), pause);
  }

  private retry(id: string, o: Outage): void {
    o.timer = null;
    if (this.outages.get(id) !== o) return;
    const s = this.ports.session(id);
    if (!s || s.lifecycle === 'closed') return this.recovered(id);
    // A refused key is tried again only once someone may have re-pinned it (known_hosts changed), or hourly.
    if (o.keys && o.keys.stamp === this.ports.keysStamp() && this.now() - o.keys.triedAt < HOST_RETRY.keyChangedMs) return this.schedule(id, o);
    o.attempts += 1;
    this.ports.inOrder(s, async () => {
      if (this.outages.get(id) !== o || !o.prompts.length) return;
      o.sending = o.prompts.splice(0);
      if (!(await this.ports.launch(s))) return void this.hold(id, o.sending, o.reason);
      const sending = o.sending;
      const failed = sending.findIndex((m) => sendPrompt(this.ports.worker(s), m) !== 'sent');
      // The first that found no worker and every later one wait again, in order (none overtakes another).
      if (failed >= 0) this.hold(id, sending.slice(failed), o.reason);
    });
  }
}
