// The pipe-pane observer: drains a flood without blocking the pane, survives its own SIGKILL, replaces and removes pipes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { larkmuxPaths } from '../../src/platform/paths.js';
import { newSessionId } from '../../src/shared/session-key.js';
import { TmuxBackend } from '../../src/worker/backend/tmux.js';
import type { LaunchSpec, ObserverClosed } from '../../src/worker/backend/types.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

let server: TestTmuxServer;
let home: string;
const backends: TmuxBackend[] = [];

beforeEach(() => {
  server = makeTmuxServer();
  home = mkdtempSync(join(tmpdir(), 'lmx-home-'));
});

afterEach(async () => {
  for (const b of backends.splice(0)) await b.dispose();
  await server.kill();
  rmSync(home, { recursive: true, force: true });
});

function backend(sessionId: string, stallTimeoutMs?: number): TmuxBackend {
  const b = new TmuxBackend({ sessionId, home, socket: server.socket, stallTimeoutMs });
  backends.push(b);
  return b;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A CLI stand-in: echoes each line it reads as `got:<line>`, after announcing its pid. */
const ECHO_CLI: LaunchSpec = {
  argv: ['sh', '-c', 'stty -echo; echo "pid:$$"; while IFS= read -r line; do echo "got:$line"; done'],
  cwd: '/', env: {}, cols: 100, rows: 30,
};

describe('PipePaneObserver via TmuxBackend', () => {
  it('observes every byte of `seq 1 3000000` and the pane finishes', async () => {
    const b = backend(newSessionId());
    const parts: string[] = [];
    let tail = '';
    b.onOutput((t) => { parts.push(t); tail = (tail + t).slice(-64); });
    const res = await b.start({ argv: ['sh', '-c', 'stty -echo; read go; seq 1 3000000; echo SEQ-DONE; exec sleep 60'], cwd: '/', env: {}, cols: 100, rows: 30 });
    expect(res).toMatchObject({ ok: true });
    await b.sendText('go');
    await b.sendKey('enter');
    await until('SEQ-DONE', () => tail.includes('SEQ-DONE\r\n'), 120_000);
    const observed = parts.join('');
    const lines: string[] = [];
    for (let i = 1; i <= 3_000_000; i++) lines.push(String(i));
    const expected = `${lines.join('\r\n')}\r\nSEQ-DONE\r\n`;
    expect(observed.length).toBe(expected.length);
    expect(observed === expected).toBe(true);
  });

  it('decodes multi-byte characters split across FIFO reads exactly once', async () => {
    const b = backend(newSessionId());
    const parts: string[] = [];
    b.onOutput((t) => parts.push(t));
    const line = '你好，世界 🚀✅ ünïcödé 終端';
    const script = `stty -echo; read go; i=0; while [ $i -lt 20000 ]; do echo '${line}'; i=$((i+1)); done; echo UTF-DONE; exec sleep 60`;
    expect(await b.start({ argv: ['sh', '-c', script], cwd: '/', env: {}, cols: 100, rows: 30 })).toMatchObject({ ok: true });
    await b.sendText('go');
    await b.sendKey('enter');
    await until('UTF-DONE', () => parts.join('').includes('UTF-DONE'), 120_000);
    const observed = parts.join('');
    expect(observed).not.toContain('\uFFFD');
    expect(observed).toBe(`${`${line}\r\n`.repeat(20_000)}UTF-DONE\r\n`);
  });

  it('survives SIGKILL of the observing process: session and CLI live on, a new backend re-attaches and types', async () => {
    const id = newSessionId();
    const backendUrl = pathToFileURL(resolve('src/worker/backend/tmux.ts')).href;
    const child = join(home, 'observer-child.mts');
    writeFileSync(child, `
      import { TmuxBackend } from ${JSON.stringify(backendUrl)};
      const b = new TmuxBackend({ sessionId: ${JSON.stringify(id)}, home: ${JSON.stringify(home)}, socket: ${JSON.stringify(server.socket)} });
      b.onOutput((t) => process.stdout.write(t));
      const res = await b.start(${JSON.stringify(ECHO_CLI)});
      process.stdout.write('\\nSTARTED ' + JSON.stringify(res) + '\\n');
      await b.sendText('from-child'); await b.sendKey('enter');
      setInterval(() => {}, 1000);
    `);
    const proc = spawn(process.execPath, ['--import', 'tsx', child], { stdio: ['ignore', 'pipe', 'inherit'] });
    let childOut = '';
    proc.stdout.on('data', (d: Buffer) => { childOut += d.toString('utf8'); });
    try {
      await until('child observed its own input', () => childOut.includes('got:from-child'));
      expect(childOut).toMatch(/STARTED \{"ok":true/);
    } finally {
      proc.kill('SIGKILL');
    }
    await new Promise((r) => proc.once('exit', r));

    const b = backend(id);
    const before = await b.probe();
    expect(before).toMatchObject({ state: 'exists', paneDead: false });
    const pid = before.state === 'exists' ? before.panePid : null;
    expect(childOut).toContain(`pid:${pid}`);
    let seen = '';
    b.onOutput((t) => { seen += t; });
    expect(await b.start(ECHO_CLI)).toMatchObject({ ok: true, value: { created: false } });
    await b.sendText('after-kill ; `x` $(y)');
    await b.sendKey('enter');
    await until('the re-attached backend sees new output', () => seen.includes('got:after-kill ; `x` $(y)'));
    expect(await b.probe()).toMatchObject({ state: 'exists', panePid: pid });
  });

  it('re-attaching replaces the pipe: the old observer is told, the new one sees output', async () => {
    const id = newSessionId();
    const first = backend(id);
    const closed: ObserverClosed[] = [];
    let firstSeen = '';
    first.onObserverClosed((c) => closed.push(c));
    first.onOutput((t) => { firstSeen += t; });
    expect(await first.start(ECHO_CLI)).toMatchObject({ ok: true });
    await first.sendText('one'); await first.sendKey('enter');
    await until('first sees one', () => firstSeen.includes('got:one'));

    const second = backend(id);
    let secondSeen = '';
    second.onOutput((t) => { secondSeen += t; });
    expect(await second.start()).toMatchObject({ ok: true, value: { created: false } });
    await until('first is told its pipe closed', () => closed.length > 0);
    expect(closed[0]?.reason).toBe('pipe_closed');
    await second.sendText('two'); await second.sendKey('enter');
    await until('second sees two', () => secondSeen.includes('got:two'));
    expect(firstSeen).not.toContain('got:two');
  });

  it('closes the pipe when the consumer stays paused, so tmux stops buffering; start() re-attaches', async () => {
    const id = newSessionId();
    const b = backend(id, 300);
    const closed: ObserverClosed[] = [];
    b.onObserverClosed((c) => closed.push(c));
    let seen = '';
    b.onOutput((t) => { seen += t; });
    expect(await b.start(ECHO_CLI)).toMatchObject({ ok: true });
    b.pauseOutput();
    await until('stall detected', () => closed.length > 0, 10_000);
    expect(closed[0]?.reason).toBe('stalled');
    const pipe = await server.run(['display-message', '-p', '-t', `=${b.name}:`, '#{pane_pipe}']);
    expect(pipe.stdout.trim()).toBe('0');
    expect(await b.start()).toMatchObject({ ok: true, value: { created: false } });
    await b.sendText('resumed'); await b.sendKey('enter');
    await until('output after re-attach', () => seen.includes('got:resumed'));
  });

  it('removes the FIFO on detach and leaves the CLI running', async () => {
    const id = newSessionId();
    const b = backend(id);
    expect(await b.start(ECHO_CLI)).toMatchObject({ ok: true });
    const fifo = larkmuxPaths(home).fifo(id);
    expect(existsSync(fifo)).toBe(true);
    await b.detach();
    expect(existsSync(fifo)).toBe(false);
    expect(await b.probe()).toMatchObject({ state: 'exists', paneDead: false });
    const pipe = await server.run(['display-message', '-p', '-t', `=${b.name}:`, '#{pane_pipe}']);
    expect(pipe.stdout.trim()).toBe('0');
  });
});
