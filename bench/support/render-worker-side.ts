// The worker's half of bench/render.ts, bundled and forked as a worker is (render-worker-main.ts): it captures a
// pane the way a worker does (ScreenCapturer over TmuxExecRunner: one tmux process per capture, no control client) and
// sends each screen to its parent (the daemon's part) as the `screen` message a worker sends. It captures the next one
// when the parent asks (`next`, the bench's pacing: a worker captures on pane output instead).
import { performance } from 'node:perf_hooks';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { ScreenCapturer } from '../../src/worker/render/screenshot.js';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';

/** The parent asks for one capture of each target (8 at once for the eight-session round). */
export type BenchToWorker = { type: 'next'; targets: string[] } | { type: 'stop' };
/** A worker's `screen` message, plus when its capture started and how long it took (wall clock, shared by both processes). */
export type BenchScreen = { msg: WorkerToDaemon; target: string; startedAt: number; captureMs: number } | { failed: string };

/** Milliseconds since the epoch with sub-millisecond precision, comparable between processes on one machine. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

export function runWorkerSide(socket: string): void {
  const capturer = new ScreenCapturer(new TmuxExecRunner({ socket }));
  const send = (m: BenchScreen) => process.send?.(m);
  process.on('message', (m: BenchToWorker) => {
    if (m.type === 'stop') process.exit(0);
    for (const target of m.targets) {
      const startedAt = wallMs();
      void capturer.capture(`=${target}:`, null).then((r) => {
        if (!r.ok || !r.changed) return send({ failed: `${target}: ${r.ok ? 'unchanged' : r.message}` });
        send({ msg: { type: 'screen', screen: r.screen, hash: r.hash }, target, startedAt, captureMs: wallMs() - startedAt });
      });
    }
  });
}
