// Sessions still running on the default tmux server from before the per-home socket: served where they are, and said so.
import type { Logger } from '../../platform/log.js';
import { sessionsOnLegacyServer } from '../../shared/tmux-socket.js';
import { listTmuxSessions } from '../../platform/tmux-sessions.js';
import type { SessionCore } from '../ground/session-core.js';

/** Lifecycles whose CLI still runs in tmux: only those are served on the legacy server. */
const RUNNING = new Set<SessionCore['lifecycle']>(['live', 'detached']);

export class LegacyTmuxSessions {
  /** tmux names of open sessions found on the legacy server at start. */
  private readonly onLegacy = new Set<string>();

  constructor(private readonly opts: { homeSocket: string; legacySocket: string | null; log: Logger }) {}

  /**
   * Looks for the bot's open tmux sessions on the legacy server (one list-sessions per server, before the bot connects)
   * and tells the operator plainly about each one found: it is served there; nothing is killed.
   */
  async locate(bot: string, sessions: readonly SessionCore[]): Promise<void> {
    const legacy = this.opts.legacySocket;
    const owned = new Set(sessions.filter((s) => s.backend === 'tmux' && RUNNING.has(s.lifecycle)).map((s) => s.tmuxName));
    if (!legacy || owned.size === 0) return;
    const [home, old] = await Promise.all([listTmuxSessions(this.opts.homeSocket), listTmuxSessions(legacy)]);
    if (!home.ok || !old.ok) return;
    for (const name of sessionsOnLegacyServer(owned, home.names, old.names)) {
      this.onLegacy.add(name);
      const s = sessions.find((x) => x.tmuxName === name)!;
      this.opts.log.warn(
        { bot, session: s.id, tmuxName: name, socket: legacy },
        `session ${s.id.slice(0, 8)} (${name}) still runs on the default tmux server from before larkmux used a tmux server per home; ` +
          `it is served there and nothing was killed. Look at it with \`tmux -L ${legacy} attach -t ${name}\`; ` +
          `once it is closed (/close in its topic), its chat starts the next CLI on this home's server`,
      );
    }
  }

  /** The server a session's worker must use: the legacy one while its old CLI runs there, else the home's. */
  socketFor(session: Pick<SessionCore, 'tmuxName' | 'lifecycle'>): string {
    if (this.onLegacy.has(session.tmuxName)) {
      // Stopped or closed: its old CLI is gone, so the next one starts on the home server.
      if (RUNNING.has(session.lifecycle) && this.opts.legacySocket) return this.opts.legacySocket;
      this.onLegacy.delete(session.tmuxName);
    }
    return this.opts.homeSocket;
  }
}
