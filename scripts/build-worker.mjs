#!/usr/bin/env node
// Bundles the worker and the render process into dist/worker/bundle with esbuild. A worker runs once per live session,
// and a process that loads ~200 small ES modules (zod alone is 95) pays for each module's record and source: the
// bundle keeps an idle worker ~3 MB smaller (bench -- idle). Native and rarely needed packages stay outside and
// load only when used: node-pty and ws when a browser connects, @xterm/headless for the pty fallback and the renderer.
// The bundle sits two levels below dist/ like dist/worker/runtime/, so paths found from import.meta.url still hold.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'worker');
const out = join(root, 'dist', 'worker', 'bundle');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);

rmSync(out, { recursive: true, force: true }); // chunk names carry a hash: old ones would pile up
await build({
  // host-agent: the one process per remote host that forks that host's workers (src/worker/host); it ships in the same
  // folder, so a host runs exactly the daemon's worker. larkmux-pane: the `larkmux where|send` of a host's panes.
  entryPoints: {
    main: join(src, 'main.ts'),
    'render-thread': join(src, 'render', 'render-thread.ts'),
    'host-agent': join(src, 'host', 'host-agent-main.ts'),
    'larkmux-pane': join(root, 'src', 'cli', 'pane-main.ts'),
  },
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

// The bundle names itself: SHA256SUMS, whose sha256 is its folder's name on a host (tsc built the helper just before).
const { readBundle, MANIFEST_NAME } = await import(pathToFileURL(join(root, 'dist', 'platform', 'bundle-manifest.js')).href);
writeFileSync(join(out, MANIFEST_NAME), readBundle(out).text);
