// The one tmux runner (src/platform/tmux-runner.ts) against a real, isolated tmux server: hostile arguments arrive
// literally, failures come back as one result type with a code, and a server it starts gets the env policy only.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listTmuxSessions, killTmuxSessions } from '../../src/platform/tmux-sessions.js';
import { listPanes } from '../../src/platform/tmux-panes.js';
import { linkPane, scanAdoptable } from '../../src/platform/adoptable-panes.js';
import type { AdoptCandidate } from '../../src/shared/adopt-candidates.js';
import { runTmux, runTmuxChain, tmuxArgv } from '../../src/platform/tmux-runner.js';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { execTmuxRunner } from '../../src/worker/webterm/tmux-pane.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { makeTmuxShim } from '../support/tmux-shim.js';

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
