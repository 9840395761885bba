// The pane's process liveness as the pid watch sees it: a zombie tmux failed to reap counts as gone.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { STATUS_TIMING } from '../../src/worker/lifecycle/status.js';
import { PanePidWatch, processAlive } from '../../src/worker/runtime/pane-pid-watch.js';
import { procState, zombieExitStatus } from '../../src/platform/proc-stat.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pane pid watch: processAlive', () => {
  it('a running process is alive, a reaped one is not', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    expect(processAlive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(processAlive(child.pid!)).toBe(false);
  });

  /**
   * A zombie: sh starts a subshell that runs `end` once told to, then becomes `sleep 60`, which never waits for it.
   * The subshell is told only after the exec, so sh itself cannot reap it first (dash reaps finished jobs).
   */
  async function zombieOf(end: string): Promise<{ pid: number; parent: ReturnType<typeof spawn> }> {
    const dir = mkdtempSync(join(tmpdir(), 'lmx-zombie-'));
    const go = join(dir, 'go');
    const parent = spawn('sh', ['-c', `(while [ ! -e "$1" ]; do sleep 0.05; done; ${end}) & echo $!; exec sleep 60`, 'sh', go], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))));
    for (let i = 0; i < 300 && readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() !== 'sleep'; i++) await sleep(20);
    writeFileSync(go, '');
    for (let i = 0; i < 300 && procState(pid) !== 'Z'; i++) await sleep(20);
    rmSync(dir, { recursive: true, force: true });
    return { pid, parent };
  }

  // Linux: /proc tells a zombie apart; this is the case tmux 3.3a leaves behind under load (pane dead, child unreaped).
  it.runIf(process.platform === 'linux')('a zombie nobody reaped is not alive, though kill(pid, 0) succeeds on it', async () => {
    const { pid: zombie, parent } = await zombieOf('exit 0');
    expect(procState(zombie)).toBe('Z');
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

  // tmux 3.3a under load leaves #{pane_dead_status} empty for such a pane: the zombie still holds its exit status.
  it.runIf(process.platform === 'linux')('an unreaped exit keeps its status; a signal death and a live process have none', async () => {
    const exited = await zombieOf('exit 7');
    const killed = await zombieOf("exec sh -c 'kill -9 $$'");
    try {
      expect(zombieExitStatus(exited.pid)).toBe(7);
      expect(zombieExitStatus(killed.pid)).toBeNull();
      expect(zombieExitStatus(process.pid)).toBeNull();
    } finally {
      exited.parent.kill('SIGKILL');
      killed.parent.kill('SIGKILL');
    }
  });
});

describe('pane pid watch: pace', () => {
  /** A reaped process: its pid is gone for the watch (the watch itself only reads it). */
  async function deadPid(): Promise<number> {
    const child = spawn('true', [], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    return child.pid!;
  }

  /** A started watch gone quiet, on fake timers; the body runs with it and the timers are real again after. */
  async function withQuietWatch(body: (watch: PanePidWatch, gone: ReturnType<typeof vi.fn>, pid: number) => void): Promise<void> {
    const pid = await deadPid();
    vi.useFakeTimers();
    const gone = vi.fn();
    const watch = new PanePidWatch(gone);
    try {
      watch.start();
      watch.setPace('idle');
      body(watch, gone, pid);
    } finally {
      watch.stop();
      vi.useRealTimers();
    }
  }

  it('keeps the fast check for a while into quiet, then asks every pidCheckQuietEveryMs', async () => {
    await withQuietWatch((watch, gone, pid) => {
      // Just quiet: a death is still noticed within the fast interval.
      watch.set(pid);
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckEveryMs);
      expect(gone).toHaveBeenCalledTimes(1);
      // Long quiet (the switch happens at pidCheckQuietAfterMs; a slow check at +pidCheckQuietEveryMs): no fast checks.
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckQuietAfterMs + STATUS_TIMING.pidCheckQuietEveryMs);
      watch.set(pid);
      vi.advanceTimersByTime(3 * STATUS_TIMING.pidCheckEveryMs);
      expect(gone).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckQuietEveryMs);
      expect(gone).toHaveBeenCalledTimes(2);
    });
  });

  it('going back to work asks at once instead of up to a quiet interval late', async () => {
    await withQuietWatch((watch, gone, pid) => {
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckQuietAfterMs + STATUS_TIMING.pidCheckEveryMs);
      watch.set(pid);
      watch.setPace('active');
      expect(gone).toHaveBeenCalledTimes(1);
    });
  });

  it('a restarted watch (a relaunched CLI) begins fast again, even after a long quiet', async () => {
    await withQuietWatch((watch, gone, pid) => {
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckQuietAfterMs + STATUS_TIMING.pidCheckQuietEveryMs);
      watch.stop();
      watch.start();
      watch.setPace('idle');
      vi.advanceTimersByTime(2 * STATUS_TIMING.pidCheckEveryMs);
      watch.set(pid);
      vi.advanceTimersByTime(STATUS_TIMING.pidCheckEveryMs);
      expect(gone).toHaveBeenCalledTimes(1);
    });
  });
});
