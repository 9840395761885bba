// `larkmux where|send` from the host's panes, as the host agent serves them on run/pane-control.sock: the caller's
// pane is found here (proof, tty, lineage: facts only this host has), and the daemon decides which of its sessions that
// pane is, or none. What the caller names never picks a session; it sends no session at all.
import { locateCallerPane } from '../../platform/caller-locator.js';
import type { ControlHandlers } from '../../platform/control-server.js';
import { CONTROL_CLIENT_GRACE_MS, controlDeadlineMs, type CallerClaim, type SendResult, type WhereResult } from '../../shared/control-protocol.js';
import { HOST_PANE_ONLY, type AgentPaneAnswer, type AgentPaneAsk } from '../../shared/host-agent-protocol.js';

type Ask = AgentPaneAsk['ask'];

export interface PaneAsksOptions {
  /** The tmux server the host's workers use (the one larkmux's folder there derives). */
  tmuxSocket: string | null;
  /** Writes the ask to the daemon; false when the link is down. */
  toDaemon: (frame: AgentPaneAsk) => boolean;
  /** The agent's log (its AgentLog). */
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

export class PaneAsks {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: AgentPaneAnswer) => void>();

  constructor(private readonly opts: PaneAsksOptions) {}

  /** The daemon's answer to one of ours (an id nobody waits for any more is ignored: its caller got an error). */
  answered(id: number, answer: AgentPaneAnswer): void {
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.(answer);
  }

  /** The link is gone: every caller still waiting hears so now. */
  linkLost(): void {
    for (const [id, done] of [...this.waiting]) {
      this.waiting.delete(id);
      done({ ok: false, error: 'the link to the larkmux daemon is down' });
    }
  }

  where(caller: CallerClaim): Promise<WhereResult> {
    return this.relay(caller, { cmd: 'where' }, (a) => ('where' in a ? a.where : undefined));
  }

  send(caller: CallerClaim, items: Extract<Ask, { cmd: 'send' }>['items']): Promise<SendResult> {
    return this.relay(caller, { cmd: 'send', items }, (a) => ('send' in a ? a.send : undefined));
  }

  /** The control handlers of the host's pane socket: `where` and `send`; every other command is refused. */
  handlers(): ControlHandlers {
    const refuse = () => {
      throw new Error(HOST_PANE_ONLY);
    };
    return {
      ping: refuse, status: refuse, stop: refuse, sessions: refuse, session_close: refuse, prune: refuse, orphans: refuse,
      console_link: refuse, console_revoke: refuse,
      where: (req) => this.where(req.caller),
      send: (req) => this.send(req.caller, req.items),
    };
  }

  private async relay<T extends { inPane: boolean }>(caller: CallerClaim, ask: Ask, pick: (a: Extract<AgentPaneAnswer, { ok: true }>) => T | undefined): Promise<T> {
    const found = await locateCallerPane(caller, this.opts.tmuxSocket);
    if (!found.ok) {
      this.opts.log('info', 'pane caller not recognised', {  pid: caller.pid, reason: found.reason, ...(found.detail ? { detail: found.detail } : {}) });
      return { inPane: false } as T;
    }
    const id = this.nextId++;
    const { tmuxSession, paneId, ttyPath } = found.pane;
    const answer = await new Promise<AgentPaneAnswer>((resolve) => {
      // The daemon keeps its own deadline for this command; this one only covers a link that stalls without closing.
      const timer = setTimeout(() => this.answered(id, { ok: false, error: 'the larkmux daemon did not answer in time' }), controlDeadlineMs(ask.cmd) + CONTROL_CLIENT_GRACE_MS / 2);
      this.waiting.set(id, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
      if (!this.opts.toDaemon({ kind: 'pane_ask', id, pane: { tmuxSession, paneId, tty: ttyPath }, ask })) this.answered(id, { ok: false, error: 'the link to the larkmux daemon is down' });
    });
    if (!answer.ok) throw new Error(answer.error);
    const result = pick(answer);
    if (!result) throw new Error('the larkmux daemon sent an unexpected answer');
    return result;
  }
}
