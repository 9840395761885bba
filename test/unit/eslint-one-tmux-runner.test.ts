// The lint rule that keeps every tmux process in src/platform/tmux-runner.ts (issue 28): a literal `'tmux'` was caught
// before; a bypass through a constant, a variable, a parameter or a tmux-named option must be caught too.
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
// @ts-expect-error -- a plain-JS ESLint rule without type declarations
import { oneTmuxRunner } from '../../scripts/eslint/one-tmux-runner.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' } });

const bypass = [{ messageId: 'bypass' }];
const head = "import { execFile, spawn } from 'node:child_process'; import * as cp from 'node:child_process';\n";

tester.run('larkmux/one-tmux-runner', oneTmuxRunner, {
  valid: [
    `${head}execFile('git', ['status']);`,
    `${head}spawn('ps', ['-A']);`,
    `${head}const bin = 'ps'; execFile(bin, []);`,
    `${head}function run(file: string) { execFile(file, []); } run('ps');`,
    `${head}cp.spawn(process.execPath, ['x']);`,
  ],
  invalid: [
    { code: `${head}execFile('tmux', ['ls']);`, errors: bypass },
    { code: `${head}const bin = 'tmux'; execFile(bin, ['ls']);`, errors: bypass },
    { code: `${head}const TMUX = '/usr/bin/tmux'; spawn(TMUX, []);`, errors: bypass },
    { code: `${head}const a = 'tmux'; const b = a; cp.spawnSync(b, []);`, errors: bypass },
    { code: `${head}let p = 'x'; p = 'tmux'; execFile(p, []);`, errors: bypass },
    { code: `${head}function f(o: { tmuxBin?: string }) { spawn(o.tmuxBin ?? 'x', []); }`, errors: bypass },
    { code: `${head}function f(bin = 'tmux') { execFile(bin, []); }`, errors: bypass },
    { code: `${head}function run(file: string) { execFile(file, []); } run('tmux');`, errors: bypass },
    { code: `${head}cp.execSync('tmux list-sessions');`, errors: bypass },
    { code: `${head}execFile(\`tmux\`, []);`, errors: bypass },
  ],
});
