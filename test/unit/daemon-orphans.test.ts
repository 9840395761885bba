import { describe, expect, it } from 'vitest';
import { classifyTmuxSessions } from '../../src/platform/tmux-sessions.js';

describe('classifyTmuxSessions', () => {
  it.each([
    ['owned sessions are not orphans', ['lmx-0123abcd'], ['lmx-0123abcd'], { orphans: [], diag: [] }],
    ['an unowned live name is an orphan', ['lmx-0123abcd', 'lmx-ffff0000'], ['lmx-0123abcd'], { orphans: ['lmx-ffff0000'], diag: [] }],
    ['diagnostic panes are listed apart', ['lmx-diag-0123abcd'], [], { orphans: [], diag: ['lmx-diag-0123abcd'] }],
    ["the user's own sessions are never touched", ['main', 'lmx', 'lmx-notahexid', 'work-lmx-01234567'], [], { orphans: [], diag: [] }],
  ] as const)('%s', (_n, names, owned, expected) => {
    expect(classifyTmuxSessions(names, new Set(owned))).toEqual(expected);
  });
});
