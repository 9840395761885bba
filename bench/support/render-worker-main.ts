// Entry of the render bench's worker side when it runs as production runs a worker: bundled by esbuild and forked
// with the worker's V8 flags and malloc settings (bench/render.ts). The tmux socket comes in the environment.
import { runWorkerSide } from './render-worker-side.js';

const socket = process.env.LARKMUX_BENCH_TMUX_SOCKET;
if (!socket) throw new Error('LARKMUX_BENCH_TMUX_SOCKET is not set');
runWorkerSide(socket);
