// The one sender of a worker's `status` message: every part of the worker that has a status to tell asks it.
import { IPC_LIMITS, type SessionStatus, type WorkerToDaemon } from '../../shared/ipc.js';

/** The daemon's schema caps a status detail at this many characters (StatusMsg in src/shared/ipc.ts). */
export const STATUS_DETAIL_MAX = IPC_LIMITS.statusDetail;

export interface StatusExtras {
  /** The pane's text; its last IPC_LIMITS.screenText characters are sent. */
  screenText?: string;
  /** Why (a dialog's title, an exit reason); cut to STATUS_DETAIL_MAX. */
  detail?: string;
}

/**
 * Sends every status as it is reported, repeats included: a repeat carries a newer screen (a text capture) or detail
 * (another dialog), and the monitor already reports only changes of the status it derives.
 */
export class StatusReporter {
  private lastSent: SessionStatus | null = null;

  constructor(private readonly send: (msg: WorkerToDaemon) => void) {}

  /** The status the daemon was last told, null before the first report. */
  get last(): SessionStatus | null {
    return this.lastSent;
  }

  report(status: SessionStatus, extras: StatusExtras = {}): void {
    this.lastSent = status;
    this.send({
      type: 'status',
      status,
      ...(extras.screenText !== undefined ? { screenText: extras.screenText.slice(-IPC_LIMITS.screenText) } : {}),
      ...(extras.detail !== undefined ? { detail: extras.detail.slice(0, STATUS_DETAIL_MAX) } : {}),
    });
  }
}
