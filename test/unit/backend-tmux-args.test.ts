import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { classifyTmuxError, escapeTmuxArg } from '../../src/platform/tmux-runner.js';
import { quoteShellArg } from '../../src/shared/shell-quote.js';
import { escapeTmuxFormat } from '../../src/worker/backend/tmux-client.js';

describe('escapeTmuxArg (tmux splits commands at an argument ending in ";")', () => {
  it.each([
    ['plain', 'plain'],
    [';', '\\;'],
    ['x;', 'x\\;'],
    ['\\;', '\\\\;'],
    ['a;b', 'a;b'],
    ['', ''],
    ['ends with \\', 'ends with \\'],
  ])('%j → %j', (input, expected) => {
    expect(escapeTmuxArg(input)).toBe(expected);
  });
});

describe('escapeTmuxFormat', () => {
  it.each([
    ['/tmp/a', '/tmp/a'],
    ['/tmp/#{session_name}', '/tmp/##{session_name}'],
    ['##', '####'],
  ])('%j → %j', (input, expected) => {
    expect(escapeTmuxFormat(input)).toBe(expected);
  });
});

describe('quoteShellArg', () => {
  const hostile = [
    'plain', '', "it's", '"double"', '$(touch /tmp/lmx-pwned)', '`id`', 'a b\tc', 'back\\slash', "''", '\n', '-n', '#{x}', '你好 🚀', '*', '~',
  ];
  it.each(hostile)('%j survives a round trip through /bin/sh', (arg) => {
    const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${quoteShellArg(arg)}`], { encoding: 'utf8' });
    expect(out).toBe(arg);
  });
  it('uses the close-escape-reopen form for a single quote', () => {
    expect(quoteShellArg("it's")).toBe(`'it'\\''s'`);
  });
});

describe('classifyTmuxError', () => {
  it.each([
    ['no server running on /tmp/tmux-0/x', 'no_server'],
    ['error connecting to /tmp/tmux-0/x (No such file or directory)', 'no_server'],
    ['server exited unexpectedly', 'no_server'],
    ["can't find session: lmx-1", 'not_found'],
    ["can't find pane: %9", 'not_found'],
    ['no current target', 'not_found'],
    ['error connecting to /tmp/tmux-0/x (Permission denied)', 'tmux_error'],
    ['unknown command: frob', 'tmux_error'],
  ])('%j → %s', (stderr, code) => {
    expect(classifyTmuxError(stderr)).toBe(code);
  });
});
