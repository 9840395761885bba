#!/usr/bin/env node
// `npm test`: the main suite, then the real-CLI tests on their own, one file at a time — the real-clis project says so
// itself (vitest.config.ts): vitest 4 does not pass a command line `--maxWorkers` on to a project.
// Extra arguments (a file filter, -t …) go to both runs; the exit code is non-zero if either run failed.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const extra = process.argv.slice(2);
const runs = [
  ['run', '--project', 'main', '--passWithNoTests', ...extra],
  ['run', '--project', 'real-clis', '--passWithNoTests', ...extra],
];
let failed = false;
for (const args of runs) {
  const res = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
