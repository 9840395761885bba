// How a worker process is started, wherever it runs: the daemon's pool forks local workers, a host agent remote ones.

/**
 * V8 settings of every worker. A worker moves bytes and runs small decisions; it does no hot JavaScript (the render
 * process draws), so V8's optimizing tiers only cost memory: measured with the built worker and a shell, lite mode
 * takes an idle worker from 64.5 to 54.2 MB RSS and one after 50 rendered turns from 80.3 to 56.6 MB, with the same
 * CPU per turn (0.06–0.13 s for 50 to 400 000 lines of output). Lite mode turns WebAssembly off, which no worker
 * code uses; saying so explicitly keeps V8's "conflicting flags" warning out of the worker's stderr.
 * --max-semi-space-size=1 (MB) keeps the young generation at its smallest: a burst of screenshots grew it, and an idle
 * worker after 50 frames kept those pages (V8's 256 KB pages 6.4–7.9 MB, RSS 49.2–52.4 MB over nine runs); with the
 * cap 6.5–6.8 MB and 49.2–50.0 MB over five, and the same CPU per turn (0.74–0.82 s for 400 000 lines either way).
 */
export const WORKER_V8_FLAGS = ['--lite-mode', '--no-expose-wasm', '--max-semi-space-size=1'] as const;
