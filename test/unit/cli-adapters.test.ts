// Adapter decisions besides classification: choice keys, safe startup defaults, launch argv, seeding, shell and custom.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paneHint } from '../../src/worker/cli/pane-hint.js';
import { adapterFor, cliIdOf } from '../../src/worker/cli/registry.js';
import { safeDefaultIndex } from '../../src/worker/cli/screen.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import { shellOutputSince } from '../../src/worker/cli/shell.js';
import type { CliAdapter, KeyStep, SelectionState } from '../../src/worker/cli/types.js';

const DIR = join(import.meta.dirname, '../fixtures/screens');

function adapter(id: 'claude-code' | 'codex' | 'gemini' | 'shell'): CliAdapter {
  const r = adapterFor(id);
  if (!r.ok) throw new Error(r.message);
  return r.adapter;
}

function selectionOf(a: CliAdapter, fixture: string): SelectionState {
  const s = a.classify(readFileSync(join(DIR, fixture), 'utf8'));
  if (s.kind !== 'selection') throw new Error(`${fixture} is ${s.kind}, not a selection`);
  return s;
}

describe('choiceKeys and safe defaults per dialog', () => {
  const cases: Array<[string, 'claude-code' | 'codex' | 'gemini', string, number | null, KeyStep[] /* keys for the safe default or option 0 */]> = [
    // fixture, cli, what, safe default index (null = a person must answer), keys for that choice
    ['claude-01-onboarding-theme.txt', 'claude-code', 'theme → Enter on the preselected Auto', 0, [{ key: 'enter' }]],
    ['claude-02-onboarding-after-theme.txt', 'claude-code', 'security notes → Enter', 0, [{ key: 'enter' }]],
    ['claude-03-onboarding-after-security.txt', 'claude-code', 'trust → Down, Enter (not the preselected "No, exit"; digits do nothing)', 1, [{ key: 'down' }, { key: 'enter' }]],
    ['claude-11-apikey-confirm.txt', 'claude-code', 'API key → Up, Enter to "Yes"', 0, [{ key: 'up' }, { key: 'enter' }]],
    ['claude-23-resume-bypass.txt', 'claude-code', 'bypass warning → a person decides', null, []],
    ['claude-14-permission-prompt.txt', 'claude-code', 'permission → a person decides', null, []],
    ['codex-10-trust-git.txt', 'codex', 'trust → Enter', 0, [{ key: 'enter' }]],
    ['codex-00-no-config-first-run.txt', 'codex', 'sign-in → a person decides', null, []],
    ['gemini-01-first-screen.txt', 'gemini', 'trust → Enter on "Trust folder"', 0, [{ key: 'enter' }]],
    ['gemini-02-after-trust.txt', 'gemini', 'auth → Enter on the preselected API key', 1, [{ key: 'enter' }]],
    ['gemini-03-after-auth.txt', 'gemini', 'API key box → Enter', 0, [{ key: 'enter' }]],
  ];
  for (const [fixture, cli, what, index, keys] of cases) {
    it(`${cli}: ${what}`, () => {
      const a = adapter(cli);
      const sel = selectionOf(a, fixture);
      const d = safeDefaultIndex(sel, a.startupDefaults);
      expect(d?.index ?? null).toBe(index);
      if (index !== null) expect(a.choiceKeys(sel, index)).toEqual(keys);
    });
  }

  it('Claude permission options are picked by their digit', () => {
    const a = adapter('claude-code');
    const sel = selectionOf(a, 'claude-14-permission-prompt.txt');
    expect(a.choiceKeys(sel, 0)).toEqual([{ text: '1' }]);
    expect(a.choiceKeys(sel, 3)).toEqual([{ text: '4' }]);
  });
  it('Codex approval options use the key named in the label; "No" is Esc', () => {
    const a = adapter('codex');
    const sel = selectionOf(a, 'codex-12-approval-prompt.txt');
    expect(a.choiceKeys(sel, 0)).toEqual([{ text: 'y' }]);
    expect(a.choiceKeys(sel, 1)).toEqual([{ text: 'p' }]);
    expect(a.choiceKeys(sel, 2)).toEqual([{ key: 'esc' }]);
  });
  it('Gemini permission options are reached with arrows from the highlighted one', () => {
    const a = adapter('gemini');
    const sel = selectionOf(a, 'gemini-07-permission.txt');
    expect(a.choiceKeys(sel, 0)).toEqual([{ key: 'enter' }]);
    expect(a.choiceKeys(sel, 2)).toEqual([{ key: 'down' }, { key: 'down' }, { key: 'enter' }]);
  });
});

describe('Gemini restarting after the trust answer', () => {
  it('counts as exited so the caller starts it again', () => {
    const screen = readFileSync(join(DIR, 'gemini-01-first-screen.txt'), 'utf8') + '\n Gemini CLI is restarting to apply the trust changes...\n';
    expect(adapter('gemini').classify(screen).kind).toBe('exited');
  });
});

describe('launch argv', () => {
  const base = { cwd: '/w', home: '/h', botEnv: { FOO: 'bar' } };
  it.each([
    ['claude-code', { mode: 'new', nativeSessionId: 'u-1' }, ['claude', '--session-id', 'u-1']],
    ['claude-code', { mode: 'resume', nativeSessionId: 'u-1' }, ['claude', '--resume', 'u-1']],
    ['codex', { mode: 'new' }, ['codex', '--no-daemon']],
    ['codex', { mode: 'resume', nativeSessionId: 't-1', extraArgs: ['-a', 'on-request'] }, ['codex', 'resume', '--no-daemon', '-a', 'on-request', 't-1']],
    ['gemini', { mode: 'new', nativeSessionId: 'g-1', command: ['node', '/x/gemini.js'] }, ['node', '/x/gemini.js', '--session-id', 'g-1']],
    ['gemini', { mode: 'resume', nativeSessionId: 'g-1' }, ['gemini', '--resume', 'g-1']],
    ['shell', { mode: 'new' }, ['/bin/bash', '-l']],
  ] as const)('%s %o', (id, extra, argv) => {
    const spec = adapter(id).launch({ ...base, ...extra });
    expect(spec.argv).toEqual(argv);
    expect(spec.env.HOME).toBe('/h');
    expect(spec.env.FOO).toBe('bar');
  });
  it('Claude and Codex are told how to send files into the chat; the hint is one argv element, never shell text', () => {
    const hint = paneHint();
    // Plain `larkmux`: the pane's PATH (and bash function) find this installation (shared/pane-command.ts).
    expect(hint).toContain('`larkmux send <path>…`');
    const claude = adapter('claude-code').launch({ ...base, mode: 'resume', nativeSessionId: 'u-1', paneHint: hint }).argv;
    expect(claude.slice(claude.indexOf('--append-system-prompt'), claude.indexOf('--append-system-prompt') + 2)).toEqual(['--append-system-prompt', hint]);
    const codex = adapter('codex').launch({ ...base, mode: 'resume', nativeSessionId: 't-1', paneHint: hint }).argv;
    expect(codex.slice(0, 3)).toEqual(['codex', '-c', `developer_instructions=${JSON.stringify(hint)}`]);
    expect(codex.slice(3)).toEqual(['resume', '--no-daemon', 't-1']);
  });
  it('Gemini runs as one process (no self-relaunch that outlives tmux)', () => {
    expect(adapter('gemini').launch({ ...base, mode: 'new' }).env.GEMINI_CLI_NO_RELAUNCH).toBe('true');
  });
});

describe('registry', () => {
  it('maps every known id and a custom spec', () => {
    for (const id of ['claude-code', 'codex', 'gemini', 'shell'] as const) expect(adapterFor(id).ok && cliIdOf(id)).toBe(id);
    const custom = adapterFor({ command: 'htop', args: [], readyPattern: 'Tasks:', busyPattern: 'Loading' });
    expect(custom.ok && custom.adapter.id).toBe('custom');
  });
  it('a custom spec with a broken regex is a result, not a throw', () => {
    const r = adapterFor({ command: 'x', args: [], readyPattern: '(' });
    expect(r).toMatchObject({ ok: false, code: 'bad_pattern' });
  });
  it('custom classification follows the configured patterns', () => {
    const r = adapterFor({ command: 'x', args: ['-v'], readyPattern: '^READY>', busyPattern: 'working\\.\\.\\.' });
    if (!r.ok) throw new Error('bad');
    expect(r.adapter.classify('hello\nREADY> ')).toEqual({ kind: 'ready' });
    expect(r.adapter.classify('working...\nREADY> ')).toEqual({ kind: 'busy' });
    expect(r.adapter.classify('boot')).toEqual({ kind: 'unknown' });
    expect(r.adapter.launch({ cwd: '/', home: '/h', mode: 'new', botEnv: {} }).argv).toEqual(['x', '-v']);
  });
});

describe('shell adapter', () => {
  const a = adapter('shell');
  it.each([
    ['user@box:~$ ', 'ready', ''],
    ['user@box:~$ sleep 10', 'busy', 'sleep 10'],
    ['root@box:/# ', 'ready', ''],
    ['building...\ncompiling foo.c', 'busy', null],
    ['Pane is dead (status 0, Mon Nov 30 08:01:08 2026)', 'exited', null],
  ] as const)('%j → %s', (screen, kind, composer) => {
    expect(a.classify(screen).kind).toBe(kind);
    expect(a.composerText(screen)).toBe(composer);
  });
  it('final output is the pane lines between the command and the prompt that came back', () => {
    const screen = 'u@h:~$ ls\nold\nu@h:~$ echo one; echo two\none\ntwo\nu@h:~$ \n\n';
    expect(shellOutputSince(screen, 'echo one; echo two')).toBe('one\ntwo');
    expect(shellOutputSince(screen, 'not there')).toBeNull();
  });
});

describe('seeding', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  it('Claude: merges into an existing ~/.claude.json, keeping the user\'s keys and other projects', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-seed-'));
    writeFileSync(join(dir, '.claude.json'), JSON.stringify({ theme: 'dark', projects: { '/other': { x: 1 } } }));
    const files = adapter('claude-code').seedFiles({ cwd: '/w', home: dir, env: { ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdefghijklmnop' } });
    expect(await applySeedFiles(files)).toMatchObject({ ok: true });
    const state = JSON.parse(readFileSync(join(dir, '.claude.json'), 'utf8'));
    expect(state).toMatchObject({
      theme: 'dark', hasCompletedOnboarding: true,
      projects: { '/other': { x: 1 }, '/w': { hasTrustDialogAccepted: true } },
      customApiKeyResponses: { approved: ['6789abcdefghijklmnop'] },
    });
  });
  it('Codex: appends the trust table once to an existing config.toml', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-seed-'));
    writeFileSync(join(dir, 'config.toml'), 'model = "o3"\n');
    const files = adapter('codex').seedFiles({ cwd: '/w', home: dir, codexHome: dir });
    await applySeedFiles(files);
    await applySeedFiles(files);
    const toml = readFileSync(join(dir, 'config.toml'), 'utf8');
    expect(toml.startsWith('model = "o3"\n')).toBe(true);
    expect(toml.split('[projects."/w"]').length).toBe(2);
  });
  it('a corrupt JSON file is reported, not overwritten', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-seed-'));
    writeFileSync(join(dir, '.claude.json'), '{oops');
    const r = await applySeedFiles(adapter('claude-code').seedFiles({ cwd: '/w', home: dir }));
    expect(r).toMatchObject({ ok: false, code: 'seed_failed' });
    expect(readFileSync(join(dir, '.claude.json'), 'utf8')).toBe('{oops');
  });
});
