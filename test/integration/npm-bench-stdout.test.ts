// Issue 32 item 5: npm stays normal in this project (no json mode from .npmrc), and `npm run -s bench -- <name>` prints
// only the benchmark's JSON, one line (scripts/bench.mjs moves a bench's other stdout lines to stderr); without -s
// npm's own two-line banner comes first, as the README says.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, type CliRun } from '../support/larkmux-cli.js';

/** npm as a user runs it in the clone: nothing inherited from an npm that may be running this test. */
function npm(args: string[], timeoutMs: number, cwd = ROOT): Promise<CliRun> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k)));
  return new Promise((resolve) => {
    execFile('npm', args, { cwd, env, timeout: timeoutMs, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

describe('npm in the clone', () => {
  it('is not in json mode: a failing script prints npm banner and usage as text, no {"error": …}', async () => {
    const res = await npm(['run', 'bench'], 120_000);
    expect(res.code).not.toBe(0);
    expect(res.stdout).not.toContain('"error"');
    // npm's banner is on stdout (two lines), the script's usage on stderr.
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(res.stdout.trim().split('\n')).toEqual([`> larkmux@${version} bench`, '> node scripts/bench.mjs']);
    expect(res.stderr).toContain('usage: npm run -s bench -- <name>');
  }, 150_000);

  it('`npm run -s bench -- <name>` prints exactly one line, the JSON object, even when the bench prints more', async () => {
    // A clone of the runner with one bench that also prints progress on stdout (as a child process it runs might).
    const dir = mkdtempSync(join(tmpdir(), 'lmx-bench-runner-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      mkdirSync(join(dir, 'bench'));
      for (const f of readdirSync(join(ROOT, 'scripts')).filter((n) => n.startsWith('bench'))) copyFileSync(join(ROOT, 'scripts', f), join(dir, 'scripts', f));
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'larkmux', version: '0.1.0', private: true, scripts: { bench: 'node scripts/bench.mjs' } }));
      writeFileSync(join(dir, 'bench', 'chatty.ts'), [
        "process.stdout.write('warming up\\n');",
        "console.log('round 1 of 1');",
        "const result: { ms: number } = { ms: 12.5 };",
        "process.stdout.write(`${JSON.stringify(result)}\\n`);",
      ].join('\n'));
      const res = await npm(['run', '-s', 'bench', '--', 'chatty'], 120_000, dir);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe('{"ms":12.5}\n');
      expect(JSON.parse(res.stdout)).toEqual({ ms: 12.5 });
      expect(res.stderr).toContain('warming up\nround 1 of 1\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
