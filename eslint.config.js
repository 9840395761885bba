// ESLint (flat config): rules that keep the layers apart, files small and names readable (issue 11).
// Syntax-only on purpose (no type-aware rules): `npm run lint` stays a few seconds on a loaded 2-core machine.
// Import cycles are checked by scripts/import-cycles.ts (type imports included), run by `npm run lint` too.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { larkmuxPlugin } from './scripts/eslint/one-tmux-runner.js';

/** Node built-ins: `node:fs` and the bare `fs` spelling alike. */
const NODE_BUILTIN_REGEX = '^(node:.*|fs|fs/.*|path|os|child_process|net|http|https|crypto|url|process|worker_threads|stream)$';

/** A file past this many lines gets split by job (STYLE.md). */
const MAX_LINES = 400;


/** `no-restricted-imports` patterns forbidding one layer to reach another. */
const layerBan = (group, message) => ({ group, message });

/** How deep a layer's folders go (src/worker/render/cards/x.ts is depth 2); a deeper file would go unchecked. */
const MAX_LAYER_DEPTH = 5;

/**
 * Config blocks forbidding files under `layerDir` (src/<layer>) to import the sibling layers `banned`. Import paths
 * are relative, so `../cli/x.js` in src/worker/lifecycle/ is the worker's own cli/ folder while in src/worker/ it is
 * src/cli: one block per folder depth, each banning exactly the `../` count that climbs out to src/.
 */
function layerRules(layerDir, banned, message) {
  return Array.from({ length: MAX_LAYER_DEPTH + 1 }, (_, depth) => ({
    files: [`${layerDir}/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^(\\.\\./){${depth + 1},}(${banned.join('|')})(/|$)`, message }] },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/.clis/**', 'coverage/**', '**/*.d.ts', 'src/web/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
    // A stale disable comment is worth a warning, not a failed CI.
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      // The compiler checks these already (noUnused… would be noise; `any` and `!` have their places at boundaries).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Terminal escapes (\x1b, \x07, C0 controls) are this product's subject matter: regexes over them are normal.
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Light naming: types are PascalCase; no Hungarian `I` prefix on interfaces.
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'typeLike', format: ['PascalCase'] },
        { selector: 'interface', format: ['PascalCase'], custom: { regex: '^I[A-Z]', match: false } },
      ],
      'max-lines': ['error', { max: MAX_LINES, skipBlankLines: false, skipComments: false }],
    },
  },
  // Tests, benches and scripts: Node globals, longer files (a table of cases is long by nature).
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,js,mjs}', '*.config.{ts,js}'],
    rules: { 'max-lines': 'off' },
  },
  // Layers: daemon and worker never import each other; shared imports neither; the browser bundle imports neither.
  ...layerRules('src/daemon', ['worker', 'cli', 'web'], 'The daemon talks to the worker over IPC (src/shared/ipc.ts), never by import.'),
  ...layerRules('src/worker', ['daemon', 'cli', 'web'], 'The worker talks to the daemon over IPC (src/shared/ipc.ts), never by import.'),
  // The platform layer (Node effects both sides need: the tmux runner) sits below daemon, worker and cli.
  ...layerRules('src/platform', ['daemon', 'worker', 'cli', 'web'], 'src/platform is below daemon, worker and cli: it imports only src/shared.'),
  // One status sender (issue 28): a worker's `status` message is built only by its StatusReporter; every other part asks it.
  {
    files: ['src/worker/**/*.ts'],
    ignores: ['src/worker/runtime/status-reporter.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "ObjectExpression > Property[key.name='type'][value.value='status']",
        message: "Report a worker's status through StatusReporter (src/worker/runtime/status-reporter.ts), not by sending it.",
      }],
    },
  },
  // One tmux runner (issues 11, 28): tmux is exec'd only by src/platform/tmux-runner.ts, also through a variable.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/tmux-runner.ts'],
    plugins: { larkmux: larkmuxPlugin },
    rules: { 'larkmux/one-tmux-runner': 'error' },
  },
  // One owner of the turn (issue 28): a session's live state is reached through SessionService, never held elsewhere.
  // (The typescript-eslint rule, so the layer bans of the core rule above still apply to the same files.)
  {
    files: ['src/**/*.ts'],
    ignores: ['src/daemon/sessions/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)sessions/live-session(\\.js)?$', message: 'LiveSession is private to src/daemon/sessions: ask the session owner (session-service.ts).' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layerBan(['**/daemon/**', '**/worker/**', '**/cli/**', '**/web/**', '**/platform/**'], 'src/shared is below every other layer.'),
            { regex: NODE_BUILTIN_REGEX, message: 'src/shared holds pure contracts: Node effects (files, sockets, processes) belong in a platform layer (issue 11).' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layerBan(['**/daemon/**', '**/worker/**', '**/cli/**', '**/platform/**'], 'The browser page imports only src/shared contracts and its own modules.'),
            { regex: NODE_BUILTIN_REGEX, message: 'The browser page has no Node.' },
          ],
        },
      ],
    },
  },
);
