// Worker entry point: one per session, forked by the daemon; wires the IPC channel to the session runtime.
import { createLogger } from '../platform/log.js';
import { larkmuxPaths, resolveHome } from '../platform/paths.js';
import { HEARTBEAT_TIMING, type DaemonToWorker } from '../shared/ipc.js';
import { processChannel } from './channel.js';
import { adapterFor } from './cli/registry.js';
import { chooseBackend } from './runtime/backend-choice.js';
import { DisplayController } from './runtime/display.js';
import { SessionRuntime } from './runtime/session-runtime.js';
import { startWebTerminal, type WebStart } from './runtime/web.js';
import { StatusReporter } from './runtime/status-reporter.js';


const paths = larkmuxPaths(resolveHome());
const sessionTag = (process.env.LARKMUX_SESSION_ID ?? 'unknown').slice(0, 8);
const log = createLogger({ file: paths.logFile, name: 'worker' }).child({ session: sessionTag });
const channel = processChannel();
/** Every `status` the worker sends goes through this one reporter. */
const status = new StatusReporter((msg) => channel.send(msg));

let runtime: SessionRuntime | null = null;
let display: DisplayController | null = null;
let web: WebStart = null;
let initialised = false;
/** Settles when initialisation is over (either way): a close that arrives meanwhile waits for it, so a kill is not lost. */
let initDone: Promise<void> = Promise.resolve();
/** Messages that arrive while the backend is being chosen are handled in order afterwards. */
const early: DaemonToWorker[] = [];

const heartbeat = setInterval(() => channel.send({ type: 'heartbeat', at: Date.now() }), HEARTBEAT_TIMING.intervalMs);
heartbeat.unref();

function exit(code: number): void {
  clearInterval(heartbeat);
  display?.dispose();
  web?.server.removeSocketFile();
  void web?.server.dispose();
  runtime?.dispose();
  process.exit(code);
}

channel.onInvalid((reason) => log.warn({ reason }, 'invalid message from daemon dropped'));
channel.onDisconnect(() => {
  // The daemon went away (stop/restart/crash): detach quietly; the CLI keeps running in tmux.
  log.info('daemon disconnected; worker exiting');
  exit(0);
});

async function initialise(init: Extract<DaemonToWorker, { type: 'init' }>): Promise<void> {
  log.info({ cli: init.cli, cwd: init.cwd, backend: init.backend, resume: init.resume.mode }, 'worker initialised');
  const adapter = adapterFor(init.cli);
  if (!adapter.ok) {
    channel.send({ type: 'error', code: adapter.code, message: adapter.message });
    status.report('exited', { detail: adapter.message });
    return;
  }
  const backend = await chooseBackend(init, log);
  const send = channel.send.bind(channel);
  runtime = new SessionRuntime({ init, adapter: adapter.adapter, backend, log, send, status });
  display = new DisplayController({
    backend, log, send, status,
    tmux: backend.kind === 'tmux' ? { socket: init.tmuxSocket, session: backend.name } : null,
    currentStatus: () => runtime?.status ?? 'starting',
    ...(init.frameIntervalMs !== undefined ? { frameIntervalMs: init.frameIntervalMs } : {}),
  }, init.display);
  runtime.onRunning(() => void display?.paneReady());
  runtime.start();
  // Messages that came while the backend was chosen go first, before anything arriving during the web start-up.
  for (const m of early.splice(0)) route(m);
  web = await startWebTerminal(init, backend.kind === 'tmux' ? backend.name : null, log);
  channel.send({ type: 'ready', webPort: web?.port ?? 0, ...(web?.socketPath ? { webSocket: web.socketPath } : {}) });
}

function route(msg: DaemonToWorker): void {
  if (!runtime) {
    early.push(msg);
    return;
  }
  switch (msg.type) {
    case 'set_display':
      void display?.setMode(msg.mode);
      return;
    case 'capture_now':
      void display?.captureNow();
      return;
    case 'web_revoke':
      web?.server.revokeWrites();
      return;
    default:
      runtime.handle(msg);
  }
}

channel.onMessage((msg) => {
  switch (msg.type) {
    case 'init':
      if (initialised) {
        log.warn('second init ignored');
        return;
      }
      initialised = true;
      initDone = initialise(msg).catch((err: unknown) => {
        log.error({ err }, 'worker initialisation failed');
        channel.send({ type: 'error', code: 'init_failed', message: err instanceof Error ? err.message : String(err) });
        exit(1);
      });
      return;
    case 'close':
      log.info({ mode: msg.mode }, 'close requested');
      void initDone.then(() => (runtime ? runtime.close(msg.mode) : undefined)).finally(() => exit(0));
      return;
    default:
      if (!initialised) log.warn({ type: msg.type }, 'message before init ignored');
      else route(msg);
  }
});
