// End-to-end rig: a fake Feishu open platform in this process, the real daemon as its own process (larkmux start).
import { readFileSync, existsSync } from 'node:fs';
import { onTestFailed } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { FakeFeishu, type FakeFeishuOptions } from './fake-feishu/index.js';
import { TEST_APPS } from './fake-feishu/harness.js';
import { makeTestHome, type TestHome } from './home.js';
import { runLarkmux } from './larkmux-cli.js';
import { makeTmuxServer, type TestTmuxServer } from './tmux.js';

export interface E2eRig {
  fake: FakeFeishu;
  home: TestHome;
  tmux: TestTmuxServer;
  /** The open id every injected message comes from (an allowed user). */
  user: string;
  appIds: string[];
  start(): Promise<void>;
  stop(): Promise<void>;
  logText(): string;
  status(): Promise<any>;
  cleanup(): Promise<void>;
}

export interface RigOptions {
  bots?: number;
  botOverrides?: Record<string, unknown>;
  /** Overrides for one bot each (index = bot number), applied after botOverrides. */
  perBot?: Array<Record<string, unknown>>;
  fake?: Partial<FakeFeishuOptions>;
  web?: Record<string, unknown>;
  /** Which larkmux runs the daemon: the source under tsx (default) or the build, as a user runs it (benchmarks). */
  daemon?: 'source' | 'built';
}

export async function startRig(opts: RigOptions = {}): Promise<E2eRig> {
  const fake = await FakeFeishu.start({ apps: TEST_APPS, ...opts.fake });
  const home = makeTestHome('lmx-e2e-');
  const tmux = makeTmuxServer();
  const user = fake.defaultUser;
  const apps = TEST_APPS.slice(0, opts.bots ?? 1);
  home.writeConfig({
    web: { port: 0, host: '127.0.0.1', ...opts.web },
    tmux: { socket: tmux.socket },
    bots: apps.map((a, i) => ({
      name: `bot${i}`,
      appId: a.appId,
      appSecret: '${LMX_TEST_SECRET_' + i + '}',
      domain: fake.baseUrl,
      cli: 'shell',
      workingDir: home.dir,
      allowedUsers: [user],
      // The existing end-to-end tests read English replies and cards; a test of the Chinese default passes
      // `botOverrides: { locale: undefined }` (the key is then left out of config.json).
      locale: 'en',
      ...opts.botOverrides,
      ...opts.perBot?.[i],
    })),
  });
  apps.forEach((a, i) => (home.env[`LMX_TEST_SECRET_${i}`] = a.appSecret));
  const larkmux = (args: string[]) => runLarkmux(args, home.env, { from: opts.daemon ?? 'source' });
  /** The daemon's log as cleanup found it (the folder goes with it), for a failed test's report. */
  let logAtCleanup: string | undefined;
  const readLog = () => (existsSync(home.paths.logFile) ? readFileSync(home.paths.logFile, 'utf8') : '');
  const rig: E2eRig = {
    fake, home, tmux, user, appIds: apps.map((a) => a.appId),
    async start() {
      const res = await larkmux(['start']);
      if (res.code !== 0) throw new Error(`larkmux start failed: ${res.stdout}${res.stderr}`);
      for (const a of apps) await fake.waitFor(() => fake.connectionCount(a.appId) > 0, 15_000, `bot ${a.appId} connected`);
    },
    async stop() {
      await larkmux(['stop']);
    },
    logText: readLog,
    async status() {
      const res = await larkmux(['status', '--json']);
      return JSON.parse(res.stdout);
    },
    async cleanup() {
      await larkmux(['stop']).catch(() => undefined);
      const pid = readPid(home.paths.pidFile);
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
      await tmux.kill();
      await fake.close();
      logAtCleanup = readLog();
      home.cleanup();
    },
  };
  reportLogOnFailure(() => logAtCleanup ?? readLog());
  return rig;
}

/**
 * A failed test prints the tail of its daemon's log on stderr: a failure seen only in CI (a busy machine, once) can then
 * be read afterwards instead of guessed at. The log holds no secret (the product's own rule, tested by secret-env).
 * A rig started outside a test (beforeAll) has no test to watch.
 */
function reportLogOnFailure(log: () => string): void {
  try {
    onTestFailed(() => {
      const tail = log().split('\n').slice(-DAEMON_LOG_TAIL_LINES).join('\n');
      process.stderr.write(`--- the daemon's log, last ${DAEMON_LOG_TAIL_LINES} lines ---\n${tail}\n--- end of the daemon's log ---\n`);
    });
  } catch {
    /* not inside a test */
  }
}

const DAEMON_LOG_TAIL_LINES = 200;
