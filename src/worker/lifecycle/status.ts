// Session status (starting | working | waiting | idle | limited | exited) from screen, output silence and the transcript (pure).
import type { SessionStatus } from '../../shared/ipc.js';
import type { ScreenState } from '../cli/types.js';

export const STATUS_TIMING = {
  /** A ready screen right after output may be a redraw between steps; 1.5 s of silence makes it idle. */
  quietMs: 1_500,
  /**
   * With a transcript the turn-end record decides "finished"; if it never comes (a crash mid-write, a CLI that
   * skipped it), a ready and silent screen counts as idle after this long anyway.
   */
  transcriptGraceMs: 20_000,
  /** How often the status is re-evaluated while output is flowing or a turn is open. */
  captureEveryMs: 400,
  /**
   * Safety probe while idle. Everything that matters arrives as an event (pane output, the pipe closing when the
   * session is killed, the pane-died hook, transcript records); this only covers an event lost to a tmux without
   * pane hooks or a watcher that failed, and a message to a CLI that died unnoticed is still caught by the
   * delivery's own probe. Idle must cost nothing (issue 14: 30 sessions probing every 3 s took ~0.5 core; measured
   * with bench/idle.ts, a probe a minute still cost 30 sessions ~15 CPU-s per 10 min), so one `list-panes` every
   * 10 minutes.
   */
  idleSafetyProbeMs: 600_000,
  /**
   * How often the pane's process is asked whether it still lives (`kill(pid, 0)` plus, on Linux, its state in /proc: no
   * exec). tmux 3.3a's pane-died hook was measured to miss 2–4 of 8 deaths by SIGKILL on a loaded 2-core machine (the
   * child left an unreaped zombie), so it cannot be the only event; this costs microseconds per session and notices a
   * death within this time.
   */
  pidCheckEveryMs: 2_000,
  /**
   * The same check once the pane has been quiet (idle, or a screen waiting for a person) for pidCheckQuietAfterMs. Not
   * the check but the wake-up costs: measured with three idle shell workers over 120 s (after a 45 s settle), a 2 s
   * check plus the 10 s heartbeat cost ~0.13 CPU-s per 10 min per worker; with 60 s / 30 s no CPU tick was charged at
   * all; 30 idle shell workers (bench idle) 0.95 CPU-s per 10 min with a 60 s check against 1.15–1.5 with 20 s. A
   * death the pane-died hook misses in a long-quiet pane is noticed within this time (the slow safety probe,
   * ≥ 60 s, with no exec); the next message probes before it types anyway.
   */
  pidCheckQuietEveryMs: 60_000,
  /** Deaths cluster around activity (a crash at a turn's end, an `/exit`): the fast check lasts this long into quiet. */
  pidCheckQuietAfterMs: 60_000,
} as const;

export type StatusTiming = { [K in keyof typeof STATUS_TIMING]: number };

export interface StatusInput {
  screen: ScreenState;
  msSinceOutput: number;
  /** A delivered message whose turn the transcript has not closed yet. */
  turnOpen: boolean;
  hasTranscript: boolean;
  previous: SessionStatus;
  /** The process is known to be gone (liveness tracker). */
  processGone: boolean;
  /**
   * The transcript's turn-end record closed every turn sent so far. It is the authority: a ready screen is idle at
   * once, without waiting out the output silence (a queued message waited up to 3 s for the idle tick, issue 12).
   */
  turnEndRecorded?: boolean;
  /**
   * Without a transcript: the screen proves the open turns ended (a shell back at its prompt after the last command,
   * pane-output.ts). A ready screen is idle at once instead of after quietMs of silence.
   */
  screenShowsTurnEnd?: boolean;
}

export function decideStatus(i: StatusInput, timing: StatusTiming = STATUS_TIMING): SessionStatus {
  if (i.processGone || i.screen.kind === 'exited') return 'exited';
  switch (i.screen.kind) {
    case 'selection':
      return 'waiting';
    case 'limited':
      return 'limited';
    case 'busy':
      // A spinner keeps the session working, however long it runs.
      return 'working';
    case 'ready':
      if (i.hasTranscript && i.turnOpen && i.msSinceOutput < timing.transcriptGraceMs) return 'working';
      if (!i.hasTranscript && i.turnOpen && i.screenShowsTurnEnd) return 'idle';
      if (!i.hasTranscript && i.turnOpen && i.msSinceOutput < timing.quietMs) return 'working';
      if (i.hasTranscript && !i.turnOpen && i.turnEndRecorded) return 'idle';
      if (i.previous === 'working' && i.msSinceOutput < timing.quietMs) return 'working';
      return 'idle';
    default:
      return i.previous;
  }
}

/** Whether a message should wait rather than be typed now: only an idle (or limited) CLI takes input. */
export function isBusyStatus(status: SessionStatus): boolean {
  return status === 'working' || status === 'waiting' || status === 'starting';
}
