// Display modes through a real worker: screens only while displayed (captured text with colours + hash, never pixels:
// the daemon draws them), text screens on request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { renderChildren } from '../support/host-sampler.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';

type Shot = Extract<WorkerToDaemon, { type: 'screen' }>;

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

  it('sends screens while displayed, none after switching to hidden, and screen text on capture_now in text mode', async () => {
    s = startWorkerSession({ cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot' });
    s.input('t1', 'echo shown-on-screen');
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1');
    s.send({ type: 'capture_now' });
    const shot = (await s.waitFor((m): m is Shot => m.type === 'screen' && m.screen.ansi.includes('\nshown-on-screen'), 30_000)) as Shot;
    expect([shot.screen.cols, shot.screen.rows]).toEqual([120, 40]);
    expect(shot.hash).toMatch(/^[0-9a-f]{40}$/);

    s.send({ type: 'set_display', mode: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    const before = s.of('screen').length;
    s.input('t2', 'echo while-hidden');
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't2');
    await new Promise((r) => setTimeout(r, 800));
    expect(s.of('screen').length).toBe(before);

    s.send({ type: 'set_display', mode: 'text' });
    const from = s.messages.length;
    s.send({ type: 'capture_now' });
    const status = await s.waitFor((m) => m.type === 'status' && (m.screenText ?? '').includes('while-hidden'), 10_000, from);
    expect(status.type).toBe('status');
  });

  it('draws nothing itself: no render process under the worker, whatever it shows', async () => {
    s = startWorkerSession({ cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot' });
    for (const turn of ['t1', 't2', 't3']) {
      s.input(turn, `printf '\\033[31m红色 ${turn}\\033[0m\\n'`);
      await s.waitFor((m) => m.type === 'final_output' && m.turnId === turn);
    }
    s.send({ type: 'capture_now' });
    // Colours travel as SGR in the captured text; pixels are the daemon's business.
    const shot = (await s.waitFor((m): m is Shot => m.type === 'screen' && /\u001b\[31m红色 t3/.test(m.screen.ansi), 30_000)) as Shot;
    expect(shot.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(await renderChildren(s.pool.pid(s.sessionId)!)).toEqual([]);
    expect(s.logText()).not.toContain('render thread started');
  });

  // The daemon shows a new screenshot on a card at most every 2 s (session-cards.ts) and says so in init: the worker
  // sends screens no more often, so none crosses that the card would throw away.
  it('sends screens at the pace the daemon names in init, while output flows the whole time', async () => {
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
    const shots = s.messages.slice(from).filter((m) => m.type === 'screen');
    // One capture may start at once, then one per pace at most while the pane never falls silent.
    expect(shots.length).toBeLessThanOrEqual(Math.floor(turnMs / PACE_MS) + 2);
    expect(shots.length).toBeGreaterThanOrEqual(2);
  });
});
