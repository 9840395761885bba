// Picks the session backend from init: tmux, or the pty fallback when no tmux binary is installed.
import { runTmux } from '../../platform/tmux-runner.js';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import { TmuxBackend } from '../backend/tmux.js';
import type { SessionBackend } from '../backend/types.js';

type InitMsg = Extract<DaemonToWorker, { type: 'init' }>;

/** Only a missing binary means no tmux: any other failure of `tmux -V` is tmux answering. */
async function tmuxInstalled(): Promise<boolean> {
  const res = await runTmux(['-V'], { socket: null });
  return res.ok || res.code !== 'tmux_missing';
}

export async function chooseBackend(init: InitMsg, log: Logger): Promise<SessionBackend> {
  if (init.backend === 'tmux') {
    if (await tmuxInstalled()) return new TmuxBackend({ sessionId: init.sessionId, home: init.home, socket: init.tmuxSocket });
    log.warn('tmux is not installed: falling back to a pty (the CLI will not survive a worker restart)');
  }
  // Loaded only here: the pty backend brings @xterm/headless, which a tmux session's worker never needs.
  const { PtyBackend } = await import('../backend/pty.js');
  return new PtyBackend({ sessionId: init.sessionId });
}
