// The pane's process liveness as the pid watch sees it: a zombie tmux failed to reap counts as gone.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAlive, procState } from '../../src/worker/runtime/pane-pid-watch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pane pid watch: processAlive', () => {
  it('a running process is alive, a reaped one is not', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    expect(processAlive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(processAlive(child.pid!)).toBe(false);
  });

  // Linux: /proc tells a zombie apart; this is the case tmux 3.3a leaves behind under load (pane dead, child unreaped).
  it.runIf(process.platform === 'linux')('a zombie nobody reaped is not alive, though kill(pid, 0) succeeds on it', async () => {
    // sh forks `sleep 0`, then becomes `sleep 5`, which never waits for that child: a zombie for five seconds.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))));
    let state = procState(zombie);
    for (let i = 0; i < 50 && state !== 'Z'; i++) {
      await sleep(100);
      state = procState(zombie);
    }
    expect(state).toBe('Z');
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(processAlive(zombie)).toBe(false);
    parent.kill('SIGKILL');
  });

  it.runIf(process.platform === 'linux')('reads the state after a command name holding spaces and parentheses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmx-comm-'));
    const odd = join(dir, 'x) Z (y');
    copyFileSync(execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim(), odd);
    chmodSync(odd, 0o755);
    const child = spawn(odd, ['30'], { stdio: 'ignore' });
    try {
      await sleep(200);
      expect(procState(child.pid!)).toBe('S');
      expect(processAlive(child.pid!)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
