// Issue 31 item 12 through the real daemon: a web port this test holds. start names the holder and the setting,
// exits non-zero and stops again when the console was the only way in; with a bot it keeps running and status and
// doctor say the web port is not listening and the console is unavailable.
import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { larkmuxCommand } from '../../src/platform/larkmux-command.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { endDaemonHome, runLarkmux } from '../support/larkmux-cli.js';

interface Line { level: string; label: string; detail: string; fix?: string }

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : 0 });
    });
  });
}

async function doctorLines(env: NodeJS.ProcessEnv): Promise<Line[]> {
  const res = await runLarkmux(['doctor', '--json'], env);
  return (JSON.parse(res.stdout) as Line[]).filter((l) => l.label === 'web port' || l.label === 'console');
}

/** This test process holds the port: on Linux the message names its pid. */
const heldBy = (port: number) => `port ${port} on 127.0.0.1 is already in use by pid ${process.pid} (`;
const FIX = 'set web.port in config.json to a free port (0 = any free port)';

describe('web port taken, console the only way in', () => {
  let home: TestHome;
  let held: { server: Server; port: number };
  beforeEach(async () => {
    home = makeTestHome();
    held = await holdPort();
    home.writeConfig({ web: { port: held.port, host: '127.0.0.1' }, console: { cli: 'shell' } });
  });
  afterEach(async () => {
    held.server.close();
    await endDaemonHome(home);
  });

  it('doctor fails on it, start names the holder, exits 1 and leaves no daemon; once free, doctor says who listens', async () => {
    const before = await doctorLines(home.env);
    expect(before).toEqual([
      { level: 'FAIL', label: 'web port', detail: expect.stringContaining(`port ${held.port} on 127.0.0.1 is held by pid ${process.pid} (`), fix: expect.stringContaining(FIX) },
      { level: 'FAIL', label: 'console', detail: `unavailable: port ${held.port} is taken`, fix: expect.stringContaining(FIX) },
    ]);

    const res = await runLarkmux(['start'], home.env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`warning: web terminal off: ${heldBy(held.port)}`);
    expect(res.stderr).toContain(FIX);
    expect(res.stderr).toContain('console: unavailable, and with no bot configured it is the only way in');
    expect(res.stderr).toMatch(/larkmux stopped again \(pid \d+\); fix the web port/);
    expect(res.stdout).not.toContain('console: open');
    expect((await runLarkmux(['status'], home.env)).code).toBe(3);

    // In the foreground (systemd) the daemon itself exits non-zero with the same reason.
    const fg = await runLarkmux(['start', '--foreground'], home.env);
    expect(fg.code).toBe(1);
    expect(fg.stderr).toContain(heldBy(held.port));
    expect(fg.stderr).toContain('with no bot configured the console is the only way in, so the daemon stops');

    await new Promise<void>((r) => held.server.close(() => r()));
    const ok = await runLarkmux(['start'], home.env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('console: open http://127.0.0.1:');
    const pid = Number(/pid (\d+)/.exec(ok.stdout)?.[1]);
    expect(await doctorLines(home.env)).toEqual([
      { level: 'OK', label: 'web port', detail: `listening by this daemon (pid ${pid}) on http://127.0.0.1:${held.port}` },
      { level: 'OK', label: 'console', detail: `on: http://127.0.0.1:${held.port}/console/ (\`${larkmuxCommand(home.env)} start\` prints a one-time link to it)` },
    ]);
    const st = await runLarkmux(['status'], home.env);
    expect(st.stdout).toContain(`web port: listening on http://127.0.0.1:${held.port}`);
    expect(st.stdout).toMatch(/console: connected /);
  });
});

describe('web port taken beside a bot', () => {
  let rig: E2eRig;
  let held: { server: Server; port: number };
  beforeEach(async () => {
    held = await holdPort();
    rig = await startRig({ web: { port: held.port } });
    const config = JSON.parse(readFileSync(rig.home.paths.config, 'utf8')) as Record<string, unknown>;
    rig.home.writeConfig({ ...config, console: true });
  });
  afterEach(async () => {
    held.server.close();
    await rig.cleanup();
  });

  it('start exits 0 for the bot, and start, status and doctor say the web port and the console are off and why', async () => {
    const res = await runLarkmux(['start'], rig.home.env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/bot "bot0" \(cli_\w+\): connected/);
    expect(res.stderr).toContain(`warning: web terminal off: ${heldBy(held.port)}`);
    expect(res.stderr).toContain('console: unavailable until the web port listens (the bots work as usual)');
    expect(res.stdout).not.toContain('console: open');

    const st = await runLarkmux(['status'], rig.home.env);
    expect(st.stdout).toContain(`web port: not listening because ${heldBy(held.port)}`);
    expect(st.stdout).toContain('console: unavailable (nobody can open it until the web port listens)');
    expect(st.stdout).not.toContain('console: connected');
    const json = JSON.parse((await runLarkmux(['status', '--json'], rig.home.env)).stdout);
    expect(json.webUrl).toBeNull();
    expect(json.webProblem).toContain(heldBy(held.port));
    expect(json.console.state).toBe('unavailable');

    const lines = await doctorLines(rig.home.env);
    expect(lines).toEqual([
      { level: 'WARN', label: 'web port', detail: expect.stringContaining(`not listening because ${heldBy(held.port)}`), fix: expect.stringContaining(FIX) },
      { level: 'WARN', label: 'console', detail: 'unavailable: the web port is not listening', fix: expect.stringContaining(FIX) },
    ]);
  });
});
