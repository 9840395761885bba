// A Feishu rig whose bot runs the real Claude Code against the fake Anthropic model in a loopback-only namespace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import { cleanCliEnv } from './clis.js';
import { killTmuxAndPanes, nsenterTmux, writeBin } from './cli-rig.js';
import { startRig, type E2eRig } from './e2e-daemon.js';
import { startFakeModelProcess, type IsolatedFakeServer } from './fake-models/index.js';

/** Claude 2.1.332 runs in auto mode (never asking) unless settings say otherwise. */
const ASKING = JSON.stringify({ permissions: { defaultMode: 'default' } });

export interface ClaudeWorld {
  rig: E2eRig;
  fake: IsolatedFakeServer;
  cwd: string;
  root: string;
  /** The environment the bot gives Claude (HOME, model endpoint): what a hand-started Claude needs too. */
  env: Record<string, string>;
  /** Starts (again) the tmux server inside the model fake's loopback-only network namespace. */
  startTmuxServer(): Promise<void>;
}

/** `settings` replaces the asking-permissions settings file (e.g. to allow Bash without a prompt). */
export async function startClaudeWorld(opts: { askPermissions: boolean; seed?: boolean; bot?: Record<string, unknown>; settings?: unknown }): Promise<ClaudeWorld> {
  const root = mkdtempSync(join(tmpdir(), 'lmx-e2e-dclaude-'));
  const [home, cwd, tmp, bin] = ['home', 'work', 'tmp', 'bin'].map((d) => join(root, d)) as [string, string, string, string];
  for (const d of [home, cwd, tmp, bin]) mkdirSync(d, { recursive: true });
  writeBin(bin, 'claude');
  const fake = await startFakeModelProcess('anthropic', { isolate: true });
  const env = {
    HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_AUTH_TOKEN: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const adapter = adapterFor('claude-code');
  if (!adapter.ok) throw new Error(adapter.message);
  if (opts.seed !== false) {
    const seeded = await applySeedFiles(adapter.adapter.seedFiles({ cwd, home, baseUrl: fake.url, env }));
    if (!seeded.ok) throw new Error(seeded.message);
  }
  if (opts.askPermissions || opts.settings) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), opts.settings ? JSON.stringify(opts.settings) : ASKING);
  }
  const rig = await startRig({ botOverrides: { cli: 'claude-code', workingDir: cwd, env, ...opts.bot } });
  const startTmuxServer = () =>
    nsenterTmux(fake.netnsPid, rig.tmux.socket, ['new-session', '-d', '-s', 'keepalive', '-x', '20', '-y', '5', 'sleep', '100000'], cleanCliEnv({ HOME: home, TMPDIR: tmp }));
  await startTmuxServer();
  return { rig, fake, cwd, root, env, startTmuxServer };
}

/** Ends everything a world started: tmux server and panes, the daemon, the fake model, the temp folders. */
export async function disposeClaudeWorld(w: ClaudeWorld): Promise<void> {
  await killTmuxAndPanes(w.rig.tmux, () => w.rig.cleanup());
  await w.fake.close();
  rmSync(w.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
