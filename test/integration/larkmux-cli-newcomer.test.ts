// Issue 15 item 10 and the small `larkmux` command fixes, as a user at a terminal sees them.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseLarkmuxCommand } from '../../src/platform/larkmux-command.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT, runLarkmux } from '../support/larkmux-cli.js';

let home: TestHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

/** The environment of a shell where larkmux is not on PATH and npm is not involved. */
function plainEnv(h: TestHome): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(h.env).filter(([k]) => !k.startsWith('npm_')));
  return { ...env, PATH: '/usr/bin:/bin', TZ: 'UTC' };
}

const T0 = Date.UTC(2026, 11, 1, 21, 10, 33);
const LOG = [
  `{"level":30,"time":${T0},"pid":1,"hostname":"vm","name":"daemon","bot":"bot0","bot":"bot0","appId":"cli_a1b2c3d4e5f60718","state":"connected","msg":"lark connection state"}`,
  `{"level":40,"time":${T0 + 1000},"pid":1,"hostname":"vm","name":"daemon","bot":"bot0","session":"db04d2a9","cwd":"/srv/my work","msg":"input not delivered"}`,
  'not json at all',
];

function withLog(lines: string[]): TestHome {
  const h = makeTestHome('lmx-logs-');
  mkdirSync(h.paths.logs, { recursive: true });
  writeFileSync(h.paths.logFile, `${lines.join('\n')}\n`);
  return h;
}

describe('larkmux logs', () => {
  it('prints level names, local times and each key once; --json keeps the raw lines', async () => {
    home = withLog(LOG);
    const res = await runLarkmux(['logs'], plainEnv(home));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n').filter(Boolean)).toEqual([
      '12-01 21:10:33 INFO  [bot0] lark connection state  appId=cli_a1b2c3d4e5f60718 state=connected',
      '12-01 21:10:34 WARN  [bot0 db04d2a9] input not delivered  cwd="/srv/my work"',
      'not json at all',
    ]);
    const raw = await runLarkmux(['logs', '--json'], plainEnv(home));
    expect(raw.stdout).toBe(`${LOG.join('\n')}\n`);
  });

  it('-n50, -n 50 and --lines=1 are all accepted', async () => {
    home = withLog(LOG);
    const cases: [string[], number][] = [[['-n50'], 3], [['-n', '50'], 3], [['--lines=1'], 1], [['-n1'], 1]];
    for (const [args, count] of cases) {
      const res = await runLarkmux(['logs', ...args], plainEnv(home));
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      expect(res.stdout.split('\n').filter(Boolean)).toHaveLength(count);
    }
    const bad = await runLarkmux(['logs', '-nfifty'], plainEnv(home));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lines needs a whole number');
  }, 240_000); // five CLI runs from source: slow on a loaded 2-core machine

  it('a reader that goes away (| head) ends the command quietly, not with an EPIPE crash', async () => {
    home = withLog(Array.from({ length: 20_000 }, (_, i) => `{"level":30,"time":${T0},"msg":"line ${i} ${'x'.repeat(80)}"}`));
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'logs', '-n', '20000'], { env: plainEnv(home), cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});

describe('messages name a command that works here', () => {
  it('decides once: npm/npx → npx larkmux; on PATH → larkmux; otherwise npx larkmux', () => {
    expect(chooseLarkmuxCommand(true, true)).toBe('npx larkmux');
    expect(chooseLarkmuxCommand(false, true)).toBe('larkmux');
    expect(chooseLarkmuxCommand(false, false)).toBe('npx larkmux');
  });

  it('without larkmux on PATH, status and logs say `npx larkmux start`', async () => {
    home = makeTestHome('lmx-cmd-');
    const st = await runLarkmux(['status'], plainEnv(home));
    expect(st.code).toBe(3);
    expect(st.stdout).toContain('Start it with: npx larkmux start');
    const lg = await runLarkmux(['logs'], plainEnv(home));
    expect(lg.stdout).toContain('(start the daemon with: npx larkmux start)');
  });
});

describe('start on a bad config', () => {
  it('--foreground exits 78 (EX_CONFIG) and names the missing folder with the fix', async () => {
    home = makeTestHome('lmx-badcfg-');
    const missing = join(home.dir, 'no-such-project');
    home.writeConfig({ bots: [{ name: 'b', appId: 'cli_a1b2c3d4e5f60718', appSecret: 'x1234', workingDir: missing }] });
    const res = await runLarkmux(['start', '--foreground'], plainEnv(home));
    expect(res.code).toBe(78);
    expect(res.stderr).toContain(`bots[0].workingDir: the folder ${missing} does not exist; create it (mkdir -p ${missing}) or fix the path`);
  });
});
