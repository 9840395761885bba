#!/usr/bin/env node
// Bundles the browser terminal page (src/web) into dist/web with esbuild: no CDN, everything served locally.
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
