#!/usr/bin/env node
// The `larkmux` command: runs the compiled CLI (npm ci builds it through the prepare script).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('larkmux is not built yet: run `npm ci` (or `npm run build`) in the larkmux folder first.\n');
  process.exit(1);
}
await import(pathToFileURL(entry).href);
