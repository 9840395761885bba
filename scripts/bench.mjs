#!/usr/bin/env node
// `npm run -s bench -- <name>`: runs bench/<name>.ts; stdout gets exactly one line, the benchmark's JSON object
// (bench-stdout.mjs moves any other line to stderr). Without `-s`, npm itself prints its two-line "> larkmux bench"
// banner on stdout before this script starts: that is npm's, and documented in the README.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResultLineFilter } from './bench-stdout.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const name = process.argv[2];
const available = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(join(root, 'bench', `${name}.ts`))) {
  process.stderr.write(`usage: npm run -s bench -- <name>\navailable: ${available.join(', ') || '(none)'}\n`);
  process.exit(2);
}
const filter = new ResultLineFilter((line) => process.stderr.write(`${line}\n`));
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.ts`), ...process.argv.slice(3)], {
  stdio: ['inherit', 'pipe', 'inherit'],
  cwd: root,
});
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => filter.push(chunk));
child.on('close', (code, signal) => {
  const result = filter.finish();
  if (result.ok) process.stdout.write(`${result.line}\n`);
  else process.stderr.write(`bench ${name}: ${result.error}\n`);
  const exit = code ?? (signal ? 1 : 0);
  process.exit(exit || (result.ok ? 0 : 1));
});
