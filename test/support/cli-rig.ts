// E2E rig for a real coding CLI driven by a real worker: fake model (loopback-only netns), isolated dirs, seeded config.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import type { CliAdapter } from '../../src/worker/cli/types.js';
import { cleanCliEnv, requireTestCli, type TestCliName } from './clis.js';
import { startFakeModelProcess, type FakeKind, type IsolatedFakeServer } from './fake-models/index.js';
import { makeTmuxServer, type TestTmuxServer } from './tmux.js';
import { startWorkerSession, type WorkerSession } from './worker-session.js';

export interface CliRigOptions {
  name: TestCliName;
  /** Write the adapter's seed files (onboarding skipped). */
  seed: boolean;
  /** Extra files to write, relative to the CLI's HOME (e.g. settings that turn on permission prompts). */
  homeFiles?: Record<string, string>;
  /** Extra CODEX_HOME/config.toml lines. */
  codexConfig?: string;
  slowDelayMs?: number;
  /** Seed everything but the trust of the working folder (and make it a git repo, which is what makes Codex ask). */
  untrusted?: boolean;
}

export interface CliRig {
  root: string;
  home: string;
  cwd: string;
  tmp: string;
  codexHome: string;
  adapter: CliAdapter;
  fake: IsolatedFakeServer;
  tmux: TestTmuxServer;
  /** The environment the worker passes to the CLI (init.env). */
  env: Record<string, string>;
  worker: WorkerSession;
  /** Starts a second worker on the same tmux server and dirs (e.g. after the first was detached). */
  startWorker(resume?: Parameters<typeof startWorkerSession>[0]['resume']): WorkerSession;
  cleanup(): Promise<void>;
}

const FAKE_OF: Record<TestCliName, FakeKind> = { claude: 'anthropic', codex: 'openai', gemini: 'gemini' };
const ADAPTER_OF = { claude: 'claude-code', codex: 'codex', gemini: 'gemini' } as const;

export function nsenterTmux(netnsPid: number | null, socket: string, args: string[], env: Record<string, string>): Promise<void> {
  const argv = [...(netnsPid ? ['nsenter', `--net=/proc/${netnsPid}/ns/net`] : []), 'tmux', '-L', socket, ...args];
  return new Promise((resolve, reject) => {
    execFile(argv[0]!, argv.slice(1), { env, timeout: 10_000 }, (err, _o, stderr) => (err ? reject(new Error(`tmux: ${stderr || err.message}`)) : resolve()));
  });
}

/** The CLI program under the name the adapter launches (`claude`, `codex`, `gemini`), in a bin dir put first on PATH. */
export function writeBin(dir: string, name: TestCliName): void {
  const cmd = requireTestCli(name);
  const target = join(dir, name);
  if (cmd.length === 1) symlinkSync(cmd[0]!, target);
  else {
    writeFileSync(target, `#!/bin/sh\nexec ${cmd.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')} "$@"\n`);
    chmodSync(target, 0o755);
  }
}

export async function startCliRig(opts: CliRigOptions): Promise<CliRig> {
  const root = mkdtempSync(join(tmpdir(), `lmx-e2e-${opts.name}-`));
  const [home, cwd, tmp, codexHome, bin] = ['home', 'work', 'tmp', 'codex', 'bin'].map((d) => join(root, d)) as [string, string, string, string, string];
  for (const d of [home, cwd, tmp, codexHome, bin]) mkdirSync(d, { recursive: true });
  writeBin(bin, opts.name);
  const r = adapterFor(ADAPTER_OF[opts.name]);
  if (!r.ok) throw new Error(r.message);
  const adapter = r.adapter;
  const fake = await startFakeModelProcess(FAKE_OF[opts.name], { isolate: true, ...(opts.slowDelayMs ? { slowDelayMs: opts.slowDelayMs } : {}) });
  const env: Record<string, string> = {
    HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C.UTF-8',
    ...(opts.name === 'claude' ? { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_AUTH_TOKEN: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } : {}),
    ...(opts.name === 'codex' ? { CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: 'sk-fake' } : {}),
    ...(opts.name === 'gemini' ? { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'fake-key' } : {}),
  };
  if (opts.seed) {
    let files = adapter.seedFiles({ cwd, home, codexHome, baseUrl: fake.url, env });
    if (opts.untrusted) {
      files = files
        .filter((f) => !f.path.endsWith('trustedFolders.json'))
        .map((f) => ({ ...f, content: f.content.replace(/\[projects\.[^\n]*\ntrust_level = "trusted"\n/, '').replace(/"hasTrustDialogAccepted": ?true/g, '"hasTrustDialogAccepted": false') }));
      await new Promise<void>((resolve, reject) => execFile('git', ['init', '-q', cwd], (err) => (err ? reject(err) : resolve())));
    }
    const seeded = await applySeedFiles(files);
    if (!seeded.ok) throw new Error(seeded.message);
  }
  for (const [rel, content] of Object.entries(opts.homeFiles ?? {})) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), content);
  }
  if (opts.codexConfig) {
    const p = join(codexHome, 'config.toml');
    let prev = '';
    try { prev = readFileSync(p, 'utf8'); } catch { /* not seeded */ }
    // Top-level keys must come before the first table.
    writeFileSync(p, `${opts.codexConfig}\n${prev}`);
  }
  // The tmux server starts inside the fake's network namespace, so every pane (the CLI) sees only loopback.
  const tmux = makeTmuxServer();
  await nsenterTmux(fake.netnsPid, tmux.socket, ['new-session', '-d', '-s', 'keepalive', '-x', '20', '-y', '5', 'sleep', '100000'], cleanCliEnv({ HOME: home, TMPDIR: tmp }));
  const workers: WorkerSession[] = [];
  const rig: CliRig = {
    root, home, cwd, tmp, codexHome, adapter, fake, tmux, env,
    worker: undefined as unknown as WorkerSession,
    startWorker(resume) {
      const prev = workers[0];
      const w = startWorkerSession({
        cli: ADAPTER_OF[opts.name], cwd, env, tmux, ...(prev ? { home: prev.home, sessionId: prev.sessionId } : {}), ...(resume ? { resume } : {}),
      });
      workers.push(w);
      return w;
    },
    async cleanup() {
      for (const w of workers) await w.pool.dispose();
      await killTmuxAndPanes(tmux, () => tmux.kill());
      await fake.close();
      workers[0]?.home.cleanup();
      rmSync(root, { recursive: true, force: true });
    },
  };
  rig.worker = rig.startWorker();
  return rig;
}

/**
 * Kills a test tmux server with `kill` (which may do more, e.g. stop a daemon first) and waits for the CLIs that ran
 * in its panes to exit: they finish writing their state on SIGHUP, and their folders are removed right after.
 */
export async function killTmuxAndPanes(tmux: TestTmuxServer, kill: () => Promise<void>): Promise<void> {
  const pids = await tmux.run(['list-panes', '-a', '-F', '#{pane_pid}']);
  await kill();
  for (const pid of pids.stdout.split('\n').filter((l) => /^\d+$/.test(l)).map(Number)) {
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((res) => setTimeout(res, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
