// What the pool holds for one worker, wherever it runs: a forked child here, or one a host agent forked over ssh.
// The pool supervises both alike; only how a message travels and how an exit is learnt differ.
import { forkWorkerProcess } from '../../platform/worker-process.js';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { SshFailureKind } from '../../platform/ssh/ssh-failure.js';

/**
 * Why a worker is gone when it is not its own exit: `link_lost` — the ssh link to its host dropped (or could not be
 * made); the worker detaches on the host and its CLI keeps running in tmux, as after a daemon restart.
 */
export type WorkerGoneCause = 'link_lost';

export interface WorkerLinkExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  cause?: WorkerGoneCause;
  /** The worker's last stderr lines (for the crash report). */
  stderrTail?: string;
  /** With `link_lost`: messages that never left this machine (the link was never made), so none reached the host. */
  unsent?: readonly DaemonToWorker[];
  /**
   * With `link_lost`: prompts written to the host whose delivery was never reported (each marked `inFlightSince`, when
   * it was handed over): they may or may not have reached the CLI; the worker there checks when the link returns.
   */
  inFlight?: readonly Extract<DaemonToWorker, { type: 'input' | 'raw_input' }>[];
  /** With `link_lost`: what ssh said went wrong, when it knows (a changed host key is not "unreachable"). */
  linkFailure?: SshFailureKind;
}

/** Where the daemon reaches a worker's web terminal on this machine: a loopback port, or a unix socket. */
export type WebUpstream = { port: number } | { socketPath: string };

export interface WorkerLinkEvents {
  message(raw: unknown): void;
  exit(exit: WorkerLinkExit): void;
  error(err: Error): void;
}

export interface WorkerLink {
  /** The worker's pid on the machine it runs on (on a host: the host's pid; undefined until known). */
  readonly pid: number | undefined;
  /** Whether a message sent now can reach it. */
  readonly connected: boolean;
  /** Whether its exit was already seen. */
  readonly exited: boolean;
  send(msg: DaemonToWorker, done: (err: Error | null) => void): void;
  kill(signal: 'SIGTERM' | 'SIGKILL'): void;
  /** Set once, right after the link is made. */
  listen(events: WorkerLinkEvents): void;
  /**
   * A unix socket the worker listens on, on its machine → a socket on this machine that reaches it (a forward over
   * the host's ssh link); null when none can be made now. Absent: the worker runs here and its path is the answer.
   */
  reachSocket?(socketPath: string): Promise<string | null>;
}

/** Forks a worker on this machine (platform/worker-process.ts), its environment allowlisted from the daemon's own. */
export function forkLocalWorker(entry: string, extraEnv: NodeJS.ProcessEnv, sessionId: string): WorkerLink {
  const { child, stderrTail } = forkWorkerProcess(entry, process.env, extraEnv, sessionId);
  return {
    get pid() {
      return child.pid;
    },
    get connected() {
      return child.connected;
    },
    get exited() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    send: (msg, done) => child.send(msg, (err) => done(err ?? null)),
    kill: (signal) => void child.kill(signal),
    listen(events) {
      child.on('message', (raw: unknown) => events.message(raw));
      child.on('error', (err) => events.error(err));
      child.on('exit', (code, signal) => events.exit({ code, signal, ...(stderrTail() ? { stderrTail: stderrTail() } : {}) }));
    },
  };
}
