#!/usr/bin/env node
// Bundles the browser pages (the terminal in src/web, the console in src/web/console) into dist/web with esbuild: no CDN, everything served locally.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'web');
const out = join(root, 'dist', 'web');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(src, 'main.ts')],
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  minify: true,
  sourcemap: true,
  outfile: join(out, 'main.js'),
  loader: { '.css': 'css' },
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) if (existsSync(join(src, f))) copyFileSync(join(src, f), join(out, f));

// The local console page (src/web/console → dist/web/console), served by the daemon at /console/.
const consoleSrc = join(src, 'console');
if (existsSync(join(consoleSrc, 'main.ts'))) {
  const consoleOut = join(out, 'console');
  mkdirSync(consoleOut, { recursive: true });
  await build({
    entryPoints: [join(consoleSrc, 'main.ts')],
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    sourcemap: true,
    outfile: join(consoleOut, 'console.js'),
    logLevel: 'warning',
  });
  for (const f of ['index.html', 'style.css']) copyFileSync(join(consoleSrc, f), join(consoleOut, f));
}
