// The daemon's runtime: owns the control socket, the worker pool and (per bot) the IM connections; answers status.
import type { Config } from '../shared/config.js';
import type { DaemonStatus } from '../shared/control-protocol.js';
import { IPC_PROTOCOL_VERSION } from '../shared/ipc.js';
import type { Logger } from '../shared/log.js';
import type { LarkmuxPaths } from '../shared/paths.js';
import { LARKMUX_VERSION } from '../shared/version.js';
import { ControlServer } from './control.js';
import { WorkerPool } from './worker-pool.js';

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
  private readonly control: ControlServer;
  private readonly notice: string | undefined;

  constructor(private readonly opts: DaemonOptions) {
    const { log } = opts;
    this.pool = new WorkerPool({
      log,
      events: {
        onMessage: (sessionId, msg) => log.debug({ session: sessionId.slice(0, 8), type: msg.type }, 'worker message'),
        onExit: () => undefined,
      },
    });
    this.notice = nextStepNotice(opts.config, opts.configExists, opts.paths.config);
    this.control = new ControlServer(
      opts.paths.controlSocket,
      {
        ping: () => ({ pong: true, pid: process.pid }),
        status: () => this.status(),
        stop: () => {
          setImmediate(opts.onStopRequested);
          return { stopping: true };
        },
        sessions: () => this.status().sessions,
        session_close: () => {
          throw new Error('no such session');
        },
        prune: () => ({ removed: [] }),
      },
      log,
    );
  }

  async start(): Promise<void> {
    await this.control.listen();
    this.opts.log.info({ version: LARKMUX_VERSION, bots: this.opts.config.bots.length }, 'daemon started');
    if (this.notice) this.opts.log.warn(this.notice);
  }

  status(): DaemonStatus {
    const { config, paths } = this.opts;
    return {
      running: true,
      pid: process.pid,
      version: LARKMUX_VERSION,
      protocol: IPC_PROTOCOL_VERSION,
      startedAt: this.startedAt,
      uptimeSec: Math.round((Date.now() - this.startedAt) / 1000),
      home: paths.home,
      logFile: paths.logFile,
      webUrl: null,
      notice: this.notice,
      bots: config.bots.map((b) => ({
        name: b.name,
        appId: b.appId,
        state: 'not connected',
        liveWorkers: 0,
        liveClis: 0,
        maxLiveWorkers: b.maxLiveWorkers,
        maxLiveClis: b.maxLiveClis,
      })),
      sessions: [],
      workers: this.pool.size(),
    };
  }

  /** Stops workers (detaching: the CLIs keep running in tmux) and closes the control socket. */
  async stop(): Promise<void> {
    this.opts.log.info('daemon stopping');
    await this.pool.dispose();
    await this.control.dispose();
    this.opts.log.info('daemon stopped');
  }
}

/** What a user should do next when the daemon has nothing to serve yet. */
export function nextStepNotice(config: Config, configExists: boolean, configPath: string): string | undefined {
  if (config.bots.length > 0) return undefined;
  return configExists
    ? `no bot is configured in ${configPath}: add one under "bots" (see docs/configuration.md) or run \`larkmux setup\`, then \`larkmux restart\``
    : `no config yet: run \`larkmux setup\` to connect a Feishu/Lark bot (it writes ${configPath}), then \`larkmux restart\``;
}
