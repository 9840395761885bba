// One decision names the larkmux command in every message (issue 32 item 9): `npx larkmux` under npm or when larkmux
// is not on PATH, `larkmux` when it is. Messages from different paths (status, doctor's console line) agree.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { larkmuxCommand } from '../../src/platform/larkmux-command.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

let home: TestHome | undefined;
let binDir: string | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
  if (binDir) rmSync(binDir, { recursive: true, force: true });
  binDir = undefined;
});

/** A folder holding an executable `larkmux`, as a global install or `npm link` leaves one. */
function installedBin(): string {
  binDir = mkdtempSync(join(tmpdir(), 'lmx-bin-'));
  const exe = join(binDir, 'larkmux');
  writeFileSync(exe, '#!/bin/sh\nexit 0\n');
  chmodSync(exe, 0o755);
  return binDir;
}

/** A shell's environment with no npm variables and the given PATH. */
function shellEnv(h: TestHome, path: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(h.env).filter(([k]) => !k.startsWith('npm_')));
  return { ...env, PATH: path, TZ: 'UTC', ...extra };
}

describe('the command form, decided once from the environment', () => {
  it.each<[string, boolean, NodeJS.ProcessEnv, 'larkmux' | 'npx larkmux']>([
    ['npx (npm_command set), larkmux also on PATH', true, { npm_command: 'exec' }, 'npx larkmux'],
    ['an npm script (npm_lifecycle_event set), not on PATH', false, { npm_lifecycle_event: 'larkmux' }, 'npx larkmux'],
    ['a plain shell, larkmux on PATH', true, {}, 'larkmux'],
    ['a plain shell, larkmux not on PATH', false, {}, 'npx larkmux'],
  ])('%s → %s', (_what, onPath, extra, form) => {
    home = makeTestHome('lmx-form-');
    const path = onPath ? `${installedBin()}:/usr/bin:/bin` : '/usr/bin:/bin';
    expect(larkmuxCommand(shellEnv(home, path, extra))).toBe(form);
  });
});

describe('messages from different paths use the same form', () => {
  it.each<[boolean, string, string]>([
    [false, 'npx larkmux', 'npx larkmux'],
    [true, 'larkmux', 'npx larkmux'],
  ])('larkmux on PATH: %s → status, doctor and --help all say `%s`', async (onPath, form, other) => {
    home = makeTestHome('lmx-form-');
    const env = shellEnv(home, onPath ? `${installedBin()}:/usr/bin:/bin` : '/usr/bin:/bin');
    const st = await runLarkmux(['status'], env);
    expect(st.stdout).toContain(`Start it with: ${form} start`);
    // No bot is configured, so the console is on: doctor's console line names how to get its link.
    const doc = await runLarkmux(['doctor'], env, 120_000);
    const consoleLine = doc.stdout.split('\n').find((l) => /\bconsole\b/.test(l) && /prints a one-time link/.test(l));
    expect(consoleLine, doc.stdout).toBeDefined();
    expect(consoleLine).toContain(`\`${form} start\``);
    if (form !== other) expect(consoleLine).not.toContain(`${other} start`);
    const help = await runLarkmux(['--help'], env);
    expect(help.stdout).toContain(`Run \`${form} <command> --help\``);
  }, 240_000);
});
