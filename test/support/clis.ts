// Locates the pinned real CLIs installed by scripts/install-test-clis.sh into test/.clis (null when absent).
import { execFile } from 'node:child_process';
import { testTmuxSocket } from './tmux.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type TestCliName = 'claude' | 'codex' | 'gemini';

export const TEST_CLIS_DIR = join(import.meta.dirname, '..', '.clis');
const MODULES = join(TEST_CLIS_DIR, 'node_modules');

/** Paths measured in the CLI notes: the native binaries directly (no Node wrapper staying resident). */
const CANDIDATES: Record<TestCliName, () => string[] | null> = {
  claude: () => {
    const native = join(MODULES, '@anthropic-ai/claude-code-linux-x64/claude');
    if (existsSync(native)) return [native];
    const linked = join(MODULES, '@anthropic-ai/claude-code/bin/claude.exe');
    return existsSync(linked) ? [linked] : null;
  },
  codex: () => {
    const musl = join(MODULES, '@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
    return existsSync(musl) ? [musl] : null;
  },
  gemini: () => {
    const bundle = join(MODULES, '@google/gemini-cli/bundle/gemini.js');
    return existsSync(bundle) ? [process.execPath, bundle] : null;
  },
};

/** argv prefix that runs the CLI, or null when it is not installed. */
export function testCliCommand(name: TestCliName): string[] | null {
  return CANDIDATES[name]();
}

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether a suite needing `name` should be skipped. Outside CI a missing CLI skips loudly; in CI it never skips,
 * so the suite runs and fails on the missing binary (CI must exercise the real CLIs).
 */
export function skipWithoutCli(name: TestCliName): boolean {
  if (testCliCommand(name)) return false;
  if (IN_CI) return false;
  console.warn(`[skip] real ${name} CLI not installed in ${TEST_CLIS_DIR}; run scripts/install-test-clis.sh (in CI this fails instead)`);
  return true;
}

/** The command, or a thrown error naming the fix (used inside suites that did not skip). */
export function requireTestCli(name: TestCliName): string[] {
  const cmd = testCliCommand(name);
  if (!cmd) throw new Error(`real ${name} CLI missing in ${TEST_CLIS_DIR}: run scripts/install-test-clis.sh`);
  return cmd;
}

// ── driving a real CLI in its own tmux server (tests only) ────────────────────────────────────────────────


export interface CliPane {
  socket: string;
  target: string;
  /** Runs `tmux -L <socket> …args`; resolves with stdout, rejects on a non-zero exit. */
  tmux(args: readonly string[], input?: string): Promise<string>;
  capture(): Promise<string>;
  kill(): Promise<void>;
}

/** A minimal environment for the tmux server, so nothing of the test runner's (API keys, TMUX) leaks into the CLI. */
export function cleanCliEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...extra };
}

function runTmux(socket: string, args: readonly string[], env: Record<string, string> | undefined, input?: string, prefix: string[] = []): Promise<string> {
  const [cmd, ...rest] = [...prefix, 'tmux', '-L', socket, ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(cmd!, rest, { env: env ?? cleanCliEnv({}), timeout: 10_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`tmux ${args[0]} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** Exit of a CLI after SIGHUP takes well under a second here; 5 s is the give-up point (then SIGKILL). */
const EXIT_WAIT_MS = 5_000;

async function waitForExit(pid: number): Promise<void> {
  if (!Number.isInteger(pid) || pid <= 0) return;
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive()) process.kill(pid, 'SIGKILL');
}

/**
 * Starts `argv` in a new tmux server (`-L lmx-t-<random>`, 120×40). With `netnsPid` the server is started inside
 * that process's network namespace (nsenter), so the CLI sees only loopback.
 */
export async function startCliPane(opts: { argv: readonly string[]; cwd: string; env: Record<string, string>; netnsPid: number | null }): Promise<CliPane> {
  const socket = testTmuxSocket();
  const target = 'cli';
  const prefix = opts.netnsPid ? ['nsenter', `--net=/proc/${opts.netnsPid}/ns/net`] : [];
  const envArgs = Object.entries(opts.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await runTmux(socket, ['new-session', '-d', '-s', target, '-x', '120', '-y', '40', '-c', opts.cwd, ...envArgs, ...opts.argv], cleanCliEnv(opts.env), undefined, prefix);
  const tmux = (args: readonly string[], input?: string) => runTmux(socket, args, undefined, input);
  // Keep a dead pane on screen ("Pane is dead"), so an exiting CLI can be classified and its last words read.
  await tmux(['set-option', '-w', '-t', target, 'remain-on-exit', 'on']);
  const panePid = Number((await tmux(['display-message', '-p', '-t', target, '#{pane_pid}'])).trim());
  return {
    socket,
    target,
    tmux,
    capture: () => tmux(['capture-pane', '-p', '-t', target]),
    kill: async () => {
      // The pane may have been respawned since start: wait for whoever runs in it now, and for the first one.
      const current = Number((await tmux(['display-message', '-p', '-t', target, '#{pane_pid}']).catch(() => '')).trim()) || panePid;
      await tmux(['kill-server']).catch(() => undefined);
      // The CLI still writes its state files while it exits on SIGHUP; wait so the temp home can be removed.
      await waitForExit(current);
      await waitForExit(panePid);
    },
  };
}
