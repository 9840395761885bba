// The control socket's `where` and `send`: find the caller's session by its tty, then answer or post into its topic.
// A caller on a host is found there by that host's agent (same rule, its /proc and tmux); the pane it reports is
// matched here only against this daemon's sessions on that very host.
import { controlDeadlineMs, type CallerClaim, type SendItem, type SendResult, type WhereResult } from '../../shared/control-protocol.js';
import type { AgentPaneAnswer, AgentPaneAsk } from '../../shared/host-agent-protocol.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { withDeadline } from '../../platform/deadline.js';
import type { Logger } from '../../platform/log.js';
import type { BotRuntime } from '../bots/bot-runtime.js';
import { sessionHost, type SessionCore } from '../ground/session-core.js';
import { sessionFileAccess } from '../outbound/answer-files.js';
import { postItems, sessionTopic } from '../outbound/post-items.js';
import type { HostFiles } from '../workers/remote-fetch.js';
import { locateCaller, type CallerLocation } from '../../platform/caller-locator.js';

interface Owned {
  bot: BotRuntime;
  session: SessionCore;
}

export class PaneRequests {
  constructor(
    private readonly bots: readonly BotRuntime[],
    /** The tmux socket larkmux's sessions live on (one function resolves it; see Daemon.tmuxSocket). */
    private readonly tmuxSocket: () => string | null,
    /** LARKMUX_HOME: its own files (config, stores, logs) are never sent. */
    private readonly home: string,
    private readonly log: Logger,
    /** How a pane on a host's files are read there (remote-fetch.ts); undefined for a host not configured. */
    private readonly filesOn: (host: string) => HostFiles | undefined = () => undefined,
  ) {}

  /** The open session whose tmux session this is, on `host` (this machine's panes never name a host's, nor back). */
  private ownerOf(tmuxSession: string, host: string = LOCAL_HOST): Owned | undefined {
    for (const bot of this.bots) {
      const session = bot.sessions.all().find((s) => s.tmuxName === tmuxSession && s.lifecycle !== 'closed' && sessionHost(s) === host);
      if (session) return { bot, session };
    }
    return undefined;
  }

  private async locate(caller: CallerClaim): Promise<CallerLocation<Owned>> {
    const loc = await locateCaller(caller, this.tmuxSocket(), (name) => this.ownerOf(name));
    if (!loc.ok) this.log.info({ pid: caller.pid, reason: loc.reason, detail: loc.detail }, 'pane caller not recognised');
    return loc;
  }

  async where(caller: CallerClaim): Promise<WhereResult> {
    const loc = await this.locate(caller);
    if (!loc.ok) return { inPane: false };
    return this.whereAnswer(loc.session, { tmuxSession: loc.pane.tmuxSession, paneId: loc.pane.paneId, tty: loc.pane.ttyPath });
  }

  private whereAnswer({ bot, session: s }: Owned, pane: AgentPaneAsk['pane']): WhereResult {
    return {
      inPane: true,
      session: s.id,
      bot: bot.bot.name,
      cli: typeof s.cli === 'string' ? s.cli : s.cli.command,
      cwd: s.cwd,
      topic: { chatId: s.chatId, anchorId: s.anchorId, scope: s.scope },
      pane,
    };
  }

  /**
   * Posts only into the caller's own session's topic: the target comes from the located session, never the request.
   * Files come only from the session's folder and the bot's answerFileRoots, as an answer's links do.
   */
  async send(caller: CallerClaim, items: readonly SendItem[], signal?: AbortSignal): Promise<SendResult> {
    const loc = await this.locate(caller);
    if (!loc.ok) return { inPane: false };
    return this.post(loc.session, items, signal);
  }

  /**
   * `onHost`: the caller's pane is on a host; its files are read there, from the session's folder only (answerFileRoots
   * name this machine's folders), with larkmux's folder there kept out as this machine's is here.
   */
  private async post({ bot, session }: Owned, items: readonly SendItem[], signal?: AbortSignal, onHost?: HostFiles): Promise<SendResult & { inPane: true }> {
    const access = onHost ? { roots: [session.cwd], home: onHost.home } : sessionFileAccess(bot.bot, session.cwd, this.home);
    const outcomes = await postItems(sessionTopic(bot.im, session), items, { access, ...(signal ? { signal } : {}), ...(onHost ? { read: onHost.read } : {}) });
    this.log.info({ session: session.id.slice(0, 8), sent: outcomes.filter((o) => o.ok).length, failed: outcomes.filter((o) => !o.ok).length }, 'larkmux send from a pane');
    // The wire carries what `larkmux send` shows: each item, the message posted or why not.
    return { inPane: true, session: session.id, outcomes: outcomes.map(({ refused, ...shown }) => shown) };
  }

  /**
   * A `where` or `send` from a pane on `host`, as its agent found the pane. The session is this daemon's own on that
   * host whose tmux session the pane is in; a pane of any other tmux session there is no larkmux pane (exit 3).
   */
  async fromHost(host: string, ask: AgentPaneAsk): Promise<AgentPaneAnswer> {
    const owner = this.ownerOf(ask.pane.tmuxSession, host);
    if (!owner) {
      this.log.info({ host, reason: 'not_a_session' }, 'pane caller on a host not recognised');
      return ask.ask.cmd === 'where' ? { ok: true, where: { inPane: false } } : { ok: true, send: { inPane: false } };
    }
    if (ask.ask.cmd === 'where') return { ok: true, where: this.whereAnswer(owner, ask.pane) };
    const files = this.filesOn(host);
    if (!files) return { ok: false, error: `host ${host} is not configured` };
    const expired = new AbortController();
    const ms = controlDeadlineMs('send');
    const posted = await withDeadline(this.post(owner, ask.ask.items, expired.signal, files), ms, () => {
      expired.abort();
      return null;
    });
    if (!posted) return { ok: false, error: `the daemon gave up on this request after ${ms / 1000} s` };
    return { ok: true, send: posted };
  }
}
