// An idle session costs nothing: no tmux command runs while the pane is silent, yet the CLI's exit is noticed at once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { makeTmuxShim, type TmuxShim } from '../support/tmux-shim.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the pane is watched for execs: five of the old 3 s idle ticks, far inside the 10-minute idle safety probe. */
const QUIET_WINDOW_MS = 15_000;
/** Far below the 10-minute idle safety probe: a notice this soon came from an event, not from the probe. */
const NOTICE_DEADLINE_MS = 40_000;

describe('idle worker', () => {
  let s: WorkerSession;
  let shim: TmuxShim;
  let shellHome: ReturnType<typeof tempDir>;
  let cwd: ReturnType<typeof tempDir>;

  beforeEach(() => {
    shim = makeTmuxShim();
    shellHome = tempDir('lmx-idle-home-');
    cwd = tempDir('lmx-idle-cwd-');
    writeFileSync(join(shellHome.dir, '.bash_profile'), "PS1='$ '\nPS2='> '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
    s = startWorkerSession({
      cli: 'shell', cwd: cwd.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      workerEnv: { PATH: `${shim.binDir}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
  });
  afterEach(async () => {
    await s.cleanup();
    shim.remove();
    shellHome.remove();
    cwd.remove();
  });

  async function answerThenQuiet(): Promise<void> {
    s.input('t1', 'echo ready-$((2+3))');
    expect((await s.waitFor(isFinal('t1'))).text).toBe('ready-5');
    expect(shim.calls().length).toBeGreaterThan(0); // the shim is the tmux the worker runs
    // Let the turn's last looks finish, then count.
    await s.waitFor((m) => m.type === 'status' && m.status === 'idle');
    await sleep(2_000);
  }

  it('runs no tmux command while the pane is silent, and still answers the next message', async () => {
    await answerThenQuiet();
    const before = shim.calls().length;
    await sleep(QUIET_WINDOW_MS);
    expect(shim.calls().slice(before)).toEqual([]);
    s.input('t2', 'echo still-$((6*7))');
    expect((await s.waitFor(isFinal('t2'))).text).toBe('still-42');
  }, 90_000);

  // tmux's pane-died hook misses some deaths under load (measured 2–4 of 8 by SIGKILL): the pane process's own
  // liveness (kill(pid, 0), no exec) is the second event source.
  it('notices the CLI exiting in a silent pane from an event (the pane-died hook, or its process gone)', async () => {
    await answerThenQuiet();
    const before = shim.calls().length;
    const pid = await s.panePid();
    process.kill(pid!, 'SIGKILL');
    const exit = await s.waitFor((m) => m.type === 'cli_exit', NOTICE_DEADLINE_MS);
    expect(exit).toMatchObject({ type: 'cli_exit', code: null });
    expect(s.of('status').at(-1)).toMatchObject({ status: 'exited' });
    // The notice came from the event: the worker probed after it, not on a timer before it.
    expect(shim.calls().slice(before).some((c) => c.includes('list-panes'))).toBe(true);
  }, 90_000);

  it('notices the tmux session killed from outside while idle', async () => {
    await answerThenQuiet();
    await s.tmux.run(['kill-session', '-t', `=${s.tmuxName}`]);
    await s.waitFor((m) => m.type === 'cli_exit', NOTICE_DEADLINE_MS);
    expect(s.of('status').at(-1)).toMatchObject({ status: 'exited', detail: 'the tmux session is gone' });
  }, 90_000);
});
