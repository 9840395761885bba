// Frames drawn by the daemon's render process (init.sharedRenderer): a screen goes out as `render`, the PNG comes back
// as `rendered` (or `render_failed`) with the same id. One render process serves every session, so a worker showing
// screenshots costs no render process of its own (issue 14).
import type { DaemonToWorker, WorkerToDaemon } from '../../shared/ipc.js';
import type { CapturedScreen, FrameKind } from '../../shared/render-protocol.js';
import type { FrameRenderer, ThreadRenderResult } from '../../platform/render-process.js';
import { RENDER_THREAD_LIMITS } from './render-thread-host.js';

export type FrameReply = Extract<DaemonToWorker, { type: 'rendered' | 'render_failed' }>;

export const DAEMON_FRAME_LIMITS = {
  /**
   * A frame waits behind other sessions' frames in the shared process: twice the render process's own limit before
   * this worker gives up on it (the daemon's render process fails a stuck frame itself after frameTimeoutMs).
   */
  replyTimeoutMs: 2 * RENDER_THREAD_LIMITS.frameTimeoutMs,
} as const;

interface Waiting {
  resolve(r: ThreadRenderResult): void;
  timer: NodeJS.Timeout;
}

export class DaemonFrames implements FrameRenderer {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private disposed = false;

  constructor(private readonly send: (msg: WorkerToDaemon) => void) {}

  render(screen: CapturedScreen, frame: FrameKind = 'card'): Promise<ThreadRenderResult> {
    if (this.disposed) return Promise.resolve({ ok: false, code: 'closed', message: 'frames disposed' });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, { ok: false, code: 'render-thread-failed', message: `no frame from the daemon within ${DAEMON_FRAME_LIMITS.replyTimeoutMs} ms` }), DAEMON_FRAME_LIMITS.replyTimeoutMs);
      this.waiting.set(id, { resolve, timer });
      this.send({ type: 'render', id, screen, frame });
    });
  }

  /** The daemon's answer; one for an id nobody waits for (timed out, disposed) is dropped. */
  onReply(msg: FrameReply): void {
    if (msg.type === 'rendered') {
      this.settle(msg.id, { ok: true, png: Buffer.from(msg.png.buffer, msg.png.byteOffset, msg.png.byteLength), timings: msg.timings, frame: msg.frame });
    } else {
      this.settle(msg.id, { ok: false, code: msg.code, message: msg.message });
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.waiting.keys()]) this.settle(id, { ok: false, code: 'closed', message: 'frames disposed' });
  }

  private settle(id: number, result: ThreadRenderResult): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.resolve(result);
  }
}
