// PtyBackend: the same contract on a worker-owned node-pty, used only when tmux is absent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src/shared/session-key.js';
import { PtyBackend } from '../../src/worker/backend/pty.js';
import type { LaunchSpec } from '../../src/worker/backend/types.js';

let home: string;
let backend: PtyBackend | null = null;

beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'lmx-home-')); });
afterEach(async () => {
  await backend?.dispose();
  backend = null;
  rmSync(home, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ECHO_CLI: LaunchSpec = {
  argv: ['sh', '-c', 'stty -echo; echo "ready $FOO ${LARK_APP_SECRET:-unset}"; while IFS= read -r line; do echo "got:$line"; done'],
  cwd: '/', env: { FOO: '$(not run)', LARK_APP_SECRET: 'nope' }, cols: 80, rows: 24,
};

describe('PtyBackend', () => {
  it('declares that it does not survive a restart', () => {
  });

  it('launches from argv, observes, types, captures, and kills', async () => {
    const b = new PtyBackend({ sessionId: newSessionId() });
    backend = b;
    let seen = '';
    b.onOutput((t) => { seen += t; });
    const res = await b.start(ECHO_CLI);
    expect(res).toMatchObject({ ok: true, value: { created: true } });
    if (res.ok) expect(res.value.warnings.join()).toContain('LARK_APP_SECRET');
    await until('banner', () => seen.includes('ready $(not run) unset'));
    expect(await b.sendText('hello 你好 🚀 ;')).toMatchObject({ ok: true });
    expect(await b.sendKey('enter')).toMatchObject({ ok: true });
    await until('echo', () => seen.includes('got:hello 你好 🚀 ;'));
    const screen = await b.capture();
    expect(screen.ok && screen.value).toContain('got:hello 你好 🚀 ;');
    const probe = await b.probe();
    expect(probe).toMatchObject({ state: 'exists', paneDead: false });
    expect(await b.start()).toMatchObject({ ok: true, value: { created: false } });
    expect(await b.kill()).toMatchObject({ ok: true });
    expect(await b.probe()).toEqual({ state: 'missing' });
    expect(await b.start()).toMatchObject({ ok: false, code: 'missing' });
  });

  it('reports a CLI that exits at once with its last output', async () => {
    const b = new PtyBackend({ sessionId: newSessionId() });
    backend = b;
    const res = await b.start({ argv: ['sh', '-c', 'echo "fatal: bad flag"; exit 4'], cwd: '/', env: {}, cols: 80, rows: 24 });
    expect(res).toMatchObject({ ok: false, code: 'launch_exited' });
    if (!res.ok) {
      expect(res.message).toContain('fatal: bad flag');
      expect(res.message).toContain('code 4');
    }
  });
});
