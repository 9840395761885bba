#!/usr/bin/env node
// Bundles the browser pages (the terminal in src/web, the console in src/web/console, the diff page in src/web/diff)
// into dist/web with esbuild: no CDN, everything served locally.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'web');
const out = join(root, 'dist', 'web');
if (!existsSync(join(src, 'main.ts'))) process.exit(0);

/** The line in each page's index.html that the shared head markup replaces. */
const HEAD_MARK = /^ *<!-- larkmux:head\b.*-->\n/m;

/**
 * The <head> markup the pages share, once: what differs is the page's referrer policy (the console needs same-origin
 * for its sign-out form), colour scheme, title, styles and script. Values are ours, never user input.
 */
function headMarkup({ referrer, colorScheme, title, styles, script }) {
  return [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    `<meta name="referrer" content="${referrer}">`,
    `<meta name="color-scheme" content="${colorScheme}">`,
    `<title>${title}</title>`,
    ...styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    `<script src="${script}" defer></script>`,
  ].map((line) => `  ${line}\n`).join('');
}

/** One page: `main.ts` of `from` bundled into `to/<head.script>`, its index.html given the head, its styles copied. */
async function page(from, to, head, extra = {}) {
  if (!existsSync(join(from, 'main.ts'))) return;
  mkdirSync(to, { recursive: true });
  await build({
    entryPoints: [join(from, 'main.ts')],
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    sourcemap: true,
    outfile: join(to, head.script),
    logLevel: 'warning',
    ...extra,
  });
  const html = readFileSync(join(from, 'index.html'), 'utf8');
  if (!HEAD_MARK.test(html)) throw new Error(`${join(from, 'index.html')}: no larkmux:head line to fill`);
  writeFileSync(join(to, 'index.html'), html.replace(HEAD_MARK, headMarkup(head)));
  // Styles esbuild writes itself (main.css, from main.ts's imports) are not in the source folder.
  for (const f of head.styles) if (existsSync(join(from, f))) copyFileSync(join(from, f), join(to, f));
}

await page(src, out, { referrer: 'no-referrer', colorScheme: 'dark', title: 'larkmux terminal', styles: ['main.css', 'style.css'], script: 'main.js' }, { loader: { '.css': 'css' } });
// The local console page, served by the daemon at /console/. Same-origin referrer: see console-server.ts PAGE_HEADERS.
await page(join(src, 'console'), join(out, 'console'), { referrer: 'same-origin', colorScheme: 'light dark', title: 'larkmux', styles: ['style.css'], script: 'console.js' });
// The diff page, served by the daemon at /s/<id>/diff to view-token holders.
await page(join(src, 'diff'), join(out, 'diff'), { referrer: 'no-referrer', colorScheme: 'light dark', title: 'Changes', styles: ['diff.css'], script: 'diff.js' });
