// Picks the session backend from init: tmux, or the pty fallback when no tmux binary is installed.
import { execFile } from 'node:child_process';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { Logger } from '../../shared/log.js';
import { PtyBackend } from '../backend/pty.js';
import { TmuxBackend } from '../backend/tmux.js';
import type { SessionBackend } from '../backend/types.js';

type InitMsg = Extract<DaemonToWorker, { type: 'init' }>;

function tmuxInstalled(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('tmux', ['-V'], { timeout: 5_000 }, (err) => resolve(!(err && (err as NodeJS.ErrnoException).code === 'ENOENT')));
  });
}

export async function chooseBackend(init: InitMsg, log: Logger): Promise<SessionBackend> {
  if (init.backend === 'tmux') {
    if (await tmuxInstalled()) return new TmuxBackend({ sessionId: init.sessionId, home: init.home, socket: init.tmuxSocket });
    log.warn('tmux is not installed: falling back to a pty (the CLI will not survive a worker restart)');
  }
  return new PtyBackend({ sessionId: init.sessionId });
}
