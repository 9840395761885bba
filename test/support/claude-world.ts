// A Feishu rig whose bot runs a real model CLI (Claude Code, or Gemini) against its fake model in a loopback-only
// namespace: the real daemon, fake Feishu, the pinned CLI.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import type { SeedFile } from '../../src/worker/cli/types.js';
import { cleanCliEnv, requireTestCli } from './clis.js';
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
  /** The CLI's HOME (its config, state and transcripts). */
  home: string;
  /** The environment the bot gives the CLI (HOME, model endpoint): what a hand-started CLI needs too. */
  env: Record<string, string>;
  /** Starts (again) the tmux server inside the model fake's loopback-only network namespace. */
  startTmuxServer(): Promise<void>;
}

/** One world's CLI: its program name, adapter, fake model and the bot environment that points it there. */
const WORLD_CLIS = {
  claude: { adapter: 'claude-code', fake: 'anthropic', env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }) },
  gemini: { adapter: 'gemini', fake: 'gemini', env: (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'fake-key' }) },
  // The endpoint is in the seeded $HOME/.codex/config.toml.
  codex: { adapter: 'codex', fake: 'openai', env: () => ({ FAKE_OPENAI_API_KEY: 'sk-fake' }) },
} as const;

interface WorldOptions {
  cli: keyof typeof WORLD_CLIS;
  /** Which of the adapter's seed files to write (none = an unseeded home: every onboarding dialog comes). */
  seed: (file: SeedFile) => boolean;
  bot?: Record<string, unknown>;
  /** Files written under the CLI's HOME after seeding (relative path → content). */
  homeFiles?: Record<string, string>;
  /** More of the CLI's environment (the bot's `env`), beside HOME and the model endpoint. */
  cliEnv?: Record<string, string>;
}

async function startWorld(opts: WorldOptions): Promise<ClaudeWorld> {
  const spec = WORLD_CLIS[opts.cli];
  const root = mkdtempSync(join(tmpdir(), `lmx-e2e-d${opts.cli}-`));
  const [home, cwd, tmp, bin] = ['home', 'work', 'tmp', 'bin'].map((d) => join(root, d)) as [string, string, string, string];
  for (const d of [home, cwd, tmp, bin]) mkdirSync(d, { recursive: true });
  writeBin(bin, opts.cli);
  const fake = await startFakeModelProcess(spec.fake, { isolate: true });
  const env = { HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C.UTF-8', ...spec.env(fake.url), ...opts.cliEnv };
  const adapter = adapterFor(spec.adapter);
  if (!adapter.ok) throw new Error(adapter.message);
  const seeded = await applySeedFiles(adapter.adapter.seedFiles({ cwd, home, baseUrl: fake.url, env }).filter(opts.seed));
  if (!seeded.ok) throw new Error(seeded.message);
  for (const [rel, content] of Object.entries(opts.homeFiles ?? {})) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), content);
  }
  const rig = await startRig({ botOverrides: { cli: spec.adapter, workingDir: cwd, env, ...opts.bot } });
  const startTmuxServer = () =>
    nsenterTmux(fake.netnsPid, rig.tmux.socket, ['new-session', '-d', '-s', 'keepalive', '-x', '20', '-y', '5', 'sleep', '100000'], cleanCliEnv({ HOME: home, TMPDIR: tmp }));
  await startTmuxServer();
  return { rig, fake, cwd, root, home, env, startTmuxServer };
}

/** `settings` replaces the asking-permissions settings file (e.g. to allow Bash without a prompt). */
export function startClaudeWorld(opts: { askPermissions: boolean; seed?: boolean; bot?: Record<string, unknown>; settings?: unknown; cliEnv?: Record<string, string> }): Promise<ClaudeWorld> {
  const settings: Record<string, string> = opts.askPermissions || opts.settings ? { '.claude/settings.json': opts.settings ? JSON.stringify(opts.settings) : ASKING } : {};
  return startWorld({ cli: 'claude', seed: () => opts.seed !== false, ...(opts.bot ? { bot: opts.bot } : {}), homeFiles: settings, ...(opts.cliEnv ? { cliEnv: opts.cliEnv } : {}) });
}

/**
 * Gemini with its sign-in seeded; `trusted: false` leaves the working folder out of trustedFolders.json (it asks).
 * `lingerS`: the pane's process stays this long after Gemini exits (its launcher waits), as a Gemini that hangs on
 * its way out does — deterministically.
 */
export async function startGeminiWorld(opts: { trusted: boolean; bot?: Record<string, unknown>; lingerS?: number }): Promise<ClaudeWorld> {
  const world = await startWorld({ cli: 'gemini', seed: (f) => opts.trusted || !f.path.endsWith('trustedFolders.json'), ...(opts.bot ? { bot: opts.bot } : {}) });
  if (opts.lingerS) {
    const bin = join(world.root, 'bin', 'gemini');
    rmSync(bin);
    writeFileSync(bin, `#!/bin/sh\n${requireTestCli('gemini').map((a) => `'${a}'`).join(' ')} "$@"\nsleep ${opts.lingerS}\n`, { mode: 0o755 });
  }
  return world;
}

/** Codex with its sign-in, model endpoint and folder trust seeded (in $HOME/.codex). */
export function startCodexWorld(opts: { bot?: Record<string, unknown> } = {}): Promise<ClaudeWorld> {
  return startWorld({ cli: 'codex', seed: () => true, ...(opts.bot ? { bot: opts.bot } : {}) });
}

/** Ends everything a world started: tmux server and panes, the daemon, the fake model, the temp folders. */
export async function disposeClaudeWorld(w: ClaudeWorld): Promise<void> {
  await killTmuxAndPanes(w.rig.tmux, () => w.rig.cleanup());
  await w.fake.close();
  rmSync(w.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
