// Runs the `larkmux` command the way a user runs it, and collects its output: from source (tsx) or built (bin/).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import type { TestHome } from './home.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Written to the command's stdin, which is then closed (interactive commands); default: no stdin. */
  stdin?: string;
  /** `built` runs bin/larkmux.js (dist), as `npx larkmux` does; default: the TypeScript source through tsx. */
  from?: 'source' | 'built';
}

export function runLarkmux(args: string[], env: NodeJS.ProcessEnv, opts: RunOptions | number = {}): Promise<CliRun> {
  const { timeoutMs = 60_000, stdin, from = 'source' } = typeof opts === 'number' ? { timeoutMs: opts } : opts;
  const entry = from === 'built' ? [join(ROOT, 'bin', 'larkmux.js')] : ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts')];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], { env, cwd: ROOT, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`larkmux ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** Ends the daemon a test started in this home (`larkmux stop`, then its pid if it is still there) and removes the home. */
export async function endDaemonHome(home: TestHome): Promise<void> {
  await runLarkmux(['stop'], home.env);
  const pid = readPid(home.paths.pidFile);
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  home.cleanup();
}
