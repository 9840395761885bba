// The `larkmux` every pane finds (issue 32 item 2): a wrapper bound to one home and one installation, first on PATH and
// as a bash function, run for real by /bin/sh and bash with hostile paths; the launcher carries what sh cannot export.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { larkmuxPaths } from '../../src/platform/paths.js';
import { PANE_FUNCTION_VAR, paneCommandEnv, paneCommandScript, pathWithFirst } from '../../src/shared/pane-command.js';
import { writePaneCommand } from '../../src/platform/pane-command-file.js';
import { launcherArgv, splitByShellName } from '../../src/worker/backend/launch-file.js';

/** Stands in for bin/larkmux.js: prints the home it was given and its arguments. */
const FAKE_BIN = `process.stdout.write(JSON.stringify({ home: process.env.LARKMUX_HOME ?? null, args: process.argv.slice(2) }));`;
const HOSTILE = `it's "q" $(touch pwned) \`touch pwned\` ; #{x} 你好 🚀\nline2`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lmx-panecmd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pane command', () => {
  it.each([
    ['/a/bin', '/usr/bin:/bin', '/a/bin:/usr/bin:/bin'],
    ['/a/bin', '/usr/bin:/a/bin:/bin', '/a/bin:/usr/bin:/bin'],
    ['/a/bin', undefined, '/a/bin'],
    ['/a/bin', '::/usr/bin:', '/a/bin:/usr/bin'],
  ])('PATH with %s first, once, from %j', (first, path, expected) => {
    expect(pathWithFirst(first, path)).toBe(expected);
  });

  it('the daemon writes an executable wrapper (0755, atomically) that runs this installation against this home, whatever the caller exports', async () => {
    const home = join(dir, HOSTILE);
    mkdirSync(home);
    const bin = join(dir, `bin ${HOSTILE}.mjs`);
    writeFileSync(bin, FAKE_BIN);
    const paths = larkmuxPaths(home);
    await writePaneCommand(paths, { node: process.execPath, bin });
    await writePaneCommand(paths, { node: process.execPath, bin }); // a restart replaces it
    expect(statSync(paths.paneCommand).mode & 0o777).toBe(0o755);
    const out = execFileSync(paths.paneCommand, ['where', '--json', '$(id)'], { cwd: dir, env: { PATH: '/usr/bin:/bin', LARKMUX_HOME: '/somewhere/else' } }).toString();
    expect(JSON.parse(out)).toEqual({ home, args: ['where', '--json', '$(id)'] });
    expect(() => statSync(join(dir, 'pwned'))).toThrow();
    expect(paneCommandScript({ node: '/n', bin: '/b', home: '/h' })).toMatch(/^#!\/bin\/sh\n/);
  });

  it('in a login bash whose profile resets PATH, `larkmux` is still this wrapper (the exported function); a plain shell finds it on PATH', async () => {
    const home = join(dir, 'home');
    const bin = join(dir, 'bin.mjs');
    writeFileSync(bin, FAKE_BIN);
    const paths = larkmuxPaths(home);
    await writePaneCommand(paths, { node: process.execPath, bin });
    const env = { ...paneCommandEnv(paths.paneBin, paths.paneCommand, '/usr/bin:/bin'), HOME: dir };
    // What Debian's /etc/profile does to PATH, then the README's command typed literally.
    const profile = join(dir, '.bash_profile');
    writeFileSync(profile, 'PATH=/usr/bin:/bin\nexport PATH\n');
    const login = execFileSync('bash', ['-l', '-c', 'larkmux send "a b"'], { cwd: dir, env }).toString();
    expect(JSON.parse(login)).toEqual({ home, args: ['send', 'a b'] });
    const plain = execFileSync('/bin/sh', ['-c', 'command -v larkmux; larkmux where'], { cwd: dir, env }).toString();
    expect(plain.split('\n')[0]).toBe(paths.paneCommand);
    expect(JSON.parse(plain.split('\n')[1]!)).toEqual({ home, args: ['where'] });
  });

  it('the launcher exports what sh can and hands bash functions to env(1), except for a program path with "=" (env would take it for an assignment)', () => {
    const env = { PATH: '/p', [PANE_FUNCTION_VAR]: '() { /x "$@"; }' };
    expect(splitByShellName(env)).toEqual({ shell: { PATH: '/p' }, exported: { [PANE_FUNCTION_VAR]: '() { /x "$@"; }' } });
    const fn = `${PANE_FUNCTION_VAR}=() { /x "$@"; }`;
    expect(launcherArgv('/f', ['/usr/bin/claude', '-c'], { [PANE_FUNCTION_VAR]: '() { /x "$@"; }' }).slice(5)).toEqual(['/usr/bin/env', fn, '/usr/bin/claude', '-c']);
    expect(launcherArgv('/f', ['/opt/a=b/cli'], { [PANE_FUNCTION_VAR]: '() { /x "$@"; }' }).slice(5)).toEqual(['/opt/a=b/cli']);
  });

  it('the launched program gets the function (bash sees `larkmux`) and still runs when its path holds "="', () => {
    const file = () => {
      const f = join(dir, `launch-${Math.random()}.env`);
      writeFileSync(f, 'export PATH=/usr/bin:/bin\n', { mode: 0o600 });
      return f;
    };
    const viaEnv = { [PANE_FUNCTION_VAR]: '() { echo "fn:$*"; }' };
    const run = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { env: {} }).toString();
    expect(run(launcherArgv(file(), ['bash', '-c', 'larkmux a b'], viaEnv))).toBe('fn:a b\n');
    const odd = join(dir, 'a=b');
    mkdirSync(odd);
    const prog = join(odd, 'prog');
    writeFileSync(prog, `#!/bin/sh\nprintf '%s' "$1"\n`, { mode: 0o755 });
    expect(run(launcherArgv(file(), [prog, 'arg 1'], viaEnv))).toBe('arg 1');
  });
});
