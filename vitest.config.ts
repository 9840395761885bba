import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The shells tests start (the shell CLI, tmux's default shell, hand-started panes) must not run the developer's own rc
 * files: on this kind of machine ~/.bashrc runs `pyenv init`, whose rehash takes a lock file; a shell killed while
 * starting (every test ends its tmux server) left the lock behind, and every later shell then waited ~60 s for its
 * prompt (five e2e tests failed in one CI run). So every test process gets an empty home of its own; tests that need
 * a particular home (the real CLIs, worker tests) still set HOME themselves.
 */
const TEST_USER_HOME = mkdtempSync(join(tmpdir(), 'lmx-test-user-home-'));

/**
 * Tests that drive the real coding CLIs (third-party binaries talking to fake model servers). On a loaded 2-core
 * machine their start-up and redraw timing varies, so they run on their own, one file at a time, after the rest
 * (`npm test` = both projects, see scripts/test.mjs), and a failed test is tried once more.
 */
const REAL_CLI_TESTS = ['test/e2e/cli-*.test.ts', 'test/e2e/daemon-claude*.test.ts', 'test/e2e/console-claude.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // Two cores: integration tests drive real tmux, CLIs and Chromium, so keep parallelism modest.
    maxWorkers: 2,
    testTimeout: 60_000,
    // Every retried test is named at the end of the output (RETRIED: …): a retry must never hide a product bug.
    reporters: ['default', './test/support/retry-reporter.ts'],
    // Every test ends the tmux servers it started: at the end of a run, any that still answers fails the run.
    globalSetup: ['./test/support/tmux-leak-check.ts'],
    hookTimeout: 120_000,
    // The user's real LARKMUX_HOME is never touched: every test sets its own (test/support/home.ts).
    // Nor the user's default tmux server: the pre-per-home server larkmux looks at is a name no test server uses.
    env: { HOME: TEST_USER_HOME, LARKMUX_HOME: '/nonexistent/larkmux-tests-must-set-their-own-home', LARKMUX_LEGACY_TMUX_SOCKET: 'lmx-t-no-legacy-server' },
    projects: [
      // test/.clis holds the installed CLIs' own packages (with their own *.test.ts files): never ours to run.
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/.clis/**', ...REAL_CLI_TESTS] } },
      // Their own waits (CLI start, model round trips, permission prompts) add up to minutes on a loaded machine: a
      // test's deadline is its waits, not the 60 s default (cli-gemini's permission test was cut at 60 s mid-wait).
      // One file at a time, said here: vitest 4 does not pass the command line's `--maxWorkers` on to a project, and
      // `extends: true` gives this one the root's 2 (two CLI files ran side by side). test/unit/vitest-projects.test.ts
      // checks the resolved value.
      { extends: true, test: { name: 'real-clis', include: REAL_CLI_TESTS, retry: 1, testTimeout: 300_000, maxWorkers: 1 } },
    ],
  },
});
