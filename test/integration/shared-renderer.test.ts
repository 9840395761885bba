// One render process for every session (issue 14), where the cards are: workers send screens and never get pictures
// back (one crossing per frame, DESIGN §12) and start no render process of their own; the shared one ends when idle and
// a crash of it costs only the frames in flight. Real workers, real tmux, the real render process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRenderEntry } from '../../src/daemon/workers/worker-pool.js';
import { RENDER_PROCESS_FONT_ENV, RENDER_PROCESS_MALLOC_ENV, RenderProcessHost } from '../../src/platform/render-process.js';
import type { LoadedFonts } from '../../src/worker/render/fonts.js';
import { renderChildren } from '../support/host-sampler.js';
import { startWorkerSession, tempDir, type DrawnScreen, type WorkerSession } from '../support/worker-session.js';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(process.platform === 'linux')('shared render process', () => {
  let sessions: WorkerSession[] = [];
  let shellHome: ReturnType<typeof tempDir>;

  beforeEach(() => {
    shellHome = tempDir('lmx-shared-render-');
    writeFileSync(join(shellHome.dir, '.bash_profile'), "PS1='$ '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  });
  afterEach(async () => {
    await Promise.all(sessions.map((s) => s.cleanup()));
    sessions = [];
    shellHome.remove();
  });

  const shellSession = (renderer: RenderProcessHost) =>
    startWorkerSession({ cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, display: 'screenshot', renderer });

  it('two workers\' screens are drawn in one render process beside the daemon; the workers start none', async () => {
    const lifecycle: string[] = [];
    const renderer = new RenderProcessHost({ entry: defaultRenderEntry(), home: shellHome.dir, idleReleaseMs: 2_000, onLifecycle: (e) => lifecycle.push(e) });
    const a = shellSession(renderer);
    sessions.push(a);
    const b = shellSession(renderer);
    sessions.push(b);
    a.input('a1', 'echo from-session-a');
    b.input('b1', 'echo from-session-b');
    // Each session's own screen, drawn after its answer: different screens, different pictures.
    const finalShot = async (s: WorkerSession, turnId: string, text: string): Promise<DrawnScreen> => {
      await s.waitFor((m) => m.type === 'final_output' && m.turnId === turnId, 60_000);
      s.send({ type: 'capture_now' });
      const screen = await s.waitFor((m) => m.type === 'screen' && m.screen.ansi.includes(`\n${text}`), 60_000);
      const hash = screen.type === 'screen' ? screen.hash : '';
      await until(() => s.drawn.some((d) => d.hash === hash), 60_000, `the picture of ${text}`);
      return s.drawn.find((d) => d.hash === hash)!;
    };
    const [shotA, shotB] = await Promise.all([finalShot(a, 'a1', 'from-session-a'), finalShot(b, 'b1', 'from-session-b')]);
    expect([...shotA.png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect([...shotB.png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect(shotA.hash).not.toBe(shotB.hash);
    expect(Buffer.compare(shotA.png, shotB.png)).not.toBe(0);

    expect(renderer.counts.started).toBe(1);
    expect(await renderChildren(process.pid)).toEqual([renderer.pid]);
    for (const s of [a, b]) expect(await renderChildren(s.pool.pid(s.sessionId)!)).toEqual([]);

    // Idle: the one render process ends; the next screen starts it again.
    await until(() => !renderer.loaded, 30_000, 'the render process to be released');
    expect(lifecycle).toEqual(['started', 'released']);
    const drawnBefore = a.drawn.length;
    a.input('a2', 'echo after-release');
    await until(() => a.drawn.length > drawnBefore, 60_000, 'a picture after the release');
    expect(renderer.counts.started).toBe(2);
  });

  it('the render process gets the allowlisted environment, never the host\'s secrets', async () => {
    process.env.LMX_TEST_APP_SECRET = 'render-must-not-see-this';
    const renderer = new RenderProcessHost({ entry: defaultRenderEntry(), home: shellHome.dir });
    try {
      await renderer.fonts();
      const environ = readFileSync(`/proc/${renderer.pid}/environ`, 'utf8').split('\0');
      expect(environ.some((e) => e.includes('render-must-not-see-this'))).toBe(false);
      // Its own malloc settings (one arena, fixed mmap/trim thresholds: fewer page faults per frame), not the workers', and
      // its font settings (only the registered fonts are mapped).
      for (const [k, v] of Object.entries({ ...RENDER_PROCESS_MALLOC_ENV, ...RENDER_PROCESS_FONT_ENV })) expect(environ).toContain(`${k}=${v}`);
      expect(environ.some((e) => e.startsWith('PATH='))).toBe(true);
    } finally {
      delete process.env.LMX_TEST_APP_SECRET;
      renderer.dispose();
    }
  });

  it('the render process maps the fonts it registered, not every installed one; a glyph none of them has still draws', async () => {
    const renderer = new RenderProcessHost<LoadedFonts>({ entry: defaultRenderEntry(), home: shellHome.dir });
    try {
      const registered = new Set(Object.values((await renderer.fonts()).files).flat());
      const line = (ansi: string) => ({ ansi, cursor: { x: 0, y: 0, visible: false }, cols: 40, rows: 2 });
      const png = async (ansi: string) => {
        const r = await renderer.render(line(ansi), 'full');
        if (!r.ok) throw new Error(r.message);
        return r.png;
      };
      const mappedFonts = () =>
        [...new Set(readFileSync(`/proc/${renderer.pid}/maps`, 'utf8').split('\n').map((l) => l.split(/\s+/)[5] ?? '').filter((f) => /\.(ttf|otf|ttc)$/i.test(f)))];
      await png('ls -la 你好 ✓ 🚀');
      // Loading the canvas library once mapped all 45 installed font files here (every weight, the Serif CJK
      // collections: ~9 MB of RSS); only the registered ones are needed up front.
      expect(mappedFonts().filter((f) => !registered.has(f))).toEqual([]);
      // ⤀ and ⤁ are in no registered font (DejaVu Serif has them, fonts-dejavu-core): each is found when drawn and
      // draws itself, not the same missing-glyph box.
      expect(Buffer.compare(await png('\u2900'), await png('\u2901'))).not.toBe(0);
      expect(mappedFonts().filter((f) => !registered.has(f)).length).toBeGreaterThan(0);
    } finally {
      renderer.dispose();
    }
  });

  it('a render process that dies costs the frames in flight, not the sessions: the next frame starts a new one', async () => {
    const renderer = new RenderProcessHost({ entry: defaultRenderEntry(), home: shellHome.dir, idleReleaseMs: 60_000 });
    const s = shellSession(renderer);
    sessions.push(s);
    s.input('t1', 'echo first');
    await until(() => s.drawn.length > 0, 60_000, 'a first picture');
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1');
    const first = renderer.pid!;
    process.kill(first, 'SIGKILL');
    await until(() => renderer.pid !== first, 10_000, 'the host to notice the death');
    const from = s.messages.length;
    const drawnBefore = s.drawn.length;
    s.input('t2', 'echo after-the-crash');
    await until(() => s.drawn.length > drawnBefore, 60_000, 'a picture after the crash');
    expect([...s.drawn[s.drawn.length - 1]!.png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't2', 30_000, from);
    expect(renderer.pid).not.toBe(first);
    expect(s.exits).toEqual([]);
  });
});
