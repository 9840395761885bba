// A worker on another host as the pool sees it: messages go out as frames through the host's agent, and what the
// agent reports (started, messages, exit, the link gone) comes back through here.
import type { DaemonToAgent } from '../../shared/host-agent-protocol.js';
import type { DaemonToWorker } from '../../shared/ipc.js';
import { tmuxSocketName } from '../../shared/tmux-socket.js';
import type { WorkerLink, WorkerLinkEvents, WorkerLinkExit } from './worker-link.js';

/** How a RemoteWorker reaches its agent: false when the frame could not be written (no link now). */
export type AgentWrite = (frame: DaemonToAgent) => boolean;

export class RemoteWorker implements WorkerLink {
  private hostPid: number | undefined;
  private gone = false;
  private events: WorkerLinkEvents | null = null;
  /** Messages sent before the agent is up (the init first): written in order once the link is made. */
  private pending: DaemonToWorker[] = [];
  private write: AgentWrite | null = null;
  /** Prompts written to the host whose delivery it has not reported yet, by turn: in flight if the link drops now. */
  private readonly handed = new Map<string, Extract<DaemonToWorker, { type: 'input' | 'raw_input' }>>();
  /**
   * Prompts the host reported delivered whose answer has not come, by turn: their turns run there. If the link drops
   * now they are handed over again marked `delivered`, so the worker there sends their answer (never types them).
   */
  private readonly running = new Map<string, Extract<DaemonToWorker, { type: 'input' }>>();
  /** larkmux's folder on the host: the worker's `init.home` there (the daemon's own home means nothing on the host). */
  private hostHome = '';

  /** `reach`: the host's forward from a socket here to the worker's web terminal socket there (remote-web-forwards.ts). */
  constructor(readonly sessionId: string, private readonly reach?: (remoteSocket: string) => Promise<string | null>) {}

  get pid(): number | undefined {
    return this.hostPid;
  }

  get connected(): boolean {
    return !this.gone;
  }

  get exited(): boolean {
    return this.gone;
  }

  listen(events: WorkerLinkEvents): void {
    this.events = events;
  }

  reachSocket(socketPath: string): Promise<string | null> {
    return this.gone || !this.reach ? Promise.resolve(null) : this.reach(socketPath);
  }

  /** The agent is up: the start frame and anything queued go out now. */
  linked(write: AgentWrite, hostHome: string, env: Record<string, string>): void {
    if (this.gone) return;
    this.write = write;
    this.hostHome = hostHome;
    write({ kind: 'start', session: this.sessionId, env: { ...env, LARKMUX_HOME: hostHome } });
    for (const m of this.pending.splice(0)) this.hand(m);
  }

  /** Writes one message to the host; a prompt is noted as in flight until the worker there reports its delivery. */
  private hand(m: DaemonToWorker): boolean {
    const ok = this.write!(this.frame(m));
    // Marked with when it left, unless an earlier link handed it already (that is when it may have been typed).
    if (ok && (m.type === 'input' || m.type === 'raw_input')) this.handed.set(m.turnId, { ...m, inFlightSince: m.inFlightSince ?? Date.now() });
    return ok;
  }

  /**
   * The init as the host needs it: larkmux's folder there, and with no socket named (a session's owner names none for
   * a host) the tmux server that folder derives (DESIGN §11) — the daemon's own socket names a server of this machine,
   * and on a host shared with another larkmux (or this very machine reached over ssh) it would mix their sessions.
   * Its web terminal listens on a unix socket there (`webUnix`): nothing listens on a host's network.
   */
  private frame(msg: DaemonToWorker): DaemonToAgent {
    const hosted = msg.type === 'init' ? { ...msg, home: this.hostHome, tmuxSocket: msg.tmuxSocket ?? tmuxSocketName(null, this.hostHome), webUnix: true } : msg;
    return { kind: 'msg', session: this.sessionId, msg: hosted };
  }

  send(msg: DaemonToWorker, done: (err: Error | null) => void): void {
    if (this.gone) return done(new Error('the worker is gone'));
    if (!this.write) {
      this.pending.push(msg);
      return done(null);
    }
    done(this.hand(msg) ? null : new Error('the link to the host is down'));
  }

  kill(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.gone) return;
    // Not on the host yet: nothing runs there to signal, so it is gone now.
    if (!this.write) return this.exit({ code: null, signal });
    this.write({ kind: 'signal', session: this.sessionId, signal });
  }

  started(pid: number): void {
    this.hostPid = pid;
  }

  message(raw: unknown): void {
    if (this.gone) return;
    // Its delivery reported either way: no longer in flight.
    const m = raw as { type?: unknown; turnId?: unknown; joined?: unknown };
    if ((m?.type === 'input_delivered' || m?.type === 'input_failed') && typeof m.turnId === 'string') {
      const handed = this.handed.get(m.turnId);
      this.handed.delete(m.turnId);
      // A CLI command (raw) has no answer of its own to wait for; a prompt's turn runs until its final output.
      if (m.type === 'input_delivered' && handed?.type === 'input') this.running.set(m.turnId, { ...handed, delivered: true });
    }
    if (m?.type === 'final_output') {
      if (typeof m.turnId === 'string') this.running.delete(m.turnId);
      for (const joined of Array.isArray(m.joined) ? m.joined : []) this.running.delete(String(joined));
    }
    // The CLI is gone: no answer will come for what ran in it.
    if (m?.type === 'cli_exit') this.running.clear();
    this.events?.message(raw);
  }

  /** Reported once: the agent's exit frame, or the link's loss (`cause: 'link_lost'`). */
  exit(exit: WorkerLinkExit): void {
    if (this.gone) return;
    this.gone = true;
    // Never linked: what was queued never reached the host, so the session may send it again without a duplicate.
    const unsent = exit.cause === 'link_lost' && !this.write && this.pending.length ? { unsent: this.pending } : {};
    // Handed over, never reported: the worker on the host checks them against the CLI's transcript when it is back.
    // Delivered and still running (older than those): their answers are due; oldest first.
    const back = [...this.running.values(), ...this.handed.values()];
    const inFlight = exit.cause === 'link_lost' && back.length ? { inFlight: back } : {};
    this.pending = [];
    this.handed.clear();
    this.running.clear();
    this.events?.exit({ ...exit, ...unsent, ...inFlight });
  }
}
