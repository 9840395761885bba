// Display modes through a real worker: screenshots only while displayed (PNG bytes + hash), text screens on request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';

type Shot = Extract<WorkerToDaemon, { type: 'screenshot' }>;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

describe('worker display modes', () => {
  let s: WorkerSession;
  let shellHome: ReturnType<typeof tempDir>;

  beforeEach(() => {
    shellHome = tempDir('lmx-disp-');
    writeFileSync(join(shellHome.dir, '.bash_profile'), "PS1='$ '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  });
  afterEach(async () => {
    await s.cleanup();
    shellHome.remove();
  });

  it('sends PNG screenshots while displayed, none after switching to hidden, and screen text on capture_now in text mode', async () => {
    s = startWorkerSession({ cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot' });
    s.input('t1', 'echo shown-on-screen');
    const shot = (await s.waitFor((m): m is Shot => m.type === 'screenshot', 30_000)) as Shot;
    expect([...shot.png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect(shot.cols).toBe(120);
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1');

    s.send({ type: 'set_display', mode: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    const before = s.of('screenshot').length;
    s.input('t2', 'echo while-hidden');
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't2');
    await new Promise((r) => setTimeout(r, 800));
    expect(s.of('screenshot').length).toBe(before);

    s.send({ type: 'set_display', mode: 'text' });
    const from = s.messages.length;
    s.send({ type: 'capture_now' });
    const status = await s.waitFor((m) => m.type === 'status' && (m.screenText ?? '').includes('while-hidden'), 10_000, from);
    expect(status.type).toBe('status');
  });

  it('releases the render thread when no frame is wanted and starts it again for the next visible frame', async () => {
    s = startWorkerSession({
      cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot',
      workerEnv: { LARKMUX_RENDER_IDLE_MS: '500' },
    });
    const count = (what: string) => (s.logText().match(new RegExp(`"msg":"${what}`, 'g')) ?? []).length;
    s.input('t1', 'echo first-frame');
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1');
    const deadline = Date.now() + 30_000;
    while (count('render thread released') === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(count('render thread released')).toBeGreaterThan(0);
    const startedBefore = count('render thread started');

    const from = s.messages.length;
    s.input('t2', 'echo after-release');
    const shot = (await s.waitFor((m): m is Shot => m.type === 'screenshot', 30_000, from)) as Shot;
    expect([...shot.png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect([shot.cols, shot.rows]).toEqual([120, 40]);
    expect(count('render thread started')).toBe(startedBefore + 1);
  });

  // The daemon shows a new screenshot on a card at most every 2 s (session-cards.ts) and says so in init: the worker
  // renders no more often, so it encodes no frame the card would throw away.
  it('renders at the pace the daemon names in init, while output flows the whole time', async () => {
    const PACE_MS = 2_000;
    s = startWorkerSession({
      cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot',
      frameIntervalMs: PACE_MS,
    });
    const from = s.messages.length;
    s.input('t1', 'for i in $(seq 1 80); do echo tick-$i; sleep 0.1; done; echo ticks-$((40+2))');
    await s.waitFor((m) => m.type === 'input_delivered' && m.turnId === 't1', 30_000, from);
    const started = Date.now();
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1', 60_000, from);
    const turnMs = Date.now() - started;
    const shots = s.messages.slice(from).filter((m) => m.type === 'screenshot');
    // One render may start at once, then one per pace at most while the pane never falls silent.
    expect(shots.length).toBeLessThanOrEqual(Math.floor(turnMs / PACE_MS) + 2);
    expect(shots.length).toBeGreaterThanOrEqual(2);
  });
});
