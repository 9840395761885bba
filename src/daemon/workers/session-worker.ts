// The only place the daemon builds a message for a session's worker, and the one rule on whether sending it wakes a
// sleeping worker (a session whose CLI may still run in tmux while no worker watches it: after a restart, after the
// capacity keeper detached it). Before this, /display woke a worker and the Display button did not.
import type { DaemonToWorker, DisplayMode, HurryHow, Requester } from '../../shared/ipc.js';
import type { KeyName } from '../../shared/keys.js';
import type { WebUpstream } from './worker-link.js';

/** Messages a session sends; `init` and `close` belong to the pool (it starts and stops workers). */
export type SessionMessage = Exclude<DaemonToWorker, { type: 'init' | 'close' }>;

/**
 * What a message needs when no worker runs:
 * - `wake`: it acts on the CLI now (a key, a choice, a screenshot): the worker is forked first.
 * - `launched`: a prompt; the capacity keeper launches the worker within the caps before it is sent, so a missing
 *   worker here means the launch failed and the send fails (never a second launch around the caps).
 * - `if_running`: only a running worker has anything to change (the display mode reaches a later worker in its init;
 *   a sleeping worker has no web connection to close): nothing to do, not a failure.
 */
export type WakeRule = 'wake' | 'launched' | 'if_running';

export const WAKE_RULE: Readonly<Record<SessionMessage['type'], WakeRule>> = {
  input: 'launched',
  raw_input: 'launched',
  key: 'wake',
  selection_choice: 'wake',
  capture_now: 'wake',
  set_display: 'if_running',
  web_revoke: 'if_running',
  // A waiting message sits in a running worker's queue: with no worker there is nothing to hurry.
  hurry: 'if_running',
};

/** `sent`; `skipped`: no worker runs and the message needs none; `no_worker`: it needed one that could not start. */
export type SendOutcome = 'sent' | 'skipped' | 'no_worker' | 'send_failed';

/** The worker pool as a session sees it (WorkerPool satisfies it; tests use a small real class). */
export interface WorkerChannel {
  has(sessionId: string): boolean;
  send(sessionId: string, msg: DaemonToWorker): boolean;
}

/**
 * The one handle on a session's worker, kept by the session's owner for as long as the session is open: typed
 * messages to it (`wake` forks the worker, SessionService.ensureWorker, and says whether it runs), and what the
 * running worker said about itself (its web port, once `ready`).
 */
export class SessionWorker {
  /** The running worker's web terminal as it said (`none`: it has none); null until `ready`, and again once it exits. */
  private web: WebUpstream | 'none' | null = null;
  private readyWaiters: ((ok: boolean) => void)[] = [];

  constructor(
    readonly sessionId: string,
    private readonly channel: WorkerChannel,
    private readonly wake: () => boolean,
  ) {}

  get running(): boolean {
    return this.channel.has(this.sessionId);
  }

  get webTerminal(): WebUpstream | 'none' | null {
    return this.web;
  }

  /** The worker said `ready` (its web terminal: a port, a socket on its machine, or 0 for none): whoever waits goes on. */
  ready(webPort: number, webSocket?: string): void {
    this.web = webSocket ? { socketPath: webSocket } : webPort ? { port: webPort } : 'none';
    for (const w of this.readyWaiters.splice(0)) w(true);
  }

  /** The worker process ended: whoever waits for it learns so; its web port is stale. */
  gone(): void {
    this.web = null;
    for (const w of this.readyWaiters.splice(0)) w(false);
  }

  /** Where this machine reaches its web terminal: as it said, or through `reach` (on a host: the link's forward). */
  async webUpstream(reach: (said: WebUpstream) => Promise<WebUpstream | null> | WebUpstream): Promise<WebUpstream | null> {
    return this.web === null || this.web === 'none' ? null : reach(this.web);
  }

  /** Resolves when the worker has said `ready` (true) or exited first (false). */
  waitReady(): Promise<boolean> {
    if (this.web !== null) return Promise.resolve(true);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * `inFlightSince`: in flight when its host's link dropped (host-waits.ts): the worker there checks before typing it;
   * `delivered`: reported delivered then, only its answer is due (never typed again).
   */
  input(turnId: string, text: string, requester: Requester, inFlightSince?: number, delivered?: true): SendOutcome {
    return this.send({ type: 'input', turnId, text, requester, ...(inFlightSince !== undefined ? { inFlightSince } : {}), ...(delivered ? { delivered } : {}) });
  }

  /** A CLI command the person typed (`/model …`): typed as it is, outside the prompt protocol. */
  rawInput(turnId: string, text: string, inFlightSince?: number): SendOutcome {
    return this.send({ type: 'raw_input', turnId, text, ...(inFlightSince !== undefined ? { inFlightSince } : {}) });
  }

  key(key: KeyName, by?: Requester): SendOutcome {
    return this.send({ type: 'key', key, ...(by ? { by } : {}) });
  }

  /** An answer to a selection prompt; `text` is typed literally after picking the option that takes it. */
  choose(promptId: string, optionIndex: number, by: Requester, text?: string): SendOutcome {
    return this.send({ type: 'selection_choice', promptId, optionIndex, by, ...(text ? { text } : {}) });
  }

  /** A waiting message's card tap: steer it into the working CLI, or interrupt the turn and send it next. */
  hurry(turnId: string, how: HurryHow, by: Requester): SendOutcome {
    return this.send({ type: 'hurry', turnId, how, by });
  }

  captureNow(): SendOutcome {
    return this.send({ type: 'capture_now' });
  }

  setDisplay(mode: DisplayMode): SendOutcome {
    return this.send({ type: 'set_display', mode });
  }

  /** Write grants were revoked: the worker closes its open write connections. */
  revokeWrites(): SendOutcome {
    return this.send({ type: 'web_revoke' });
  }

  private send(msg: SessionMessage): SendOutcome {
    if (!this.running) {
      const rule = WAKE_RULE[msg.type];
      if (rule === 'if_running') return 'skipped';
      if (rule === 'launched' || !this.wake()) return 'no_worker';
    }
    return this.channel.send(this.sessionId, msg) ? 'sent' : 'send_failed';
  }
}

/** Whether an outcome means the message did what was asked (a skipped message had nothing to do). */
export const delivered = (o: SendOutcome): boolean => o === 'sent' || o === 'skipped';
