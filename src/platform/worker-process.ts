// Forks one session's worker process, the same way wherever it runs: the daemon's pool forks local workers, a host
// agent forks them on its host. Node's IPC with advanced serialization; stderr's tail kept for the crash report.
import { fork, type ChildProcess } from 'node:child_process';
import { workerEnv } from '../shared/env-policy.js';
import { WORKER_V8_FLAGS } from '../shared/worker-flags.js';
import { SMALL_PROCESS_MALLOC_ENV } from './render-process.js';

export interface ForkedWorker {
  child: ChildProcess;
  /** The last 4,000 characters the worker wrote on stderr. */
  stderrTail(): string;
}

/**
 * `base` is the environment the allowlist (env-policy.ts) is taken from — never the whole of it: a worker needs no
 * secret. The malloc tuning gives each frame back once passed on (an idle worker after 50 frames: 51-52 → 49 MB RSS).
 * A .ts entry runs under tsx (tests, development); the built .js runs on plain node.
 */
export function forkWorkerProcess(entry: string, base: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv, sessionId: string): ForkedWorker {
  const child = fork(entry, [], {
    serialization: 'advanced',
    execArgv: [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), ...WORKER_V8_FLAGS],
    env: { ...workerEnv(base), ...SMALL_PROCESS_MALLOC_ENV, ...extra, LARKMUX_SESSION_ID: sessionId },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // Never let the pipe fill.
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    tail = (tail + d).slice(-4000);
  });
  return { child, stderrTail: () => tail };
}
