// A worker on another host as the pool sees it: messages go out as frames through the host's agent, and what the
// agent reports (started, messages, exit, the link gone) comes back through here.
import type { DaemonToAgent } from '../../shared/host-agent-protocol.js';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { WorkerLink, WorkerLinkEvents, WorkerLinkExit } from './worker-link.js';

/** How a RemoteWorker reaches its agent: false when the frame could not be written (no link now). */
export type AgentWrite = (frame: DaemonToAgent) => boolean;

export class RemoteWorker implements WorkerLink {
  private hostPid: number | undefined;
  private gone = false;
  private events: WorkerLinkEvents | null = null;
  /** Frames sent before the agent is up (the init first): written in order once the link is made. */
  private pending: DaemonToAgent[] = [];
  private write: AgentWrite | null = null;

  constructor(readonly sessionId: string) {}

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

  /** The agent is up: the start frame and anything queued go out now. */
  linked(write: AgentWrite, env: Record<string, string>): void {
    if (this.gone) return;
    this.write = write;
    write({ kind: 'start', session: this.sessionId, env });
    for (const f of this.pending.splice(0)) write(f);
  }

  send(msg: DaemonToWorker, done: (err: Error | null) => void): void {
    const frame: DaemonToAgent = { kind: 'msg', session: this.sessionId, msg };
    if (this.gone) return done(new Error('the worker is gone'));
    if (!this.write) {
      this.pending.push(frame);
      return done(null);
    }
    done(this.write(frame) ? null : new Error('the link to the host is down'));
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
    if (!this.gone) this.events?.message(raw);
  }

  /** Reported once: the agent's exit frame, or the link's loss (`cause: 'link_lost'`). */
  exit(exit: WorkerLinkExit): void {
    if (this.gone) return;
    this.gone = true;
    this.pending = [];
    this.events?.exit(exit);
  }
}
