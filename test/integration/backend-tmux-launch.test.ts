// Launching through TmuxBackend: argv and env reach the CLI literally, reserved env is refused, instant exits are kept aside.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId, tmuxDiagName, tmuxSessionName } from '../../src/shared/session-key.js';
import { TmuxBackend } from '../../src/worker/backend/tmux.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const DUMP = `
import fs from 'node:fs';
const [out, ...args] = process.argv.slice(2);
const pick = (k) => process.env[k] ?? null;
fs.writeFileSync(out, JSON.stringify({ args, cwd: process.cwd(), hostile: pick('HOSTILE'), semi: pick('SEMI'),
  secret: pick('LARK_APP_SECRET'), home: pick('LARKMUX_HOME'), tmux: pick('TMUX'), tmuxPane: pick('TMUX_PANE'),
  path: pick('PATH'), fn: pick('BASH_FUNC_larkmux%%') }));
setInterval(() => {}, 1000);
`;

let server: TestTmuxServer;
let home: string;
const backends: TmuxBackend[] = [];

beforeEach(() => {
  server = makeTmuxServer();
  home = mkdtempSync(join(tmpdir(), 'lmx-home-'));
  writeFileSync(join(home, 'dump.mjs'), DUMP);
});

afterEach(async () => {
  for (const b of backends.splice(0)) await b.dispose();
  await server.kill();
  rmSync(home, { recursive: true, force: true });
});

function backend(sessionId = newSessionId()): TmuxBackend {
  const b = new TmuxBackend({ sessionId, home, socket: server.socket });
  backends.push(b);
  return b;
}

async function waitFor(path: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pwned = join(tmpdir(), `lmx-pwned-${process.pid}`);
const HOSTILE_ARGS = [
  `$(touch ${pwned})`, `\`touch ${pwned}\``, 'two words', "it's", '"dq"', 'x;', '\\;', ';', '-n', '--', '#{session_name}', '%s',
  'tab\there', '你好🚀', '', '*', '~',
];

describe('TmuxBackend launch', () => {
  it('passes hostile argv, env and cwd literally and refuses reserved env keys', async () => {
    const cwd = join(home, 'cwd #{session_name} $(x) it\'s');
    mkdirSync(cwd);
    const out = join(home, 'dump.json');
    const b = backend();
    const hostileEnv = `$(touch ${pwned}) \`id\` "q" 'q' #{session_name} x;`;
    const res = await b.start({
      argv: [process.execPath, join(home, 'dump.mjs'), out, ...HOSTILE_ARGS],
      cwd,
      env: { HOSTILE: hostileEnv, SEMI: ';', LARK_APP_SECRET: 'do-not-pass', LARKMUX_HOME: '/nope', TMUX: '/nope' },
      larkmuxEnv: { PATH: `/lmx bin:${process.env.PATH}`, 'BASH_FUNC_larkmux%%': `() { '/lmx bin/larkmux' "$@"; }` },
      cols: 100, rows: 30,
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.created).toBe(true);
    expect(res.value.warnings.join('\n')).toMatch(/LARK_APP_SECRET/);
    expect(res.value.warnings.join('\n')).toMatch(/LARKMUX_HOME/);
    expect(res.value.warnings.join('\n')).not.toContain('do-not-pass');
    await waitFor(out);
    const dump = JSON.parse(readFileSync(out, 'utf8'));
    expect(dump.args).toEqual(HOSTILE_ARGS);
    expect(dump.cwd).toBe(cwd);
    expect(dump.hostile).toBe(hostileEnv);
    expect(dump.semi).toBe(';');
    expect(dump.secret).toBeNull();
    expect(dump.home).toBeNull();
    // tmux sets TMUX and TMUX_PANE for every process it starts: the CLI gets neither (issue 31 item 6).
    expect(dump.tmux).toBeNull();
    expect(dump.tmuxPane).toBeNull();
    // larkmux's own additions pass, including the one sh cannot export (bash's `larkmux` function).
    expect(dump.path).toBe(`/lmx bin:${process.env.PATH}`);
    expect(dump.fn).toBe(`() { '/lmx bin/larkmux' "$@"; }`);
    expect(existsSync(pwned)).toBe(false);
    // The env went to that pane's process only, not to the server's global environment.
    const globalEnv = await server.run(['show-environment', '-g']);
    expect(globalEnv.stdout).not.toContain('HOSTILE');
  });

  it('runs a lone program path literally, even one with spaces and shell syntax in it', async () => {
    const dir = join(home, "odd dir $(touch lmx-pwned) `touch lmx-pwned` 'q'");
    mkdirSync(dir);
    const prog = join(dir, 'prog.sh');
    writeFileSync(prog, '#!/bin/sh\ntouch "$(dirname "$0")/ran"\nexec sleep 60\n');
    chmodSync(prog, 0o755);
    const res = await backend().start({ argv: [prog], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(res.ok).toBe(true);
    await waitFor(join(dir, 'ran'));
    expect(existsSync(join(home, 'lmx-pwned'))).toBe(false);
  });

  it('starts the server with the options the CLIs ask for (focus-events on), set before the CLI can ask', async () => {
    // What Claude Code runs at start (`tmux show -gv focus-events`), from the pane's first command.
    const out = join(home, 'focus.txt');
    const probe = `tmux -L '${server.socket}' show -gv focus-events > '${out}.tmp'; mv '${out}.tmp' '${out}'; exec sleep 60`;
    const res = await backend().start({ argv: ['sh', '-c', probe], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(res.ok).toBe(true);
    await waitFor(out);
    expect(readFileSync(out, 'utf8').trim()).toBe('on');
    expect((await server.run(['show-options', '-sv', 'focus-events'])).stdout.trim()).toBe('on');
  });

  it('keeps a CLI that exits at once as lmx-diag-<id>, with a clear error and no live-named session', async () => {
    const id = newSessionId();
    // The CLI lives 0.1 s after its last words, well inside the launch grace. One that exits in the same instant can
    // lose them under load: tmux closed the dead pane's pty before it had read the CLI's last write (seen once in a
    // full suite on two cores: the message held only "Pane is dead (status 7, …)"), which the backend cannot undo.
    const res = await backend(id).start({ argv: ['sh', '-c', 'echo "fatal: no API key configured"; sleep 0.1; exit 7'], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.code).toBe('launch_exited');
    expect(res.message).toContain('fatal: no API key configured');
    expect(res.message).toContain(tmuxDiagName(id));
    expect(res.message).toContain('status 7');
    expect((await server.run(['has-session', '-t', `=${tmuxSessionName(id)}`])).code).not.toBe(0);
    expect((await server.run(['has-session', '-t', `=${tmuxDiagName(id)}`])).code).toBe(0);
    // A later good launch gets the live name back.
    const again = await backend(id).start({ argv: ['sleep', '60'], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(again).toMatchObject({ ok: true, value: { created: true, name: tmuxSessionName(id) } });
  });

  it('re-attaches to an existing session instead of launching a second CLI', async () => {
    const id = newSessionId();
    const first = backend(id);
    const launched = await first.start({ argv: ['sleep', '60'], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(launched).toMatchObject({ ok: true, value: { created: true } });
    // A launch has no age to report: the gate's full settle applies.
    expect(launched.ok && launched.value.runningForMs).toBeUndefined();
    const pid = await first.probe();
    await first.detach();
    // tmux counts session age in whole seconds: cross one boundary at least.
    await new Promise((r) => setTimeout(r, 2_100));
    const second = backend(id);
    const attached = await second.start({ argv: ['sleep', '61'], cwd: home, env: {}, cols: 80, rows: 24 });
    expect(attached).toMatchObject({ ok: true, value: { created: false } });
    // The re-attached CLI's age (for the readiness gate: a CLI past its start-up needs no long settle).
    const age = attached.ok ? attached.value.runningForMs : undefined;
    expect(age).toBeGreaterThanOrEqual(1_000);
    expect(age).toBeLessThan(60_000);
    // And its foreground (issue 32 item 7: a program other than the shell takes keys at once): sleep, no alternate screen.
    expect(attached.ok && attached.value.foreground).toEqual({ alternateScreen: false, command: 'sleep' });
    expect(await second.probe()).toEqual(pid);
    const sessions = await server.run(['list-sessions', '-F', '#{session_name}']);
    expect(sessions.stdout.trim().split('\n')).toEqual([tmuxSessionName(id)]);
  });

  it('reports missing without a launch spec, and kill ends the session', async () => {
    const b = backend();
    expect(await b.start()).toMatchObject({ ok: false, code: 'missing' });
    expect(await b.probe()).toEqual({ state: 'missing' });
    expect(await b.start({ argv: ['sleep', '60'], cwd: home, env: {}, cols: 80, rows: 24 })).toMatchObject({ ok: true });
    expect(await b.probe()).toMatchObject({ state: 'exists', paneDead: false });
    expect(await b.resize(100, 30)).toMatchObject({ ok: true });
    expect((await server.run(['display-message', '-p', '-t', `=${b.name}:`, '#{window_width}x#{window_height}'])).stdout.trim()).toBe('100x30');
    expect(await b.kill()).toMatchObject({ ok: true });
    expect(await b.probe()).toEqual({ state: 'missing' });
    expect(await b.kill()).toMatchObject({ ok: true });
  });

  it('says unknown, not missing, when tmux cannot be run', async () => {
    const { TmuxClient } = await import('../../src/worker/backend/tmux-client.js');
    const b = new TmuxBackend({ sessionId: newSessionId(), home, client: new TmuxClient({ socket: server.socket, binary: join(home, 'no-such-tmux') }) });
    backends.push(b);
    expect(await b.probe()).toMatchObject({ state: 'unknown' });
    expect(await b.start({ argv: ['sleep', '1'], cwd: home, env: {}, cols: 80, rows: 24 })).toMatchObject({ ok: false, code: 'tmux_unavailable' });
  });
});
