// /adopt's pure decisions: which process in a pane is a CLI, which panes are offered, and the take-over's tmux chain.
import { describe, expect, it } from 'vitest';
import { adoptCandidates, cliOfProcess, linkPaneArgs, parseAdoptPanes, parsePsTable, type AdoptPaneRow, type ProcRow } from '../../src/shared/adopt-candidates.js';

const custom = { command: '/opt/bin/mytui', args: [], readyPattern: '>' };

describe('cliOfProcess', () => {
  it.each([
    ['claude', 'claude-code', 'claude-code'],
    ['/home/u/.local/bin/claude --resume 1234', 'shell', 'claude-code'],
    ['node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', 'shell', 'claude-code'],
    ['node /usr/lib/node_modules/@openai/codex/bin/codex.js', 'claude-code', 'codex'],
    ['codex resume abc', 'claude-code', 'codex'],
    ['node /usr/local/lib/node_modules/@google/gemini-cli/dist/index.js', 'claude-code', 'gemini'],
    ['-bash', 'shell', 'shell'],
    ['/bin/zsh -l', 'shell', 'shell'],
    ['-bash', 'claude-code', null],
    ['bash', 'codex', null],
    ['sleep 100000', 'shell', null],
    ['vim claude.md', 'claude-code', null],
    ['/opt/bin/mytui --x', custom, custom],
    ['mytui', 'claude-code', null],
  ] as const)('%s (bot cli %j) → %j', (args, bot, want) => {
    expect(cliOfProcess(args, bot)).toEqual(want);
  });
});

describe('parsers', () => {
  it('ps rows keep argv with spaces; bad lines are skipped', () => {
    expect(parsePsTable('  12     1 pts/3    claude --resume a b\nnonsense\n 40 12 ?        sleep 5\n')).toEqual([
      { pid: 12, ppid: 1, tty: 'pts/3', args: 'claude --resume a b' },
      { pid: 40, ppid: 12, tty: '?', args: 'sleep 5' },
    ]);
  });
  it('pane rows keep a current path with a tab in it; malformed rows are skipped', () => {
    const rows = parseAdoptPanes('mine\t@1\t0\t1\t%2\t/dev/pts/3\t12\t0\t/w/a\tb\nbad\t@x\t0\t1\t%2\t/dev/pts/3\t12\t0\t/w\n');
    expect(rows).toEqual([{ tmuxSession: 'mine', windowId: '@1', windowIndex: 0, windowPanes: 1, paneId: '%2', paneTty: '/dev/pts/3', panePid: 12, paneDead: false, currentPath: '/w/a\tb' }]);
  });
});

function pane(p: Partial<AdoptPaneRow> & Pick<AdoptPaneRow, 'paneId' | 'panePid' | 'paneTty'>): AdoptPaneRow {
  return { tmuxSession: 'mine', windowId: `@${p.paneId.slice(1)}`, windowIndex: 0, windowPanes: 1, paneDead: false, currentPath: '/w', ...p };
}

describe('adoptCandidates', () => {
  const procs: ProcRow[] = [
    { pid: 100, ppid: 1, tty: 'pts/1', args: '-bash' },
    { pid: 101, ppid: 100, tty: 'pts/1', args: 'claude' },
    { pid: 102, ppid: 101, tty: '?', args: 'codex' }, // a tool's child without the pane's tty: not the pane's CLI
    { pid: 200, ppid: 1, tty: 'pts/2', args: 'bash' },
    { pid: 300, ppid: 1, tty: 'pts/3', args: 'sleep 100000' },
    { pid: 400, ppid: 1, tty: 'pts/4', args: 'claude' },
    { pid: 500, ppid: 1, tty: 'pts/5', args: 'codex' },
    { pid: 600, ppid: 1, tty: 'pts/6', args: 'gemini' },
  ];
  const panes: AdoptPaneRow[] = [
    pane({ paneId: '%1', panePid: 100, paneTty: '/dev/pts/1', tmuxSession: 'work' }),
    pane({ paneId: '%2', panePid: 200, paneTty: '/dev/pts/2', tmuxSession: 'shell' }),
    pane({ paneId: '%3', panePid: 300, paneTty: '/dev/pts/3', tmuxSession: 'keepalive' }),
    // larkmux's own session: never offered
    pane({ paneId: '%4', panePid: 400, paneTty: '/dev/pts/4', tmuxSession: 'lmx-0123abcd' }),
    // already adopted: the window shows in the person's session and, linked, in an lmx- session
    pane({ paneId: '%5', panePid: 500, paneTty: '/dev/pts/5', tmuxSession: 'codexing' }),
    pane({ paneId: '%5', panePid: 500, paneTty: '/dev/pts/5', tmuxSession: 'lmx-99999999' }),
    // a CLI that shares its window
    pane({ paneId: '%6', panePid: 600, paneTty: '/dev/pts/6', tmuxSession: 'split', windowPanes: 2 }),
  ];

  it('a Claude bot: the Claude under a shell is offered (its own pid), nothing larkmux owns, a split window apart', () => {
    const r = adoptCandidates(panes, procs, 'claude-code', (pid) => (pid === 101 ? '/w/app' : undefined));
    expect(r.candidates.map((c) => [c.tmuxSession, c.paneId, c.cli, c.cliPid, c.cwd])).toEqual([['work', '%1', 'claude-code', 101, '/w/app']]);
    expect(r.notAdoptable).toEqual([{ paneId: '%6', tmuxSession: 'split', reason: 'shared_window' }]);
  });
  it('a shell bot also offers the plain shell pane, never the sleep', () => {
    const r = adoptCandidates(panes, procs, 'shell');
    expect(r.candidates.map((c) => [c.tmuxSession, c.cli, c.cliPid])).toEqual([['shell', 'shell', 200], ['work', 'claude-code', 101]]);
  });
  it('a dead pane is not offered', () => {
    const r = adoptCandidates([pane({ paneId: '%1', panePid: 100, paneTty: '/dev/pts/1', paneDead: true })], procs, 'claude-code');
    expect(r.candidates).toEqual([]);
  });
});

describe('linkPaneArgs', () => {
  it("links the pane's window over a placeholder in the new lmx session, by ids only", () => {
    expect(linkPaneArgs('lmx-0123abcd', '@7')).toEqual([
      ['new-session', '-d', '-s', 'lmx-0123abcd', '-x', '80', '-y', '24', '--', 'sleep', '30'],
      ['link-window', '-k', '-s', '@7', '-t', '=lmx-0123abcd:^'],
    ]);
  });
});
