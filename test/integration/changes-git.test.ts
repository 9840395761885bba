// The change tracker against real git: tracked, untracked and deleted files between turn start and end, hostile
// names kept whole, and the user's index, stash and HEAD left exactly as they were.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeTracker } from '../../src/daemon/changes/change-tracker.js';

const log = pino({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'lmx-changes-'));
  dirs.push(d);
  return d;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
}

describe('ChangeTracker', () => {
  it('sees tracked edits, new untracked files (hostile names) and deletions, honours .gitignore, and touches nothing of the user', async () => {
    const dir = tmp();
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.txt'), '1\n2\n3\n');
    writeFileSync(join(dir, 'gone.txt'), 'bye\n');
    writeFileSync(join(dir, '.gitignore'), 'ignored/\n*.log\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'start');
    // The user has a staged change and an untracked file before the turn: neither is the turn's doing.
    writeFileSync(join(dir, 'a.txt'), '1\n2\n3\nstaged\n');
    git(dir, 'add', 'a.txt');
    writeFileSync(join(dir, 'before.txt'), 'was here\n');
    const statusBefore = git(dir, 'status', '--porcelain');
    const headBefore = git(dir, 'rev-parse', 'HEAD');

    const tracker = new ChangeTracker(() => dir, log);
    await tracker.begin();
    writeFileSync(join(dir, 'a.txt'), '1\nTWO\n3\nstaged\n');
    const hostile = '名字 $(whoami) `x` <at id=all>.md';
    writeFileSync(join(dir, hostile), 'new\nfile\nhere\n');
    unlinkSync(join(dir, 'gone.txt'));
    writeFileSync(join(dir, 'debug.log'), 'ignored\n');
    const set = await tracker.finish();

    expect(set?.files).toEqual([
      { path: 'a.txt', added: 1, deleted: 1 },
      { path: 'gone.txt', added: 0, deleted: 1 },
      { path: hostile, added: 3, deleted: 0 },
    ]);
    expect(set?.summary.hunk?.path).toBe(hostile);
    expect(set?.patch).toContain('+TWO');
    expect(tracker.latest).toBe(set);
    // The user's index and HEAD are as they were (only the turn's own edits show in status); no stash was made.
    expect(git(dir, 'status', '--porcelain')).toContain('MM a.txt');
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('a.txt\n');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(headBefore);
    expect(git(dir, 'stash', 'list')).toBe('');
    expect(statusBefore).toContain('M  a.txt');
  });

  it('outside a git working tree there is no change set', async () => {
    const dir = tmp();
    const tracker = new ChangeTracker(() => dir, log);
    await tracker.begin();
    writeFileSync(join(dir, 'x.txt'), 'x\n');
    expect(await tracker.finish()).toBeNull();
    expect(await tracker.inGit()).toBe(false);
  });

  it('a turn that changes nothing gives an empty change set', async () => {
    const dir = tmp();
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const tracker = new ChangeTracker(() => dir, log);
    await tracker.begin();
    expect((await tracker.finish())?.files).toEqual([]);
  });
});

describe('ChangeTracker and git\'s racy-clean check', () => {
  it('sees a same-size edit whose time equals the index\'s (the private index keeps the real one\'s time, so git re-reads the file)', async () => {
    const dir = tmp();
    git(dir, 'init', '-q');
    git(dir, 'config', 'core.trustctime', 'false');
    // The file and the index written in the same second: git cannot trust the stat data and compares the content.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    utimesSync(join(dir, 'a.txt'), at, at);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'start');
    utimesSync(join(dir, '.git', 'index'), at, at);
    const tracker = new ChangeTracker(() => dir, log);
    await tracker.begin();
    writeFileSync(join(dir, 'a.txt'), 'ONE\n');
    utimesSync(join(dir, 'a.txt'), at, at);
    const set = await tracker.finish();
    expect(set?.files).toEqual([{ path: 'a.txt', added: 1, deleted: 1 }]);
  });
});
