// A real worker (forked through WorkerPool) driving bash in a private tmux server: delivery, queueing, loss and restart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;

describe('worker with the shell adapter', () => {
  let s: WorkerSession;
  let shellHome: ReturnType<typeof tempDir>;
  let cwd: ReturnType<typeof tempDir>;

  beforeEach(() => {
    shellHome = tempDir('lmx-sh-home-');
    cwd = tempDir('lmx-sh-cwd-');
    // A clean login shell: a fixed prompt, no history file, nothing from the machine's rc files.
    writeFileSync(join(shellHome.dir, '.bash_profile'), "PS1='$ '\nPS2='> '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
    s = startWorkerSession({ cli: 'shell', cwd: cwd.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  });
  afterEach(async () => {
    await s.cleanup();
    shellHome.remove();
    cwd.remove();
  });

  const launches = () => (s.logText().match(/"msg":"CLI launched"/g) ?? []).length;

  it('delivers the first message and reports the command output; a second message reuses the same shell', async () => {
    s.input('t1', 'echo hello-$((6*7))');
    const delivered = await s.waitFor((m) => m.type === 'input_delivered' && m.turnId === 't1');
    expect(delivered).toMatchObject({ type: 'input_delivered', turnId: 't1', enterRetries: 0 });
    expect((await s.waitFor(isFinal('t1'))).text).toBe('hello-42');
    const pid1 = await s.panePid();
    expect(pid1).not.toBeNull();

    s.input('t2', 'pwd');
    expect((await s.waitFor(isFinal('t2'))).text).toBe(cwd.dir);
    expect(await s.panePid()).toBe(pid1);
    expect(launches()).toBe(1);
    // The readiness gate ran for the cold start only.
    expect((s.logText().match(/readiness gate: open/g) ?? []).length).toBe(1);
    expect(s.of('input_failed')).toEqual([]);
  });

  it('queues messages that arrive while the shell is busy and delivers them in order, unmerged', async () => {
    s.input('a', 'sleep 2; echo a');
    await s.waitFor((m) => m.type === 'input_delivered' && m.turnId === 'a');
    s.input('b', 'echo b');
    s.input('c', 'echo c');
    const finals = await Promise.all(['a', 'b', 'c'].map((t) => s.waitFor(isFinal(t))));
    expect(finals.map((f) => f.text)).toEqual(['a', 'b', 'c']);
    const order = s.of('final_output').map((m) => m.turnId);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(s.of('input_delivered').map((m) => m.turnId)).toEqual(['a', 'b', 'c']);
  });

  it('a tab inside a one-line message is text, not completion (issue 12, finding 5)', async () => {
    // With a file that completion would pick, a typed tab turned `echo i<TAB>done` into `echo important-notes.txt done`.
    writeFileSync(join(cwd.dir, 'important-notes.txt'), 'x');
    s.input('tab', 'echo "i\tdone" | od -c | head -1');
    const out = (await s.waitFor(isFinal('tab'))).text;
    expect(out).toMatch(/i\s+\\t\s+d\s+o\s+n\s+e/);
    expect(out).not.toContain('important');
    expect(s.of('input_delivered').map((m) => m.turnId)).toEqual(['tab']);
  });

  it('types hostile text literally (tmux key names, format strings, shell syntax inside quotes)', async () => {
    const payload = "C-c ; Enter #{pane_id} $(touch nope) `id` \\ -t %% ~";
    s.input('h', `printf '%s\\n' '${payload}'`);
    expect((await s.waitFor(isFinal('h'))).text).toBe(payload);
    // A multi-line message is one paste and runs as one command.
    s.input('m', 'for w in one two three\ndo echo "w=$w"\ndone');
    expect((await s.waitFor(isFinal('m'))).text).toBe('w=one\nw=two\nw=three');
  });

  it('a long pasted command that the shell echoes slowly still gets its output as the answer (issue 14)', async () => {
    // 30 KB on one line: readline redraws it row by row for seconds, and its echo wraps over hundreds of rows. The
    // turn opens once the pane shows the whole command taken, so neither the echo nor a quiet prompt is the answer.
    s.input('warm', 'echo warm');
    expect((await s.waitFor(isFinal('warm'))).text).toBe('warm');
    s.input('big', `echo ${'x'.repeat(30_000)} | wc -c; echo done-$((6*7))`);
    expect((await s.waitFor(isFinal('big'), 120_000)).text).toBe('30001\ndone-42');
  }, 180_000);

  it('output longer than the capture (its command scrolled out) ends the turn as any other, with the output\'s tail as the answer', async () => {
    // 5000 lines push the echoed command out of the 2000 lines captured: the pane can no longer show it taken, and the
    // turn used to wait out the 30 s fallback. The old screen gone and no line of the command left is the proof.
    s.input('warm', 'echo warm');
    expect((await s.waitFor(isFinal('warm'))).text).toBe('warm');
    s.input('long', 'seq 1 5000; echo long-$((6*7))');
    const out = (await s.waitFor(isFinal('long'), 60_000)).text;
    expect(out.split('\n').slice(-2)).toEqual(['5000', 'long-42']);
    expect(s.logText()).not.toContain('turn closed although the pane never showed its command taken');
  });

  it('notices a killed shell, reports it as exited, and restarts it on the next message', async () => {
    s.input('t1', 'echo first');
    await s.waitFor(isFinal('t1'));
    const pid1 = await s.panePid();
    process.kill(pid1!, 'SIGKILL');
    const exited = await s.waitFor((m) => m.type === 'status' && m.status === 'exited');
    expect(exited.type).toBe('status');
    await s.waitFor((m) => m.type === 'cli_exit');
    const before = s.messages.length;
    s.input('t2', 'echo second');
    expect((await s.waitFor(isFinal('t2'), 30_000, before)).text).toBe('second');
    const pid2 = await s.panePid();
    expect(pid2).not.toBe(pid1);
    expect(launches()).toBe(2);
  });

  it('a new worker after a daemon restart takes over the live shell without relaunching it', async () => {
    s.input('t1', 'export MARK=still-the-same-shell');
    await s.waitFor(isFinal('t1'));
    const pid = await s.panePid();
    await s.stopWorker('detach');
    expect(await s.panePid()).toBe(pid);

    const next = startWorkerSession({
      cli: 'shell', cwd: cwd.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      tmux: s.tmux, home: s.home, sessionId: s.sessionId, resume: { mode: 'attach' },
    });
    try {
      await next.waitFor((m) => m.type === 'cli_started' && m.how === 'attached');
      next.input('t2', 'echo $MARK');
      expect((await next.waitFor(isFinal('t2'))).text).toBe('still-the-same-shell');
      expect(await next.panePid()).toBe(pid);
    } finally {
      await next.pool.dispose();
    }
  });
});
