// Installed like a tool (issue 32 item 10): the packed tarball installs globally with the registry unreachable, and the
// `larkmux` npm links into <prefix>/bin starts and stops a daemon from a folder that is not the clone.
// SLOW: packs ~25 MB and installs it (tens of seconds on a loaded 2-core machine); one test on purpose.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT } from '../support/larkmux-cli.js';

const LINK = /console: open http:\/\/127\.0\.0\.1:\d+\/console\/\?token=[A-Za-z0-9_-]{43}/;
/** A registry nobody answers on: any network fetch npm tries fails, so the install proves it needs none. */
const DEAD_REGISTRY = 'http://127.0.0.1:9';
const INSTALL_TIMEOUT_MS = 240_000;

/** The environment without npm's per-run variables (vitest may run under `npm test`): the user types `larkmux` in a shell. */
function shellEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  return { ...env, ...extra };
}

describe('larkmux installed from its tarball', () => {
  let work = '';
  let home: TestHome | undefined;
  afterEach(() => {
    const pid = home && readPid(home.paths.pidFile);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    home?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('npm pack → npm install -g offline into a fresh prefix → larkmux start/stop from another folder', () => {
    work = mkdtempSync(join(tmpdir(), 'lmx-pack-'));
    const packDir = join(work, 'pack');
    const prefix = join(work, 'prefix');
    const cache = join(work, 'cache');
    const elsewhere = join(work, 'elsewhere');
    for (const d of [packDir, prefix, cache, elsewhere]) mkdirSync(d);
    // dist/ is what the suite built (`npm run build`); packing must not rebuild it under the feet of other tests.
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'run `npm run build` first').toBe(true);
    const npmEnv = shellEnv({ npm_config_cache: cache, npm_config_registry: DEAD_REGISTRY, npm_config_json: 'false', npm_config_fetch_retries: '0' });
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, env: npmEnv, stdio: 'pipe' });
    const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
    const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n');
    for (const f of ['package/bin/larkmux.js', 'package/dist/cli/main.js', 'package/dist/worker/bundle/', 'package/dist/web/']) {
      expect(listed.some((l) => l.startsWith(f)), `${f} in the tarball`).toBe(true);
    }

    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], {
      cwd: elsewhere,
      env: npmEnv,
      encoding: 'utf8',
      timeout: INSTALL_TIMEOUT_MS,
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    const bin = join(prefix, 'bin', 'larkmux');
    // npm's global bin is a symlink into lib/node_modules: bin/larkmux.js must find dist/ through its real path.
    expect(realpathSync(bin)).toBe(join(realpathSync(prefix), 'lib', 'node_modules', 'larkmux', 'bin', 'larkmux.js'));

    home = makeTestHome('lmx-gi-');
    home.writeConfig({ web: { port: 0, host: '127.0.0.1' }, tmux: { socket: `lmx-gi-${process.pid}` } });
    const env = shellEnv({ LARKMUX_HOME: home.dir, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
    const start = spawnSync('larkmux', ['start'], { cwd: elsewhere, env, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
    expect(start.status, `${start.stdout}\n${start.stderr}`).toBe(0);
    expect(start.stdout).toMatch(LINK);
    // On PATH as a tool: what it tells the user to type is `larkmux …`, not `npx larkmux …` (which needs the clone).
    expect(start.stdout).not.toContain('npx larkmux');
    const stop = spawnSync('larkmux', ['stop'], { cwd: elsewhere, env, encoding: 'utf8', timeout: 60_000 });
    expect(stop.status, stop.stderr).toBe(0);
    expect(stop.stdout).toContain('larkmux stopped');
  }, INSTALL_TIMEOUT_MS * 2);
});
