import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Two cores: integration tests drive real tmux, CLIs and Chromium, so keep parallelism modest.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The user's real LARKMUX_HOME is never touched: every test sets its own (test/support/home.ts).
    env: { LARKMUX_HOME: '/nonexistent/larkmux-tests-must-set-their-own-home' },
  },
});
