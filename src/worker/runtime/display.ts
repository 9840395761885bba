// Display modes: screens captured through the FrameGate only while output flows (or on request) and sent to the daemon,
// which draws them; text; hidden.
import type { DisplayMode, SessionStatus, WorkerToDaemon } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import type { Disposable, SessionBackend } from '../backend/types.js';
import { TmuxExecRunner, type TmuxCommandRunner } from '../backend/tmux-control.js';
import { ScreenCapturer, ScreenshotLoop } from '../render/screenshot.js';
import type { StatusReporter } from './status-reporter.js';

export interface DisplayDeps {
  backend: SessionBackend;
  log: Logger;
  send(msg: WorkerToDaemon): void;
  status: StatusReporter;
  /** tmux socket and session the screenshots capture; null for the pty backend (no screenshots). */
  tmux: { socket: string | null; session: string } | null;
  currentStatus(): SessionStatus;
  /** The daemon's screenshot pace (init.frameIntervalMs); absent = FRAME_GATE_DEFAULTS. */
  frameIntervalMs?: number;
}

export class DisplayController {
  private mode: DisplayMode;
  private loop: ScreenshotLoop | null = null;
  private runner: TmuxCommandRunner | null = null;
  private readonly sub: Disposable;
  private disposed = false;

  constructor(private readonly deps: DisplayDeps, mode: DisplayMode) {
    this.mode = mode;
    this.sub = deps.backend.onOutput(() => this.loop?.notePaneOutput());
  }

  /** Call once the pane exists: screenshots need a tmux session to capture. */
  async paneReady(): Promise<void> {
    if (this.mode === 'screenshot') this.ensureLoop();
    this.loop?.setDisplaying(this.mode === 'screenshot');
  }

  async setMode(mode: DisplayMode): Promise<void> {
    this.mode = mode;
    if (mode === 'screenshot') {
      this.ensureLoop();
      this.loop?.setDisplaying(true);
      this.loop?.requestFrame();
    } else {
      this.loop?.setDisplaying(false);
    }
  }

  async captureNow(): Promise<void> {
    if (this.mode === 'screenshot') {
      this.ensureLoop();
      this.loop?.requestFrame();
      return;
    }
    if (this.mode === 'text') {
      const cap = await this.deps.backend.capture();
      if (cap.ok) this.deps.status.report(this.deps.currentStatus(), { screenText: cap.value });
    }
  }

  /** Creates the screenshot loop on first need; nothing to wait for (no client to attach). */
  private ensureLoop(): void {
    if (this.loop || !this.deps.tmux || this.disposed) return;
    const t = this.deps.tmux;
    // One tmux process per capture, never a control-mode client: tmux up to at least 3.5a crashes its whole server
    // (every CLI on it) when a notification reaches a control client that has not finished identifying (tmux PR
    // #4980), and a worker's control client attaching while other sessions start or end hit it under load (SIGSEGV
    // seen three times on tmux 3.3a in one day of capacity runs). Measured on a 120x40 pane: the capture and its
    // cursor query in one tmux process cost 3.3 ms CPU per frame, and screens are captured only while the pane changes.
    this.runner = new TmuxExecRunner(t.socket ? { socket: t.socket } : {});
    this.loop = new ScreenshotLoop(
      new ScreenCapturer(this.runner),
      `=${t.session}:`,
      (f) => this.deps.send({ type: 'screen', screen: f.screen, hash: f.hash }),
      (e) => this.deps.log.warn({ code: e.code, err: e.message }, 'screenshot failed'),
      this.deps.frameIntervalMs !== undefined ? { minIntervalMs: this.deps.frameIntervalMs } : undefined,
    );
  }

  dispose(): void {
    this.disposed = true;
    this.sub.dispose();
    this.loop?.dispose();
    this.runner?.dispose();
  }
}
