// Prompts for sessions whose host could not be reached: they wait here — never run on this machine, never dropped —
// and are sent again after a pause that doubles up to a minute, so a host that stays down costs a connection attempt
// a minute, not a tight loop. Only prompts that never left this machine come here (worker-link.ts `unsent`): sending
// them again cannot make a duplicate.
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { SessionCore } from '../ground/session-core.js';
import type { SendOutcome, SessionWorker } from '../workers/session-worker.js';

export const HOST_RETRY = {
  /** The first pause: a host that blinked is back soon. */
  firstMs: 2_000,
  /** The longest pause: a host that stays down is tried once a minute. */
  maxMs: 60_000,
} as const;

/** The pause before retry number `attempt` (0 first): doubling from firstMs, capped at maxMs. */
export function hostRetryDelayMs(attempt: number): number {
  return Math.min(HOST_RETRY.maxMs, HOST_RETRY.firstMs * 2 ** Math.min(Math.max(attempt, 0), 16));
}

export type WaitingPrompt = Extract<DaemonToWorker, { type: 'input' | 'raw_input' }>;

/** The prompts among messages that did not reach a host (other messages — keys, screenshots — lose their moment). */
export function waitingPrompts(unsent: readonly DaemonToWorker[]): WaitingPrompt[] {
  return unsent.filter((m): m is WaitingPrompt => m.type === 'input' || m.type === 'raw_input');
}

/** What the waits need of the session's owner (SessionService). */
export interface HostWaitPorts {
  session(id: string): SessionCore | undefined;
  /** Runs a job in the session's message order. */
  inOrder(s: SessionCore, job: () => Promise<void>): void;
  /** Launches the session's worker within the caps (false: it could not be launched). */
  launch(s: SessionCore): Promise<boolean>;
  worker(s: SessionCore): SessionWorker;
  /** Tells the session's topic, once an outage, that its host is unreachable since `since` and its prompts wait. */
  notify(s: SessionCore, since: number): void;
}

/** A turn's text as the message its worker gets. */
export function turnPrompt(turn: { messageId: string; kind: 'prompt' | 'passthrough'; text: string; requester: Extract<WaitingPrompt, { type: 'input' }>['requester'] }): WaitingPrompt {
  return turn.kind === 'prompt' ? { type: 'input', turnId: turn.messageId, text: turn.text, requester: turn.requester } : { type: 'raw_input', turnId: turn.messageId, text: turn.text };
}

export function sendPrompt(w: SessionWorker, m: WaitingPrompt): SendOutcome {
  return m.type === 'input' ? w.input(m.turnId, m.text, m.requester) : w.rawInput(m.turnId, m.text);
}

interface Outage {
  since: number;
  /** The topic was told (with the first prompt that waits). */
  told: boolean;
  attempts: number;
  timer: NodeJS.Timeout | null;
  prompts: WaitingPrompt[];
}

export class HostWaits {
  private readonly outages = new Map<string, Outage>();
  /** The daemon is stopping: links dropped now are its own doing, and nothing is retried (waiting prompts are in memory only). */
  private disposed = false;

  constructor(private readonly ports: HostWaitPorts) {}

  /**
   * Session `id`'s link to its host was lost or never made: an outage begins (if none runs), and the prompts that did
   * not reach the host wait in it, sent again after the pause. The topic is told once, when the first prompt waits.
   */
  hold(id: string, unsent: readonly DaemonToWorker[]): void {
    if (this.disposed) return;
    const o: Outage = this.outages.get(id) ?? { since: Date.now(), told: false, attempts: 0, timer: null, prompts: [] };
    this.outages.set(id, o);
    const prompts = waitingPrompts(unsent);
    if (!prompts.length) return;
    o.prompts.push(...prompts);
    o.timer ??= setTimeout(() => this.retry(id, o), hostRetryDelayMs(o.attempts));
    const s = this.ports.session(id);
    if (!o.told && s) this.ports.notify(s, o.since);
    o.told = true;
  }

  /**
   * A prompt that found no worker: when the session's host is out (the link failed before the prompt was handed over),
   * it waits with the others (true); otherwise false, and the caller says the worker is down.
   */
  join(id: string, prompt: WaitingPrompt): boolean {
    if (!this.outages.has(id)) return false;
    this.hold(id, [prompt]);
    return true;
  }

  /** The session's worker is up on its host: the outage is over (a later loss is a new one, told again). */
  recovered(id: string): void {
    const o = this.outages.get(id);
    if (o?.timer) clearTimeout(o.timer);
    this.outages.delete(id);
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.outages.keys()]) this.recovered(id);
  }

  private retry(id: string, o: Outage): void {
    o.timer = null;
    o.attempts += 1;
    const prompts = o.prompts.splice(0);
    const s = this.ports.session(id);
    if (!s || s.lifecycle === 'closed') return this.recovered(id);
    this.ports.inOrder(s, async () => {
      if (!(await this.ports.launch(s))) return void this.hold(id, prompts);
      for (const m of prompts) if (sendPrompt(this.ports.worker(s), m) !== 'sent') this.hold(id, [m]);
    });
  }
}
