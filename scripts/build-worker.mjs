#!/usr/bin/env node
// Bundles the worker and the render process into dist/worker/bundle with esbuild. A worker runs once per live session,
// and a process that loads ~200 small ES modules (zod alone is 95) pays for each module's record and source: the
// bundle keeps an idle worker ~3 MB smaller (bench -- idle). Native and rarely needed packages stay outside and
// load only when used: node-pty and ws when a browser connects, @xterm/headless for the pty fallback and the renderer.
// The bundle sits two levels below dist/ like dist/worker/runtime/, so paths found from import.meta.url still hold.
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'worker');
const out = join(root, 'dist', 'worker', 'bundle');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);

rmSync(out, { recursive: true, force: true }); // chunk names carry a hash: old ones would pile up
await build({
  entryPoints: { main: join(src, 'main.ts'), 'render-thread': join(src, 'render', 'render-thread.ts') },
  bundle: true,
  // Split so a dynamic import() stays lazy (the pty backend, the browser's packages) instead of joining the main file.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: ['node20'],
  // Whitespace and syntax only: names stay, so a worker's stack trace in the log still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['@lydell/node-pty', '@napi-rs/canvas', '@xterm/*', 'ws'],
  // Bundled CommonJS packages (pino) call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __larkmuxCreateRequire } from 'node:module'; const require = __larkmuxCreateRequire(import.meta.url);" },
  chunkNames: 'chunk-[hash]',
  outdir: out,
  logLevel: 'warning',
});
