#!/usr/bin/env node
// `npm run bench -- <name>`: runs bench/<name>.ts; the benchmark prints one JSON object on stdout.
// npm 11 prints its "> larkmux bench" banner on stdout unless it runs in json mode (the project's .npmrc sets it) or
// silent (`-s`); a run with neither (another .npmrc overriding ours) gets a hint on stderr.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const name = process.argv[2];
const available = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(join(root, 'bench', `${name}.ts`))) {
  process.stderr.write(`usage: npm run bench -- <name>\navailable: ${available.join(', ') || '(none)'}\n`);
  process.exit(2);
}
if (process.env.npm_lifecycle_event === 'bench' && process.env.npm_config_loglevel !== 'silent' && process.env.npm_config_json !== 'true') {
  process.stderr.write('bench: npm printed its banner on stdout; run `npm run -s bench -- <name>` for only the JSON\n');
}
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.ts`), ...process.argv.slice(3)], { stdio: 'inherit', cwd: root });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
