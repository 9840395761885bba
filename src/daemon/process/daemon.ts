// The daemon's runtime: owns the control socket, the worker pool and one BotRuntime per configured bot.
import { botLocale, consoleSettings, type Config } from '../../shared/config.js';
import type { DaemonStatus, SessionSummary } from '../../shared/control-protocol.js';
import { IPC_PROTOCOL_VERSION, type BackendKind } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import { LARKMUX_VERSION } from '../../platform/version.js';
import { legacyTmuxSocket, tmuxSocketName } from '../../shared/tmux-socket.js';
import { nextStepNotice } from '../../shared/next-step-notice.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { LegacyTmuxSessions } from '../sessions/legacy-tmux.js';
import { which } from '../../platform/which.js';
import { findPortHolder } from '../../platform/port-holder.js';
import { webPortProblem, webProblemReason } from '../../shared/web-port-problem.js';
import { BotRuntime } from '../bots/bot-runtime.js';
import { ControlServer } from '../../platform/control-server.js';
import { LazyImAdapter } from '../im/lazy-adapter.js';
import { consoleLoginUrl, createLocalConsole, type LocalConsole } from '../im/local/index.js';
import { defaultRenderEntry, WorkerPool } from '../workers/worker-pool.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { RemoteHosts } from '../workers/remote-hosts.js';
import { remoteUploadFolder } from '../workers/remote-upload.js';
import { remoteTreeGit } from '../workers/remote-changes.js';
import { hostFiles } from '../workers/remote-fetch.js';
import { hostPanesOf } from '../workers/remote-adopt.js';
import { readMemAvailable } from '../../platform/meminfo.js';
import { memoryFloorBytes } from '../sessions/capacity.js';
import { RenderProcessHost } from '../../platform/render-process.js';
import { CapacityKeeper } from '../sessions/capacity-keeper.js';
import { Restoring } from './restoring.js';
import { DaemonWeb } from '../web/web-terminal.js';
import { PaneRequests } from './pane-requests.js';
import { writePaneCommand } from '../../platform/pane-command-file.js';
import { talkWiderThanOperate } from '../../shared/talk-scope.js';
import { classifyTmuxSessions, killTmuxSessions, listTmuxSessions, type OrphanReport } from '../../platform/tmux-sessions.js';

export interface DaemonOptions {
  paths: LarkmuxPaths;
  config: Config;
  configExists: boolean;
  log: Logger;
  /** Called when a client asks the daemon to stop (the entry point decides how to exit). */
  onStopRequested: () => void;
}

export class Daemon {
  readonly startedAt = Date.now();
  readonly pool: WorkerPool;
  /** One render process for all sessions: workers send screens, cards get pictures drawn here (DESIGN §12). */
  private readonly frames: RenderProcessHost;
  readonly bots: BotRuntime[] = [];
  private readonly control: ControlServer;
  private readonly notice: string | undefined;
  readonly web: DaemonWeb;
  private webProblem: string | undefined;
  /** The tmux server of this home (tmux.socket, or derived from LARKMUX_HOME): sessions, orphans and prune all use it. */
  readonly tmuxSocket: string;
  /** The local console, when it runs (no bot configured, or `console` set). */
  readonly console: LocalConsole | undefined;
  private readonly panes: PaneRequests;
  /** One planner for the whole host: every bot's launches, detaches and stops go through it. */
  readonly capacity: CapacityKeeper;
  private readonly restoring: Restoring;
  private readonly remoteHosts: RemoteHosts;

  constructor(private readonly opts: DaemonOptions) {
    this.tmuxSocket = tmuxSocketName(opts.config.tmux.socket, opts.paths.home);
    const { log, config, paths } = opts;
    // Started by the first frame a card shows and ended a minute after the last.
    this.frames = new RenderProcessHost({
      entry: defaultRenderEntry(),
      home: paths.home,
      onLifecycle: (event) => log.info({ event }, event === 'started' ? 'render process started' : 'render process released (idle)'),
    });
    // Each start names the session's owner as the receiver of its worker's events (SessionService.ensureWorker).
    // A session placed on a configured host gets its worker there, through that host's agent (remote-host.ts).
    // LARKMUX_REMOTE_ROOT moves larkmux's folder on every host (tests, whose "host" is this machine's own user).
    // `larkmux where|send` in a host's pane reach PaneRequests through that host's agent.
    this.remoteHosts = new RemoteHosts({
      hosts: config.hosts, paths, log, answerPane: (host, ask) => this.panes.fromHost(host, ask),
      ...(process.env.LARKMUX_REMOTE_ROOT ? { remoteRoot: process.env.LARKMUX_REMOTE_ROOT } : {}),
    });
    // A session's change cards diff its folder where it is: a host's git answers over that host's ControlMaster.
    const remoteGit = (name: string) => {
      const host = this.remoteHosts.get(name);
      return host && remoteTreeGit(host, log);
    };
    this.pool = new WorkerPool({ log, env: { LARKMUX_HOME: paths.home }, remoteHost: (name) => this.remoteHosts.get(name), remoteGit });
    const remoteUploads = (name: string) => {
      const host = this.remoteHosts.get(name);
      return host && remoteUploadFolder(host);
    };
    const hostPanes = config.hosts.length > 0 ? hostPanesOf(config.hosts.map((h) => h.name), (name) => this.remoteHosts.get(name)) : undefined;
    this.restoring = new Restoring(log);
    // Free memory in admission: this machine's read when planning, a host's as its agent last said (unknown: no link).
    const memory = (host: string) => (host === LOCAL_HOST ? readMemAvailable() : (this.remoteHosts.peek(host)?.memoryAvailable ?? null));
    this.capacity = new CapacityKeeper({ groups: () => this.bots.map((b) => b.sessions), hosts: () => config.hosts, memory, minFreeMemoryBytes: memoryFloorBytes(process.env), log });
    this.web = new DaemonWeb(config.web, {
      session: (id) => this.botOf(id)?.sessions.get(id),
      locale: (id) => {
        const bot = this.botOf(id);
        return bot ? botLocale(bot.bot) : undefined;
      },
      saveViewToken: (id, token) => void this.botOf(id)?.sessions.update(id, { viewToken: token }),
      wake: async (id) => (await this.botOf(id)?.sessions.wakeForWeb(id)) ?? null,
      revokeWorkerWrites: (id) => {
        const bot = this.botOf(id);
        const s = bot?.sessions.get(id);
        if (bot && s) bot.sessions.worker(s).revokeWrites();
      },
      changes: (id) => this.botOf(id)?.sessions.latestChanges(id),
      unwatched: () => this.capacity.schedule(),
    }, log);
    // Without tmux the CLI runs under a plain pty in the worker and does not survive a restart (doctor says so).
    const backend: BackendKind = which('tmux') ? 'tmux' : 'pty';
    const legacyTmux = new LegacyTmuxSessions({ homeSocket: this.tmuxSocket, legacySocket: legacyTmuxSocket(config.tmux.socket, process.env), log });
    for (const bot of config.bots) {
      // The Lark SDK is imported after the stored sessions are registered (Daemon.start): it is the slowest import.
      const im = new LazyImAdapter(bot.appId, bot.name, async () => {
        const { LarkAdapter } = await import('../im/lark/index.js');
        return new LarkAdapter({
          bot,
          logger: log.child({ bot: bot.name }),
          ...(bot.events === 'webhook' ? { webhook: { port: bot.webhookPort, path: bot.webhookPath } } : {}),
        });
      });
      this.bots.push(new BotRuntime({ bot, paths, log, pool: this.pool, im, tmuxSocket: this.tmuxSocket, legacyTmux, backend, web: this.web, capacity: this.capacity, frames: this.frames, hosts: config.hosts, remoteUploads, ...(hostPanes ? { hostPanes } : {}) }));
    }
    const consoleCfg = consoleSettings(config);
    if (consoleCfg) {
      this.console = createLocalConsole({
        home: paths.home, settings: consoleCfg, config, log, onPath: (p) => which(p) !== null,
        server: {
          ...(config.web.publicUrl ? { publicUrl: config.web.publicUrl } : {}),
          ownsOpenSession: (id) => this.console?.adapter === this.botOf(id)?.im && this.botOf(id)?.sessions.get(id)?.lifecycle !== 'closed',
          writeCookie: (id, user) => this.web.writeCookieFor(id, user),
          revokeWriteAccess: (user) => this.web.revokeUser(user),
        },
      });
      this.web.mount(this.console.server);
      this.bots.push(new BotRuntime({ bot: this.console.bot, paths, log, pool: this.pool, im: this.console.adapter, tmuxSocket: this.tmuxSocket, legacyTmux, backend, web: this.web, capacity: this.capacity, frames: this.frames, hosts: config.hosts, remoteUploads, ...(hostPanes ? { hostPanes } : {}) }));
    }
    this.panes = new PaneRequests(this.bots, () => this.tmuxSocket, paths.home, log, (name) => hostFiles(this.remoteHosts.get(name), log));
    this.notice = nextStepNotice(config, opts.configExists, paths.config, larkmuxCommand());
    this.control = new ControlServer(
      paths.controlSocket,
      {
        ping: () => ({ pong: true, pid: process.pid }),
        status: () => this.status(),
        stop: () => {
          setImmediate(opts.onStopRequested);
          return { stopping: true };
        },
        sessions: () => this.sessionSummaries(),
        session_close: async (req) => {
          const bot = this.bots.find((b) => b.sessions.all().some((s) => s.id.startsWith(req.sessionId)));
          const session = bot?.sessions.all().find((s) => s.id.startsWith(req.sessionId));
          if (!bot || !session) throw new Error(`no session ${req.sessionId}`);
          return { closed: await bot.sessions.close(session.id), id: session.id };
        },
        orphans: () => this.orphans(),
        console_link: () => {
          const url = this.consoleLink();
          if (!url) throw new Error(this.console ? 'the web port is not listening, so the console is off' : 'the console is off (a bot is configured and "console" is not set)');
          return { url };
        },
        console_revoke: () => {
          if (!this.console) throw new Error('the console is off (a bot is configured and "console" is not set)');
          return this.console.server.revoke();
        },
        where: (req) => this.panes.where(req.caller),
        send: (req, signal) => this.panes.send(req.caller, req.items, signal),
        prune: async () => {
          const report = await this.orphans();
          const removed = await killTmuxSessions(this.tmuxSocket, [...report.orphans, ...report.diag]);
          if (removed.length) this.opts.log.info({ removed }, 'pruned orphaned tmux sessions');
          return { removed };
        },
      },
      log,
    );
  }

  private consoleRuntime(): BotRuntime | undefined {
    return this.console ? this.bots.find((b) => b.im === this.console?.adapter) : undefined;
  }

  /** Why nobody can reach this daemon (no bot, and the console's web port is off), or null when someone can. */
  unreachableWhy(): string | null {
    if (!this.webProblem || !this.console || this.bots.some((b) => b.im !== this.console?.adapter)) return null;
    return `${this.webProblem}; with no bot configured the console is the only way in, so the daemon stops`;
  }

  /** The console's status: its adapter is always "connected", but nobody reaches it while the web port is off. */
  private consoleStatus(runtime: BotRuntime): DaemonStatus['bots'][number] {
    const st = runtime.status();
    if (!this.webProblem) return st;
    return { ...st, state: 'unavailable', detail: [`the web port is not listening: ${webProblemReason(this.webProblem)}`, st.detail].filter(Boolean).join('; ') };
  }

  /** A fresh one-time console login URL, or null when the console (or the web port) is off. Never logged. */
  consoleLink(): string | null {
    const port = this.web.port;
    if (!this.console || port === null || !this.web.baseUrl) return null;
    return consoleLoginUrl(this.opts.config.web, port, this.console.auth.issueLoginToken());
  }

  /** tmux sessions named like ours that no open session owns (checked against the records in memory). */
  async orphans(): Promise<OrphanReport> {
    const list = await listTmuxSessions(this.tmuxSocket);
    if (!list.ok) throw new Error(list.message);
    const owned = new Set(this.bots.flatMap((b) => b.sessions.all().filter((s) => s.lifecycle !== 'closed').map((s) => s.tmuxName)));
    return classifyTmuxSessions(list.names, owned);
  }

  // Web requests only (worker events go to the owner each start names): one Map lookup per bot, and bots are a handful.
  private botOf(sessionId: string): BotRuntime | undefined {
    return this.bots.find((b) => b.owns(sessionId));
  }

  async start(): Promise<void> {
    // The control socket answers at once (`status` says `restoring`); stored sessions are registered next, before
    // anything slow is imported or connected, so the first message after a restart finds its session (issue 14).
    await this.control.listen();
    this.opts.log.info({ version: LARKMUX_VERSION, bots: this.opts.config.bots.length }, 'daemon started');
    // Before any CLI starts: every pane finds this installation's `larkmux` first on its PATH.
    await writePaneCommand(this.opts.paths).catch((err) => this.opts.log.error({ err }, 'could not write the pane\'s larkmux command; `larkmux` inside panes will not reach this daemon'));
    await this.restoring.run(this.bots);
    if (this.notice) this.opts.log.warn(this.notice);
    for (const b of this.bots) {
      const wider = talkWiderThanOperate({ ...b.bot, ...b.grants() });
      if (wider) this.opts.log.warn(wider);
    }
    // The web terminal is optional: a busy port is reported, and everything else still runs.
    const web = await this.web.start();
    if (web.ok) this.opts.log.info({ url: web.baseUrl }, 'web terminal listening');
    else {
      const { host, port } = this.opts.config.web;
      this.webProblem = webPortProblem(web, host, port, () => findPortHolder(port));
      this.opts.log.error(this.webProblem);
    }
    // Bots connect in parallel; one bot that cannot connect does not keep the others (or the daemon) down.
    await Promise.all(this.bots.map((b) => b.connect().catch((err) => this.opts.log.error({ err, bot: b.bot.name }, 'bot failed to start'))));
  }

  sessionSummaries(): SessionSummary[] {
    return this.bots.flatMap((b) =>
      b.sessions.all().map((s) => ({
        id: s.id,
        key: s.key,
        bot: b.bot.name,
        cli: typeof s.cli === 'string' ? s.cli : s.cli.command,
        cwd: s.cwd,
        ...(s.host ? { host: s.host } : {}),
        status: s.status,
        lifecycle: s.lifecycle,
        worker: this.pool.has(s.id),
        ...(this.pool.pid(s.id) ? { workerPid: this.pool.pid(s.id) } : {}),
        tmuxName: s.tmuxName,
        lastActivityAt: s.lastActivityAt,
      })),
    );
  }

  status(): DaemonStatus {
    const { paths } = this.opts;
    return {
      running: true,
      pid: process.pid,
      version: LARKMUX_VERSION,
      protocol: IPC_PROTOCOL_VERSION,
      startedAt: this.startedAt,
      uptimeSec: Math.round((Date.now() - this.startedAt) / 1000),
      home: paths.home,
      logFile: paths.logFile,
      webUrl: this.web.baseUrl,
      ...(this.notice || this.webProblem ? { notice: [this.notice, this.webProblem].filter(Boolean).join('; ') } : {}),
      // The console is not a Feishu bot: `bots` lists the configured ones only, `console` says how the console runs.
      bots: this.bots.filter((b) => b.im !== this.console?.adapter).map((b) => b.status()),
      ...(this.webProblem ? { webProblem: this.webProblem } : {}),
      ...(this.consoleRuntime() ? { console: this.consoleStatus(this.consoleRuntime()!) } : {}),
      sessions: this.sessionSummaries(),
      workers: this.pool.size(),
      restore: this.restoring.status(),
    };
  }

  /** Stops workers (detaching: the CLIs keep running in tmux), then the bots and the control socket. */
  async stop(): Promise<void> {
    this.opts.log.info('daemon stopping');
    this.capacity.dispose();
    await this.pool.dispose();
    await this.remoteHosts.dispose();
    await Promise.all(this.bots.map((b) => b.dispose().catch((err) => this.opts.log.error({ err }, 'bot did not stop cleanly'))));
    this.frames.dispose();
    this.console?.server.dispose();
    await this.web.dispose();
    await this.control.dispose();
    this.opts.log.info('daemon stopped');
  }
}
