#!/usr/bin/env node
// Bundles the worker and the render process into dist/worker/bundle with esbuild. A worker runs once per live session,
// and a process that loads ~200 small ES modules (zod alone is 95) pays for each module's record and source: the
// bundle keeps an idle worker ~3 MB smaller (bench -- idle). Native and rarely needed packages stay outside and
// load only when used: node-pty and ws when a browser connects (lazy chunks), @xterm/headless for the pty fallback and
// the renderer. A host gets this folder and nothing else (no node_modules): ws is bundled, node-pty's JS too with its
// native pty.node copied in beside it (this platform's; another host's arch gets no web terminal, said in its log),
// and the web terminal's page is copied in as web-* files.
// The bundle sits two levels below dist/ like dist/worker/runtime/, so paths found from import.meta.url still hold.
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'worker');
const out = join(root, 'dist', 'worker', 'bundle');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);

/** node-pty finds its pty.node in a per-platform package; here it is a file beside the bundle's own chunks. */
const PTY_BINARY = `node-pty-${process.platform}-${process.arch}-pty.node`;
const ptyBinaryBesideBundle = {
  name: 'pty-binary-beside-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]@lydell[\\/]node-pty[\\/]requireBinary\.js$/ }, () => ({
      loader: 'js',
      // `require` is the banner's createRequire(import.meta.url): a name relative to the chunk, so the bundle folder.
      contents: 'exports.requireBinary = function (file) { const name = "./node-pty-" + process.platform + "-" + process.arch + "-" + file; return require(name); };',
    }));
  },
};

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
  // ws's optional native helpers: it does without them (its require of them sits in a try).
  external: ['@napi-rs/canvas', '@xterm/*', 'bufferutil', 'utf-8-validate'],
  plugins: [ptyBinaryBesideBundle],
  // Bundled CommonJS packages (pino) call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __larkmuxCreateRequire } from 'node:module'; const require = __larkmuxCreateRequire(import.meta.url);" },
  chunkNames: 'chunk-[hash]',
  outdir: out,
  logLevel: 'warning',
});

const ptyPackage = join(root, 'node_modules', '@lydell', `node-pty-${process.platform}-${process.arch}`, 'pty.node');
if (existsSync(ptyPackage)) copyFileSync(ptyPackage, join(out, PTY_BINARY));
// The page the web terminal serves (dist/web, built just before): the worker finds it as web-* when dist/web is absent.
for (const name of ['index.html', 'main.js', 'main.css', 'style.css']) {
  const page = join(root, 'dist', 'web', name);
  if (existsSync(page)) copyFileSync(page, join(out, `web-${name}`));
}

// The bundle names itself: SHA256SUMS, whose sha256 is its folder's name on a host (tsc built the helper just before).
const { readBundle, MANIFEST_NAME } = await import(pathToFileURL(join(root, 'dist', 'platform', 'bundle-manifest.js')).href);
writeFileSync(join(out, MANIFEST_NAME), readBundle(out).text);
