// The control socket's `where` and `send`: find the caller's session by its tty, then answer or post into its topic.
import type { CallerClaim, SendItem, SendResult, WhereResult } from '../../shared/control-protocol.js';
import type { Logger } from '../../platform/log.js';
import type { BotRuntime } from '../bots/bot-runtime.js';
import type { SessionCore } from '../ground/session-core.js';
import { sessionFileAccess } from '../outbound/answer-files.js';
import { postItems, sessionTopic } from '../outbound/post-items.js';
import { locateCaller, type CallerLocation } from '../panes/caller-locator.js';

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
  ) {}

  private ownerOf(tmuxSession: string): Owned | undefined {
    for (const bot of this.bots) {
      const session = bot.sessions.all().find((s) => s.tmuxName === tmuxSession && s.lifecycle !== 'closed');
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
    const { bot, session: s } = loc.session;
    return {
      inPane: true,
      session: s.id,
      bot: bot.bot.name,
      cli: typeof s.cli === 'string' ? s.cli : s.cli.command,
      cwd: s.cwd,
      topic: { chatId: s.chatId, anchorId: s.anchorId, scope: s.scope },
      pane: { tmuxSession: loc.pane.tmuxSession, paneId: loc.pane.paneId, tty: loc.pane.ttyPath },
    };
  }

  /**
   * Posts only into the caller's own session's topic: the target comes from the located session, never the request.
   * Files come only from the session's folder and the bot's answerFileRoots, as an answer's links do.
   */
  async send(caller: CallerClaim, items: readonly SendItem[], signal?: AbortSignal): Promise<SendResult> {
    const loc = await this.locate(caller);
    if (!loc.ok) return { inPane: false };
    const { bot, session } = loc.session;
    const access = sessionFileAccess(bot.bot, session.cwd, this.home);
    const outcomes = await postItems(sessionTopic(bot.im, session), items, { access, ...(signal ? { signal } : {}) });
    this.log.info({ session: session.id.slice(0, 8), sent: outcomes.filter((o) => o.ok).length, failed: outcomes.filter((o) => !o.ok).length }, 'larkmux send from a pane');
    // The wire carries what `larkmux send` shows: each item, the message posted or why not.
    return { inPane: true, session: session.id, outcomes: outcomes.map(({ refused, ...shown }) => shown) };
  }
}
