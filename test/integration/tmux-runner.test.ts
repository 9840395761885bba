// The one tmux runner (src/platform/tmux-runner.ts) against a real, isolated tmux server: hostile arguments arrive
// literally, failures come back as one result type with a code, and a server it starts gets the env policy only.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { listTmuxSessions, killTmuxSessions } from '../../src/platform/tmux-sessions.js';
import { listPanes } from '../../src/platform/tmux-panes.js';
import { linkPane, scanAdoptable } from '../../src/platform/adoptable-panes.js';
import type { AdoptCandidate } from '../../src/shared/adopt-candidates.js';
import { runTmux, runTmuxChain, tmuxArgv, TmuxLauncher } from '../../src/platform/tmux-runner.js';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { execTmuxRunner } from '../../src/worker/webterm/tmux-pane.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { makeTmuxShim } from '../support/tmux-shim.js';
import { tempDir } from '../support/worker-session.js';
import { procState } from '../../src/platform/proc-stat.js';

let tmux: TestTmuxServer;
beforeEach(() => {
  tmux = makeTmuxServer();
});
afterEach(async () => {
  await tmux.kill();
});

const HOSTILE = ['ends in ;', 'two;;', '$(touch /tmp/lmx-pwned) `id` ${HOME}', "it's \"quoted\"", '中文 🙂 emoji', '#{session_name} ##', 'C-c', '-t', '\\;'];

describe('tmuxArgv', () => {
  it('always asks for a UTF-8 client (-u), adds -L only with a socket, joins a chain with tmux\'s own ";", escapes a trailing ";" in an argument', () => {
    expect(tmuxArgv(null, [['list-sessions']])).toEqual(['-u', 'list-sessions']);
    expect(tmuxArgv('s', [['a', 'x;'], ['b']])).toEqual(['-u', '-L', 's', 'a', 'x\\;', ';', 'b']);
  });
});

describe('runTmux on a real server', () => {
  it('a tab-separated pane list keeps its tabs when the environment has no UTF-8 locale (a host\'s ssh session)', async () => {
    await tmux.run(['new-session', '-d', '-s', 'plain', '-x', '80', '-y', '24']);
    const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL, LC_CTYPE: process.env.LC_CTYPE };
    for (const k of Object.keys(saved)) delete process.env[k];
    try {
      const res = await runTmux(['list-panes', '-t', 'plain', '-F', '#{session_name}\t#{pane_id}'], { socket: tmux.socket });
      expect(res.ok && res.stdout).toMatch(/^plain\t%\d+\n$/);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    }
  });

  it('every hostile argument arrives literally (set-buffer, then show-buffer)', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main', '-x', '80', '-y', '24']);
    for (const text of HOSTILE) {
      expect(await runTmux(['set-buffer', '-b', 'b', '--', text], { socket: tmux.socket })).toEqual({ ok: true, stdout: '' });
      expect(await runTmux(['show-buffer', '-b', 'b'], { socket: tmux.socket })).toEqual({ ok: true, stdout: text });
    }
  });

  it('stdin input reaches load-buffer - byte for byte (100 KB of CJK)', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const big = '长文本'.repeat(12_000);
    expect((await runTmux(['load-buffer', '-b', 'big', '-'], { socket: tmux.socket, input: big })).ok).toBe(true);
    expect(await runTmux(['show-buffer', '-b', 'big'], { socket: tmux.socket })).toEqual({ ok: true, stdout: big });
  });

  it('a chain runs in order in one invocation', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const res = await runTmuxChain([['set-buffer', '-b', 'c', 'one;'], ['show-buffer', '-b', 'c']], { socket: tmux.socket });
    expect(res).toEqual({ ok: true, stdout: 'one;' });
  });

  it('failures are values with a code: no server, no such session, no tmux binary', async () => {
    expect(await runTmux(['list-sessions'], { socket: tmux.socket })).toMatchObject({ ok: false, code: 'no_server' });
    await tmux.run(['new-session', '-d', '-s', 'main']);
    expect(await runTmux(['kill-session', '-t', '=nope'], { socket: tmux.socket })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await runTmux(['-V'], { socket: null, binary: 'tmux-not-installed-here' })).toMatchObject({ ok: false, code: 'tmux_missing' });
  });

  it('a server it starts gets the env policy: inherited names yes, larkmux settings and secrets no', async () => {
    const saved = { ...process.env };
    process.env.LARKMUX_HOME = '/should/not/leak';
    process.env.LARK_APP_SECRET = 'secret-value-never-in-tmux';
    process.env.OPENAI_API_KEY = 'sk-never-in-tmux';
    try {
      expect((await runTmux(['new-session', '-d', '-s', 'env'], { socket: tmux.socket })).ok).toBe(true);
    } finally {
      for (const k of ['LARKMUX_HOME', 'LARK_APP_SECRET', 'OPENAI_API_KEY']) delete process.env[k];
      Object.assign(process.env, saved);
    }
    const env = await runTmux(['show-environment', '-g'], { socket: tmux.socket });
    expect(env.ok).toBe(true);
    if (!env.ok) return;
    expect(env.stdout).toMatch(/^PATH=/m);
    expect(env.stdout).not.toMatch(/LARKMUX_HOME|LARK_APP_SECRET|OPENAI_API_KEY|never-in-tmux/);
  });
});

describe('every caller goes through it (one result type)', () => {
  it('the daemon: sessions and panes listed, sessions killed; an absent server has none', async () => {
    expect(await listTmuxSessions(tmux.socket)).toEqual({ ok: true, names: [] });
    expect(await listPanes(tmux.socket)).toEqual({ ok: true, panes: [] });
    await tmux.run(['new-session', '-d', '-s', 'lmx-0123abcd']);
    await tmux.run(['new-session', '-d', '-s', 'odd;name']);
    expect(await listTmuxSessions(tmux.socket)).toEqual({ ok: true, names: expect.arrayContaining(['lmx-0123abcd', 'odd;name']) });
    const panes = await listPanes(tmux.socket);
    expect(panes.ok && panes.panes.length).toBe(2);
    // A session name ending in ";" is one argument, not a command separator.
    expect(await killTmuxSessions(tmux.socket, ['odd;name'])).toEqual(['odd;name']);
    expect(await listTmuxSessions(tmux.socket)).toEqual({ ok: true, names: ['lmx-0123abcd'] });
  });

  it('the daemon\'s /adopt: an absent server has nothing to adopt; a link failure comes back as tmux\'s words and is undone', async () => {
    const cli = { command: 'claude', args: [] } as unknown as Parameters<typeof scanAdoptable>[1];
    expect(await scanAdoptable(tmux.socket, cli)).toEqual({ ok: true, candidates: [], notAdoptable: [] });
    await tmux.run(['new-session', '-d', '-s', 'own']);
    const windowId = (await tmux.run(['display-message', '-p', '-t', 'own', '#{window_id}'])).stdout.trim();
    expect(await linkPane(tmux.socket, 'lmx-0123abcd', { windowId } as AdoptCandidate)).toEqual({ ok: true });
    expect((await tmux.run(['display-message', '-p', '-t', '=lmx-0123abcd:', '#{window_id}'])).stdout.trim()).toBe(windowId);
    const failed = await linkPane(tmux.socket, 'lmx-89abcdef', { windowId: '@999' } as AdoptCandidate);
    expect(failed).toMatchObject({ ok: false, message: expect.stringMatching(/can't find window/) });
    expect(await listTmuxSessions(tmux.socket)).toEqual({ ok: true, names: expect.not.arrayContaining(['lmx-89abcdef']) });
  });

  it('the worker: the capture runner and the web terminal read the same server, with the same failure codes', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const exec = new TmuxExecRunner({ socket: tmux.socket });
    expect(await exec.run(['list-sessions', '-F', '#{session_name};'])).toEqual({ ok: true, lines: ['main;'] });
    expect(await exec.run(['kill-session', '-t', '=nope'])).toMatchObject({ ok: false, code: 'not_found' });
    const web = execTmuxRunner(tmux.socket);
    expect(await web(['list-sessions', '-F', '#{session_name}'])).toEqual({ ok: true, stdout: 'main\n' });
    expect(await web(['kill-session', '-t', '=nope'])).toMatchObject({ ok: false, code: 'not_found' });
    // A bare ";" argument is tmux's separator, as the web terminal's confine step uses it; a trailing one stays literal.
    expect(await web(['set-buffer', '-b', 'w', 'a;', ';', 'show-buffer', '-b', 'w'])).toEqual({ ok: true, stdout: 'a;' });
  });

  it('the worker\'s exec runner runs several commands in one tmux process, split exactly, and fails them together', async () => {
    // The pane prints a line that looks like the split marker: a fresh nonce per call means pane text cannot split it.
    await tmux.run(['new-session', '-d', '-s', 'cap', '-x', '60', '-y', '6', "printf 'larkmux-split-0000\\n\\nend\\n'; sleep 30"]);
    const exec = new TmuxExecRunner({ socket: tmux.socket });
    let alone = await exec.run(['capture-pane', '-p', '-t', 'cap']);
    for (let i = 0; i < 50 && !(alone.ok && alone.lines.includes('end')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      alone = await exec.run(['capture-pane', '-p', '-t', 'cap']);
    }
    expect(alone).toEqual({ ok: true, lines: ['larkmux-split-0000', '', 'end', '', '', ''] });
    const shim = makeTmuxShim();
    try {
      const many = await new TmuxExecRunner({ socket: tmux.socket, tmuxBin: join(shim.binDir, 'tmux') }).runMany([
        ['capture-pane', '-p', '-t', 'cap'],
        ['set-buffer', '-b', 'quiet', 'x'],
        ['display-message', '-p', '-t', 'cap', '#{pane_width}x#{pane_height}'],
      ]);
      expect(many).toEqual([alone, { ok: true, lines: [] }, { ok: true, lines: ['60x6'] }]);
      expect(shim.calls()).toHaveLength(1);
    } finally {
      shim.remove();
    }
    const failed = await exec.runMany([['display-message', '-p', 'first'], ['capture-pane', '-p', '-t', '=nope']]);
    expect(failed).toHaveLength(2);
    for (const r of failed) expect(r).toMatchObject({ ok: false, code: 'not_found', message: expect.stringMatching(/can't find/) });
  });
});

describe('the launcher: a long-lived shell that starts the worker\'s tmux clients', () => {
  let launcher: TmuxLauncher;
  beforeEach(() => { launcher = new TmuxLauncher(); });
  afterEach(() => launcher.dispose());

  /** A program that logs its parent pid and its arguments (one per line), then runs the real tmux. */
  function parentLoggingTmux(): { bin: string; parents: () => number[]; remove: () => void } {
    const shim = makeTmuxShim();
    const log = join(shim.binDir, 'parents.log');
    const bin = join(shim.binDir, 'tmux-parent');
    writeFileSync(bin, `#!/bin/sh\necho "$PPID" >> '${log}'\nexec tmux "$@"\n`);
    chmodSync(bin, 0o755);
    writeFileSync(log, '');
    return { bin, parents: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number), remove: shim.remove };
  }

  it('hostile, empty and space-edged arguments arrive literally, each started by the same shell', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const logged = parentLoggingTmux();
    onTestFinished(logged.remove);
    const opts = { socket: tmux.socket, launcher, binary: logged.bin };
    for (const text of [...HOSTILE, '  spaces both ends  ', 'back\\slash \\n not a break', '-n', '\t tab']) {
      expect(await runTmux(['set-buffer', '-b', 'b', '--', text], opts)).toEqual({ ok: true, stdout: '' });
      expect(await runTmux(['show-buffer', '-b', 'b'], opts)).toEqual({ ok: true, stdout: text });
    }
    const parents = logged.parents();
    expect(parents).toHaveLength(2 * (HOSTILE.length + 4));
    expect(new Set(parents)).toEqual(new Set([launcher.pid]));
  });

  it('the program gets exactly the argv (empty arguments too), and output with NUL bytes or a lookalike mark comes back whole', async () => {
    const dir = tempDir('lmx-args-');
    onTestFinished(dir.remove);
    const echo = join(dir.dir, 'args-echo');
    writeFileSync(echo, `#!/bin/sh\nfor a; do printf '[%s]\\n' "$a"; done\nprintf 'nul\\000byte larkmux-launch-0123 0\\n'\nprintf 'to stderr\\000\\n' >&2\nexit 3\n`);
    chmodSync(echo, 0o755);
    const args = ['', 'a b', ' ', '$(id)', "'", '"', '\\', '中文 🙂', '-', ';'];
    const res = await runTmux(args, { socket: null, launcher, binary: echo });
    expect(res).toEqual({ ok: false, code: 'tmux_error', message: 'to stderr\0' });
    const ok = await runTmux(args, { socket: 'sock', launcher, binary: join(dir.dir, 'args-echo-ok') });
    expect(ok).toMatchObject({ ok: false, code: 'tmux_missing' });
    writeFileSync(join(dir.dir, 'args-echo-ok'), `#!/bin/sh\nfor a; do printf '[%s]\\n' "$a"; done\nprintf 'nul\\000byte larkmux-launch-0123 0\\n'\n`);
    chmodSync(join(dir.dir, 'args-echo-ok'), 0o755);
    expect(await runTmux(args, { socket: 'sock', launcher, binary: join(dir.dir, 'args-echo-ok') })).toEqual({
      ok: true,
      stdout: `${['-u', '-L', 'sock', ...args.map((a) => (a === ';' ? '\\;' : a))].map((a) => `[${a}]\n`).join('')}nul\0byte larkmux-launch-0123 0\n`,
    });
  });

  it('the worker\'s capture runner starts its tmux clients from one shell, not by forking the worker', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main', '-x', '40', '-y', '5']);
    const logged = parentLoggingTmux();
    onTestFinished(logged.remove);
    const runner = new TmuxExecRunner({ socket: tmux.socket, tmuxBin: logged.bin });
    onTestFinished(() => runner.dispose());
    for (let i = 0; i < 3; i++) {
      const [cap, size] = await runner.runMany([['capture-pane', '-p', '-t', 'main'], ['display-message', '-p', '-t', 'main', '#{pane_width}x#{pane_height}']]);
      expect(cap).toMatchObject({ ok: true, lines: expect.any(Array) });
      expect(size).toEqual({ ok: true, lines: ['40x5'] });
    }
    const parents = logged.parents();
    expect(parents).toHaveLength(3);
    expect(new Set(parents).size).toBe(1);
    expect(parents[0]).not.toBe(process.pid);
  });

  it('an argument with a line break, or stdin input, runs as its own process and arrives intact', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const logged = parentLoggingTmux();
    onTestFinished(logged.remove);
    const opts = { socket: tmux.socket, launcher, binary: logged.bin };
    expect(await runTmux(['set-buffer', '-b', 'b', '--', 'line one\nline two\r\n'], opts)).toEqual({ ok: true, stdout: '' });
    expect(await runTmux(['load-buffer', '-b', 'c', '-'], { ...opts, input: '粘贴\n$(id)\n' })).toEqual({ ok: true, stdout: '' });
    expect(await runTmux(['show-buffer', '-b', 'b'], opts)).toEqual({ ok: true, stdout: 'line one\nline two\r\n' });
    expect(await runTmux(['show-buffer', '-b', 'c'], opts)).toEqual({ ok: true, stdout: '粘贴\n$(id)\n' });
    const parents = logged.parents();
    expect(parents.slice(0, 2)).not.toContain(launcher.pid);
    expect(parents.slice(2)).toEqual([launcher.pid, launcher.pid]);
  });

  it('fails with the same codes as a process of its own: no server, no such session, no tmux binary', async () => {
    expect(await runTmux(['list-sessions'], { socket: tmux.socket, launcher })).toMatchObject({ ok: false, code: 'no_server' });
    await tmux.run(['new-session', '-d', '-s', 'main']);
    expect(await runTmux(['kill-session', '-t', '=nope'], { socket: tmux.socket, launcher })).toMatchObject({ ok: false, code: 'not_found', message: expect.stringMatching(/can't find session/) });
    expect(await runTmux(['-V'], { socket: null, launcher, binary: 'tmux-not-installed-here' })).toEqual({ ok: false, code: 'tmux_missing', message: 'tmux-not-installed-here is not installed or not on PATH' });
    expect(await runTmux(['list-sessions', '-F', '#{session_name}'], { socket: tmux.socket, launcher })).toEqual({ ok: true, stdout: 'main\n' });
  });

  it('a client that does not answer in time is killed with its shell, and the next call starts a new shell', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const dir = tempDir('lmx-hung-tmux-');
    onTestFinished(dir.remove);
    const hung = join(dir.dir, 'tmux-hung');
    const pidFile = join(dir.dir, 'pid');
    writeFileSync(hung, `#!/bin/sh\necho $$ > '${pidFile}'\nsleep 30\n`);
    chmodSync(hung, 0o755);
    // 2 s: the client has long started (and written its pid) when it is found hung, even on a busy machine.
    const call = runTmux(['list-sessions'], { socket: tmux.socket, launcher, binary: hung, timeoutMs: 2_000 });
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), { timeout: 5_000 }).toBe(true);
    expect(await call).toEqual({ ok: false, code: 'timeout', message: 'tmux list-sessions did not answer within 2000 ms' });
    const client = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(client), { timeout: 5_000 }).toBe(false);
    expect(launcher.pid).toBeUndefined();
    expect(await runTmux(['list-sessions', '-F', '#{session_name}'], { socket: tmux.socket, launcher })).toEqual({ ok: true, stdout: 'main\n' });
    expect(launcher.pid).toBeGreaterThan(0);
  });

  it('a client that writes more than 64 MB fails as a tmux error on either path (not as one that did not answer)', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const dir = tempDir('lmx-flood-tmux-');
    onTestFinished(dir.remove);
    const flood = join(dir.dir, 'tmux-flood');
    writeFileSync(flood, '#!/bin/sh\nexec head -c 70000000 /dev/zero\n');
    chmodSync(flood, 0o755);
    const expected = { ok: false, code: 'tmux_error', message: 'tmux capture-pane wrote more than 64 MB' };
    const args = ['capture-pane', '-p', '-S', '-'];
    expect(await runTmux(args, { socket: tmux.socket, binary: flood, timeoutMs: 30_000 })).toEqual(expected);
    expect(await runTmux(args, { socket: tmux.socket, launcher, binary: flood, timeoutMs: 30_000 })).toEqual(expected);
    // The flood was killed with its shell; the next call starts another and is answered.
    expect(launcher.pid).toBeUndefined();
    expect(await runTmux(['list-sessions', '-F', '#{session_name}'], { socket: tmux.socket, launcher })).toEqual({ ok: true, stdout: 'main\n' });
  });

  it('a shell that died between calls is replaced; one that dies during a call fails that call, which is not run twice', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main']);
    const dir = tempDir('lmx-lost-tmux-');
    onTestFinished(dir.remove);
    const opts = { socket: tmux.socket, launcher };
    expect(await runTmux(['display-message', '-p', 'first'], opts)).toEqual({ ok: true, stdout: 'first\n' });
    const first = launcher.pid!;
    process.kill(first, 'SIGKILL');
    await expect.poll(() => launcher.pid, { timeout: 5_000 }).toBeUndefined();
    expect(await runTmux(['display-message', '-p', 'second'], opts)).toEqual({ ok: true, stdout: 'second\n' });
    expect(launcher.pid).toBeGreaterThan(0);
    expect(launcher.pid).not.toBe(first);

    const slow = join(dir.dir, 'tmux-slow');
    const runs = join(dir.dir, 'runs');
    writeFileSync(slow, `#!/bin/sh\necho run >> '${runs}'\nsleep 30\n`);
    chmodSync(slow, 0o755);
    const during = runTmux(['send-keys', '-t', 'main', 'x'], { ...opts, binary: slow, timeoutMs: 20_000 });
    await expect.poll(() => (existsSync(runs) ? readFileSync(runs, 'utf8') : ''), { timeout: 5_000 }).toBe('run\n');
    process.kill(-launcher.pid!, 'SIGKILL');
    expect(await during).toEqual({ ok: false, code: 'tmux_error', message: 'the shell starting tmux send-keys exited before it answered' });
    expect(readFileSync(runs, 'utf8')).toBe('run\n');

    launcher.dispose();
    expect(await runTmux(['display-message', '-p', 'after dispose'], opts)).toEqual({ ok: true, stdout: 'after dispose\n' });
    expect(launcher.pid).toBeUndefined();
  });

  it('calls made at once are answered one by one, each with its own output; a long history comes back whole', async () => {
    await tmux.run(['new-session', '-d', '-s', 'main', '-x', '80', '-y', '24']);
    const opts = { socket: tmux.socket, launcher };
    const texts = Array.from({ length: 20 }, (_, i) => `buffer ${i} 中文 ${'x'.repeat(i * 100)}`);
    await Promise.all(texts.map((t, i) => runTmux(['set-buffer', '-b', `b${i}`, '--', t], opts)));
    expect(await Promise.all(texts.map((_, i) => runTmux(['show-buffer', '-b', `b${i}`], opts)))).toEqual(texts.map((t) => ({ ok: true, stdout: t })));
    // 1.2 MB: many reads of the shell's stdout before the status (stdin input goes around the launcher).
    const big = '长'.repeat(400_000);
    expect(await runTmux(['load-buffer', '-b', 'big', '-'], { ...opts, input: big })).toEqual({ ok: true, stdout: '' });
    expect(await runTmux(['show-buffer', '-b', 'big'], opts)).toEqual({ ok: true, stdout: big });
  });
});

/** A process that exists and is not a zombie (an orphan waits for whoever reaps it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return procState(pid) !== 'Z';
}
