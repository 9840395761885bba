// Daemon entry point: takes the pid lock, reads config, wires the Daemon and shuts it down on signals.
import { pathToFileURL } from 'node:url';
import { readConfigFile } from '../platform/config-file.js';
import { namesToScrub } from '../shared/env-policy.js';
import { createLogger, registerSecret } from '../platform/log.js';
import { larkmuxCommand } from '../platform/larkmux-command.js';
import { larkmuxPaths, resolveHome } from '../platform/paths.js';
import { Daemon } from './process/daemon.js';
import { acquirePidLock } from '../platform/pid-lock.js';

/** Exit codes the `larkmux` command understands. */
export const DAEMON_EXIT = { ok: 0, crashed: 1, alreadyRunning: 3, badConfig: 78 } as const;

/** `printConsoleLink`: `larkmux start --foreground` runs the daemon in the person's terminal, so the link goes there. */
export async function runDaemon(env: NodeJS.ProcessEnv = process.env, opts: { printConsoleLink?: boolean } = {}): Promise<void> {
  const paths = larkmuxPaths(resolveHome(env));
  const log = createLogger({ file: paths.logFile, name: 'daemon' });

  const lock = acquirePidLock(paths.pidFile);
  if (!lock.ok) {
    const why = lock.code === 'running' ? `another daemon is running (pid ${lock.pid})` : lock.message;
    log.warn(`not starting: ${why}`);
    process.stderr.write(`larkmux daemon: not starting: ${why}\n`);
    process.exitCode = lock.code === 'running' ? DAEMON_EXIT.alreadyRunning : DAEMON_EXIT.crashed;
    return;
  }

  const cfg = readConfigFile(paths.config, env);
  if (!cfg.ok) {
    for (const e of cfg.errors) log.error(`config: ${e}`);
    process.stderr.write(`larkmux daemon: ${paths.config} is invalid:\n${cfg.errors.map((e) => `  - ${e}`).join('\n')}\n`);
    lock.release();
    process.exitCode = DAEMON_EXIT.badConfig;
    return;
  }
  for (const s of cfg.secrets) registerSecret(s);
  // Read once, then gone (as VS Code's pty host cleans its env): no worker, tmux server or CLI forked later can see
  // a variable that config.json names, whatever the variable is called (issue 13: `env | grep -i secret`).
  for (const name of namesToScrub(cfg.envNames)) {
    delete env[name];
    delete process.env[name];
  }

  let stopping: Promise<void> | null = null;
  const shutdown = (why: string, code: number = DAEMON_EXIT.ok) => {
    if (stopping) return stopping;
    log.info({ why }, 'shutting down');
    stopping = daemon
      .stop()
      .catch((err) => log.error({ err }, 'error while stopping'))
      .finally(() => {
        lock.release();
        process.exit(code);
      });
    return stopping;
  };
  const daemon = new Daemon({ paths, config: cfg.config, configExists: cfg.exists, log, onStopRequested: () => void shutdown('stop requested') });

  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => log.info(`SIGHUP ignored (use ${larkmuxCommand(env)} restart)`));
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception; exiting');
    lock.release();
    process.exit(DAEMON_EXIT.crashed);
  });

  try {
    await daemon.start();
    // In the foreground (systemd, a terminal) a daemon nobody can reach exits non-zero; in the background
    // `larkmux start` reads the same fact from the status and stops it (issue 31 item 12).
    const unreachable = daemon.unreachableWhy();
    if (opts.printConsoleLink && unreachable) {
      process.stderr.write(`larkmux daemon: ${unreachable}\n`);
      await shutdown('nobody can reach it', DAEMON_EXIT.crashed);
      return;
    }
    // Never into the log: a detached daemon's stdout is logs/daemon.out, so only the foreground prints it.
    const link = opts.printConsoleLink ? daemon.consoleLink() : null;
    if (link) process.stdout.write(`console: open ${link}  (works once; run ${larkmuxCommand(env)} start again for a new link)\n`);
  } catch (err) {
    log.fatal({ err }, 'daemon failed to start');
    process.stderr.write(`larkmux daemon: failed to start: ${(err as Error).message}\n`);
    lock.release();
    process.exit(DAEMON_EXIT.crashed);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void runDaemon();
