#!/usr/bin/env node
// Bundles the browser pages (the terminal in src/web, the console in src/web/console, the diff page in src/web/diff)
// into dist/web with esbuild: no CDN, everything served locally.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'web');
const out = join(root, 'dist', 'web');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);

/** One page: `main.ts` of `from` bundled into `to/<script>`, and its static files copied beside it. */
async function page(from, to, script, files, extra = {}) {
  if (!existsSync(join(from, 'main.ts'))) return;
  mkdirSync(to, { recursive: true });
  await build({
    entryPoints: [join(from, 'main.ts')],
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    sourcemap: true,
    outfile: join(to, script),
    logLevel: 'warning',
    ...extra,
  });
  for (const f of files) if (existsSync(join(from, f))) copyFileSync(join(from, f), join(to, f));
}

await page(src, out, 'main.js', ['index.html', 'style.css'], { loader: { '.css': 'css' } });
// The local console page, served by the daemon at /console/.
await page(join(src, 'console'), join(out, 'console'), 'console.js', ['index.html', 'style.css']);
// The diff page, served by the daemon at /s/<id>/diff to view-token holders.
await page(join(src, 'diff'), join(out, 'diff'), 'diff.js', ['index.html', 'diff.css']);
