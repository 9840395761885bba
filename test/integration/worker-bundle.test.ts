// The built worker is the esbuild bundle (scripts/build-worker.mjs), and the daemon runs it: this checks the bundle
// itself — a turn answered, a screenshot from the bundled render process, the web terminal's page and socket — and
// that the browser's packages (ws, node-pty) load only when a browser connects. Needs `npm run build` (npm ci runs it).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { PROXY_HEADERS } from '../../src/shared/webterm-protocol.js';
import { workerChildren } from '../support/host-sampler.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';
import { RenderProcessHost } from '../../src/platform/render-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUNDLE = join(ROOT, 'dist', 'worker', 'bundle');
const SECRET = 'bundle-test-proxy-secret-0123456789';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

type Ready = Extract<WorkerToDaemon, { type: 'ready' }>;

/** Whether the process has a shared object whose path contains `part` mapped (a native module is loaded). */
function mapsInclude(pid: number, part: string): boolean {
  return readFileSync(`/proc/${pid}/maps`, 'utf8').includes(part);
}

let shellHome: { dir: string; remove(): void };
let session: WorkerSession | null = null;
/** The daemon's render process, from the bundle as the built daemon runs it. */
let frames: RenderProcessHost;

beforeEach(() => {
  if (!existsSync(join(BUNDLE, 'main.js'))) throw new Error('dist/worker/bundle is missing: run `npm run build` first');
  shellHome = tempDir('lmx-bundle-');
  writeFileSync(join(shellHome.dir, '.bash_profile'), "PS1='$ '\nPS2='> '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  frames = new RenderProcessHost({ entry: join(BUNDLE, 'render-thread.js'), home: shellHome.dir });
});

afterEach(async () => {
  await session?.cleanup();
  session = null;
  frames.dispose();
  shellHome.remove();
});

describe('the built worker bundle', () => {
  it('is what the built daemon forks, for the worker and for the render process', async () => {
    const built = (await import(pathToFileURL(join(ROOT, 'dist', 'daemon', 'workers', 'worker-pool.js')).href)) as typeof import('../../src/daemon/workers/worker-pool.js');
    expect(built.defaultWorkerEntry().entry).toBe(join(BUNDLE, 'main.js'));
    expect(built.defaultRenderEntry()).toBe(join(BUNDLE, 'render-thread.js'));
  });

  it('answers a turn, draws its screen in the bundled render process, and serves the web terminal', async () => {
    const s = startWorkerSession({
      cli: 'shell', cwd: shellHome.dir, env: { HOME: shellHome.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      display: 'screenshot', workerEntry: join(BUNDLE, 'main.js'), webSecret: SECRET, renderer: frames,
    });
    session = s;
    const ready = (await s.waitFor((m): m is Ready => m.type === 'ready', 60_000)) as Ready;
    expect(ready.webPort).toBeGreaterThan(0);
    // The worker's malloc tuning is the worker's own: the CLI does not inherit it.
    s.input('t1', 'echo "bundled $((6 * 7)) malloc:${MALLOC_ARENA_MAX-none}"');
    const final = await s.waitFor((m) => m.type === 'final_output' && m.turnId === 't1', 60_000);
    expect(final).toMatchObject({ type: 'final_output', text: expect.stringContaining('bundled 42 malloc:none') });
    // The bundled worker sends its screen; the bundled render process (the daemon's) draws it.
    await s.waitFor((m) => m.type === 'screen', 60_000);
    for (let i = 0; i < 600 && s.drawn.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect([...s.drawn[0]!.png.subarray(0, 4)]).toEqual(PNG_MAGIC);

    // Nothing of the browser's side is loaded until a browser comes: node-pty's native module is not mapped.
    const pid = s.pool.pid(s.sessionId)!;
    expect(mapsInclude(pid, 'pty.node')).toBe(false);
    // The host sampler of the capacity tests and `bench -- scale` counts the bundled worker as a worker.
    expect(await workerChildren(process.pid)).toContain(pid);

    const headers = { [PROXY_HEADERS.secret]: SECRET, [PROXY_HEADERS.access]: 'write', [PROXY_HEADERS.user]: 'ou_bundle' };
    const page = await fetch(`http://127.0.0.1:${ready.webPort}/`, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="main.js"');
    const script = await fetch(`http://127.0.0.1:${ready.webPort}/main.js`, { headers });
    expect(script.status).toBe(200);

    const ws = new WebSocket(`ws://127.0.0.1:${ready.webPort}/ws`, { headers });
    try {
      const firstFrame = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(String(data)));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        ws.once('error', reject);
      });
      expect(JSON.parse(firstFrame)).toMatchObject({ t: 'info', readOnly: false });
      expect(mapsInclude(pid, 'pty.node')).toBe(true);
    } finally {
      ws.terminate();
    }
  });
});
