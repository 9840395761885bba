// Worker entry point: one per session, forked by the daemon; wires the IPC channel to the session runtime.
import { createLogger } from '../shared/log.js';
import { larkmuxPaths, resolveHome } from '../shared/paths.js';
import { processChannel } from './channel.js';

/** The daemon owns liveness: the worker only reports it. */
export const WORKER_HEARTBEAT_MS = 10_000;

const paths = larkmuxPaths(resolveHome());
const sessionTag = (process.env.LARKMUX_SESSION_ID ?? 'unknown').slice(0, 8);
const log = createLogger({ file: paths.logFile, name: 'worker' }).child({ session: sessionTag });
const channel = processChannel();

channel.onInvalid((reason) => log.warn({ reason }, 'invalid message from daemon dropped'));
channel.onDisconnect(() => {
  // The daemon went away (stop/restart/crash): detach quietly; the CLI keeps running in tmux.
  log.info('daemon disconnected; worker exiting');
  process.exit(0);
});

let initialised = false;
channel.onMessage((msg) => {
  switch (msg.type) {
    case 'init':
      if (initialised) {
        log.warn('second init ignored');
        return;
      }
      initialised = true;
      log.info({ cli: msg.cli, cwd: msg.cwd }, 'worker initialised');
      channel.send({ type: 'status', status: 'starting' });
      return;
    case 'close':
      log.info({ mode: msg.mode }, 'close requested');
      process.exit(0);
      return;
    default:
      if (!initialised) log.warn({ type: msg.type }, 'message before init ignored');
  }
});

setInterval(() => channel.send({ type: 'heartbeat', at: Date.now() }), WORKER_HEARTBEAT_MS).unref();
