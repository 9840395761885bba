// The `larkmux` command against a real daemon process in a temp LARKMUX_HOME.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { endDaemonHome, runLarkmux } from '../support/larkmux-cli.js';

/** A config with no bot whose web port is any free one. */
const FREE_PORT = { web: { port: 0 } };

describe('larkmux start / status / stop', () => {
  let home: TestHome;
  beforeEach(() => {
    home = makeTestHome();
  });
  afterEach(() => endDaemonHome(home));

  it('starts a daemon that status --json reports, and stop leaves no daemon process', async () => {
    // The web port is 0 (any free one): with no bot the console is the only way in, and 7680 may be in use here.
    home.writeConfig(FREE_PORT);
    const started = await runLarkmux(['start'], home.env);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/larkmux started \(pid \d+\)/);
    expect(started.stdout).toContain(home.paths.logFile);
    // No bot configured: it still starts and says what to do next.
    expect(started.stdout).toMatch(/next: no bot is configured in .*: add one under "bots" .* or run `(npx )?larkmux setup`/); // npx when larkmux is not on PATH (issue 15 item 2)

    const st = await runLarkmux(['status', '--json'], home.env);
    expect(st.code).toBe(0);
    const status = JSON.parse(st.stdout);
    expect(status).toMatchObject({ running: true, home: home.dir, bots: [], sessions: [] });
    expect(isAlive(status.pid)).toBe(true);
    expect(readPid(home.paths.pidFile)).toBe(status.pid);

    const stopped = await runLarkmux(['stop'], home.env);
    expect(stopped.code).toBe(0);
    expect(isAlive(status.pid)).toBe(false);
    expect(existsSync(home.paths.pidFile)).toBe(false);
    expect(existsSync(home.paths.controlSocket)).toBe(false);

    const after = await runLarkmux(['status', '--json'], home.env);
    expect(after.code).toBe(3);
    expect(JSON.parse(after.stdout)).toEqual({ running: false, home: home.dir });
  });

  it('start twice (one after the other, and two at once) runs one daemon', async () => {
    home.writeConfig(FREE_PORT);
    const first = await runLarkmux(['start'], home.env);
    expect(first.code).toBe(0);
    const pid = readPid(home.paths.pidFile);
    const second = await runLarkmux(['start'], home.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`already running (pid ${pid})`);
    expect(readPid(home.paths.pidFile)).toBe(pid);
    await runLarkmux(['stop'], home.env);

    const [a, b] = await Promise.all([runLarkmux(['start'], home.env), runLarkmux(['start'], home.env)]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const winner = readPid(home.paths.pidFile);
    expect(winner).not.toBeNull();
    const outputs = a.stdout + b.stdout;
    expect(outputs.match(/larkmux started/g)?.length).toBe(1);
    expect(outputs).toContain(`already running (pid ${winner})`);
    const log = readFileSync(home.paths.logFile, 'utf8');
    // Only one daemon got past the lock in the concurrent round (plus the one from the first round).
    expect(log.match(/"msg":"daemon started"/g)?.length).toBe(2);
  });

  it('refuses an invalid config with the field and the fix, without echoing the secret', async () => {
    home.writeConfig({ bots: [{ name: 'b', appId: 'nope', appSecret: 'TOPSECRET-123456' }] });
    const res = await runLarkmux(['start'], home.env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('bots[0].appId: "nope": must look like cli_');
    expect(res.stderr + res.stdout).not.toContain('TOPSECRET');
    expect(existsSync(home.paths.pidFile)).toBe(false);
  });

  it('restart replaces the daemon process', async () => {
    home.writeConfig(FREE_PORT);
    await runLarkmux(['start'], home.env);
    const before = readPid(home.paths.pidFile);
    const res = await runLarkmux(['restart'], home.env);
    expect(res.code).toBe(0);
    const after = readPid(home.paths.pidFile);
    expect(after).not.toBe(before);
    expect(before && isAlive(before)).toBe(false);
    expect(after && isAlive(after)).toBe(true);
  });

  it('restart with mistakes in config.json lists them all, exits 1 and leaves the running daemon alone (issue 31 item 11)', async () => {
    home.writeConfig(FREE_PORT);
    expect((await runLarkmux(['start'], home.env)).code).toBe(0);
    const before = readPid(home.paths.pidFile)!;
    // A typo in a key, an unknown CLI and a folder that is not there: three mistakes, all reported.
    home.writeConfig({ web: { prot: 0 }, console: { cli: 'claud', workingDir: `${home.dir}/nope` } });
    const res = await runLarkmux(['restart'], home.env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${home.paths.config} is invalid (3 problems):`);
    expect(res.stderr).toContain('web: unknown field "prot" (did you mean "port"?)');
    expect(res.stderr).toContain('console.cli: unknown CLI "claud" (did you mean "claude-code"?)');
    expect(res.stderr).toContain(`console.workingDir: the folder ${home.dir}/nope does not exist`);
    expect(res.stderr).toContain(`nothing was restarted: the running daemon (pid ${before}) keeps its current settings`);
    expect(res.stdout).not.toContain('stopped');
    // The same daemon still answers.
    expect(isAlive(before)).toBe(true);
    const st = await runLarkmux(['status', '--json'], home.env);
    expect(st.code).toBe(0);
    expect(JSON.parse(st.stdout).pid).toBe(before);
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [['status', '--bogus'], /unknown flag --bogus/],
    [['stop', 'now'], /unexpected argument "now"/],
    [['logs', '--lines'], /--lines needs a value/],
  ])('%j prints usage and exits 2', async (args, message) => {
    const res = await runLarkmux(args, home.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toMatch(/usage: larkmux/);
  });

  it('logs shows the daemon log; doctor reports each check', async () => {
    home.writeConfig(FREE_PORT);
    await runLarkmux(['start'], home.env);
    const logs = await runLarkmux(['logs', '-n', '50'], home.env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('daemon started');
    const doctor = await runLarkmux(['doctor', '--json'], home.env);
    const lines = JSON.parse(doctor.stdout) as { level: string; label: string }[];
    expect(lines.map((l) => l.label)).toEqual(expect.arrayContaining(['node', 'tmux', 'config', 'cli claude-code', 'home', 'platform']));
    for (const l of lines) expect(['OK', 'WARN', 'FAIL']).toContain(l.level);
  });
});
