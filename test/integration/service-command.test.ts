// `larkmux service install|status|remove` against a temp HOME: the unit it writes, `--print`, and systemd's own check.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { which } from '../../src/platform/which.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT, runLarkmux } from '../support/larkmux-cli.js';

const systemdAnalyze = which('systemd-analyze');

describe('larkmux service', () => {
  let home: TestHome;
  let userHome = '';
  afterEach(() => {
    home.cleanup();
    rmSync(userHome, { recursive: true, force: true });
  });

  function setUp() {
    home = makeTestHome('lmx-svc-');
    userHome = mkdtempSync(join(tmpdir(), 'lmx-svc-user-'));
    const env = { ...home.env, HOME: userHome, XDG_CONFIG_HOME: '' };
    return { env, unit: join(userHome, '.config', 'systemd', 'user', 'larkmux.service') };
  }

  it('--print shows the unit and writes nothing', async () => {
    const { env, unit } = setUp();
    const res = await runLarkmux(['service', 'install', '--print'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`# ${unit}`);
    expect(res.stdout).toContain(`ExecStart="${process.execPath}" "${realpathSync(join(ROOT, 'bin', 'larkmux.js'))}" start --foreground`);
    expect(res.stdout).toContain(`Environment="LARKMUX_HOME=${home.dir}"`);
    expect(res.stdout).toContain('KillMode=process');
    expect(existsSync(unit)).toBe(false);
  }, 60_000);

  it('install writes the unit systemd accepts; status tells it; remove deletes it', async () => {
    const { env, unit } = setUp();
    expect((await runLarkmux(['service', 'status'], env)).stdout).toContain('service: not installed');

    const installed = await runLarkmux(['service', 'install'], env);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`wrote ${unit}`);
    const printed = (await runLarkmux(['service', 'install', '--print'], env)).stdout;
    expect(`# ${unit}\n${readFileSync(unit, 'utf8')}`.trimEnd()).toBe(printed.trimEnd());

    const status = await runLarkmux(['service', 'status'], env);
    expect(status.stdout).toContain(`service: installed (${unit})`);
    // Either systemd answered (active/inactive/…) or the command says why it could not ask: never silence.
    expect(status.stdout).toMatch(/systemd: (cannot ask: .+|\w+)/);

    const removed = await runLarkmux(['service', 'remove'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`removed ${unit}`);
    expect(existsSync(unit)).toBe(false);
  }, 120_000);

  it.skipIf(!systemdAnalyze)('systemd-analyze verify accepts the written unit (skipped: systemd-analyze not installed)', async () => {
    const { env, unit } = setUp();
    expect((await runLarkmux(['service', 'install'], env)).code).toBe(0);
    // System-manager mode: `--user` needs a running user manager, which containers lack; the unit syntax is the same.
    const res = spawnSync(systemdAnalyze!, ['verify', unit], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    // verify exits 0 on lines it ignores: any complaint about the file is a failure.
    expect(res.stderr.split('\n').filter((l) => l.includes(unit) || l.includes('larkmux.service'))).toEqual([]);
  }, 60_000);

  it('an unknown action is a usage error', async () => {
    const { env } = setUp();
    const res = await runLarkmux(['service', 'start'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('got "start"');
  }, 60_000);
});
