import { describe, expect, it } from 'vitest';
import { takeoverReadiness, type PaneForeground } from '../../src/worker/lifecycle/takeover-ready.js';

const fg = (alternateScreen: boolean, command: string): PaneForeground => ({ alternateScreen, command });

describe('takeoverReadiness: a taken-over pane with a program in the foreground is ready for keys at once', () => {
  it.each([
    // [what, hostsPrograms, foreground, ready at once]
    ['shell running top (alternate screen)', true, fg(true, 'top'), true],
    ['shell running less', true, fg(true, 'less'), true],
    ['shell running vim with an unknown name', true, fg(true, ''), true],
    ['shell running sleep (not full-screen, still not the shell)', true, fg(false, 'sleep'), true],
    ['shell running python3 -i', true, fg(false, 'python3'), true],
    ['shell at its prompt (bash)', true, fg(false, 'bash'), false],
    ['login shell shown as -bash', true, fg(false, '-bash'), false],
    ['zsh at its prompt', true, fg(false, 'zsh'), false],
    ['fish at its prompt', true, fg(false, 'fish'), false],
    ['tmux could not name the foreground', true, fg(false, ''), false],
    ['nothing known about the pane', true, null, false],
    ['a CLI (Claude) drawing on the alternate screen keeps its gate', false, fg(true, 'claude'), false],
    ['a CLI (node) in its own pane keeps its gate', false, fg(false, 'node'), false],
  ] as const)('%s', (_what, hostsPrograms, foreground, atOnce) => {
    const r = takeoverReadiness(hostsPrograms, foreground);
    expect(r.atOnce).toBe(atOnce);
    if (r.atOnce) expect(r.reason).toMatch(/foreground/);
  });
});
