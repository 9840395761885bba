// When `larkmux start` offers the console: always with no bot, beside bots only with "console": true; --foreground prints it too.
import { spawn } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT, runLarkmux } from '../support/larkmux-cli.js';

/** This machine's first non-loopback IPv4 address, if it has one (connecting to it makes a non-loopback peer). */
function lanAddress(): string | undefined {
  return Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

const LINK = /console: open http:\/\/127\.0\.0\.1:\d+\/console\/\?token=[A-Za-z0-9_-]{43}/;
/** A bot whose Feishu is a closed local port: it fails to connect and the daemon runs on. */
const deadBot = { name: 'b', appId: 'cli_a1b2c3d4e5f60718', appSecret: 'not-a-real-secret', domain: 'http://127.0.0.1:9', cli: 'shell' };

describe('larkmux start and the console link', () => {
  let home: TestHome;
  afterEach(async () => {
    await runLarkmux(['stop'], home.env);
    const pid = readPid(home.paths.pidFile);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    home.cleanup();
  });

  it.each([
    ['a bot and no "console"', false, { bots: [deadBot] }],
    ['a bot and "console": true', true, { bots: [deadBot], console: true }],
    ['"console": false and no bot', false, { console: false }],
  ])('%s → link printed: %s', async (_what, printed, config) => {
    home = makeTestHome('lmx-cons-');
    home.writeConfig({ web: { port: 0, host: '127.0.0.1' }, tmux: { socket: `lmx-cons-${process.pid}` }, ...config });
    const res = await runLarkmux(['start'], home.env, { from: 'built' });
    // A bot that cannot connect may make start exit 1 (once it has failed, not while it retries); the daemon runs on.
    expect(res.code === 0 || ('bots' in config && res.code === 1), res.stderr).toBe(true);
    expect(LINK.test(res.stdout), res.stdout).toBe(printed);
    const st = JSON.parse((await runLarkmux(['status', '--json'], home.env, { from: 'built' })).stdout);
    expect(st.console !== undefined).toBe(printed);
    expect(st.bots.map((b: { name: string }) => b.name)).toEqual('bots' in config ? ['b'] : []);
  }, 90_000);

  it.skipIf(!lanAddress())('another machine is refused unless console.allowRemote is set', async () => {
    home = makeTestHome('lmx-cons-');
    const lan = lanAddress()!;
    for (const [allowRemote, want] of [[false, 403], [true, 401]] as const) {
      home.writeConfig({ web: { port: 0, host: '0.0.0.0' }, tmux: { socket: `lmx-cons-${process.pid}` }, console: { allowRemote } });
      const res = await runLarkmux(['start'], home.env, { from: 'built' });
      const port = /127\.0\.0\.1:(\d+)\/console/.exec(res.stdout)?.[1];
      expect(port, res.stdout).toBeDefined();
      // The same daemon from this machine's LAN address: the peer is not loopback.
      const remote = await fetch(`http://${lan}:${port}/console/`);
      expect(remote.status).toBe(want);
      if (want === 403) expect(await remote.text()).toContain('allowRemote');
      expect((await fetch(`http://127.0.0.1:${port}/console/`)).status).toBe(401);
      await runLarkmux(['stop'], home.env);
    }
  }, 120_000);

  it('--foreground prints the link in the terminal, never in the log', async () => {
    home = makeTestHome('lmx-cons-');
    home.writeConfig({ web: { port: 0, host: '127.0.0.1' }, tmux: { socket: `lmx-cons-${process.pid}` } });
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'larkmux.js'), 'start', '--foreground'], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const deadline = Date.now() + 60_000;
    while (!LINK.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    const token = /token=([A-Za-z0-9_-]+)/.exec(out)?.[1];
    expect(token, out).toBeDefined();
    await runLarkmux(['stop'], home.env);
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(home.paths.logFile, 'utf8')).not.toContain(token!);
  }, 90_000);
});
