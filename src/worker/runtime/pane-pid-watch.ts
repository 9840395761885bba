// The pane's process asked whether it still lives, every few seconds, with kill(pid, 0): a system call, no exec.
// tmux 3.3a's pane-died hook misses some deaths under load (measured 2–4 of 8 by SIGKILL on a busy 2-core machine),
// so this is the second event source for a CLI dying in a silent pane. POSIX (Linux, macOS); the pid is the one the
// last tmux probe reported, and the probe it triggers is the authority (a reused pid is cleared by it).
// Under the same load tmux 3.3a also fails to reap the dead child: the pane shows dead (its pty closed) while the
// process stays a zombie, which kill(pid, 0) reports as alive. On Linux the process state in /proc says so (a file
// read); elsewhere only kill(pid, 0) is asked and such a death waits for the idle safety probe.
import { procState } from '../../platform/proc-stat.js';
import { STATUS_TIMING } from '../lifecycle/status.js';

/** 'active' while a turn may be running; 'idle' once the monitor waits only for events (see Monitor's tick). */
export type PidWatchPace = 'active' | 'idle';

export class PanePidWatch {
  private pid: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pace: PidWatchPace = 'active';
  /** When the monitor last said 'idle'; the slow interval starts pidCheckQuietAfterMs later. */
  private idleSince = 0;
  private slow = false;

  constructor(private readonly onGone: () => void) {}

  /** The pane's process as the last probe saw it; null when none (dead pane, not probed yet). */
  set(pid: number | null): void {
    this.pid = pid;
  }

  start(): void {
    if (this.timer) return;
    this.arm(false);
  }

  /**
   * A pane that has been quiet for a while is asked less often: each wake-up of an idle worker costs more than the
   * check itself (see STATUS_TIMING). Deaths right after a turn (a crash at its end, an `/exit`) still get the fast check.
   */
  setPace(pace: PidWatchPace): void {
    if (pace === this.pace) return;
    this.pace = pace;
    if (pace === 'idle') this.idleSince = Date.now();
    if (pace === 'active' && this.slow && this.timer) {
      this.arm(false);
      // Back to work: ask now rather than up to a quiet interval late.
      this.check();
    }
  }

  /** Stops checking. A later start() (a relaunched CLI) begins at the fast pace: its first quiet minute is checked
   * every pidCheckEveryMs like any other's; the monitor's next tick sets the pace again. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.slow = false;
    this.pace = 'active';
    this.pid = null;
  }

  private arm(slow: boolean): void {
    if (this.timer) clearInterval(this.timer);
    this.slow = slow;
    this.timer = setInterval(() => this.check(), slow ? STATUS_TIMING.pidCheckQuietEveryMs : STATUS_TIMING.pidCheckEveryMs);
    this.timer.unref();
  }

  private check(): void {
    if (this.timer && !this.slow && this.pace === 'idle' && Date.now() - this.idleSince >= STATUS_TIMING.pidCheckQuietAfterMs) this.arm(true);
    if (this.pid === null || processAlive(this.pid)) return;
    this.pid = null;
    this.onGone();
  }
}

/** Whether a process runs: it exists (signal 0 checks without signalling; EPERM means another user's) and, where
 * /proc tells, is not a zombie waiting to be reaped. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = procState(pid);
  return state !== 'Z' && state !== 'X';
}
