// Uploads never follow a link (issue 31 item 5) and stay out of the person's commits: real files, real links, real git.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { translator } from '../../src/shared/i18n.js';
import { typedForTurn } from '../../src/daemon/inbound/attachment-turn.js';
import { uploadFolder } from '../../src/daemon/inbound/attachment-plan.js';
import { excludeUploads, withUploadsExcluded } from '../../src/daemon/inbound/git-exclude.js';
import { saveAttachments } from '../../src/daemon/inbound/save-attachments.js';
import { UploadDir } from '../../src/platform/upload-dir.js';
import type { ImAdapter, InboundAttachment, InboundMessage } from '../../src/daemon/im/types.js';

const BODY = Buffer.from('uploaded bytes\n');
const FILE: InboundAttachment = { kind: 'file', key: 'f_1', name: 'a.txt', messageId: 'om_1' };

function fakeIm(texts: string[] = []): ImAdapter {
  return {
    downloadAttachment: async () => ({ ok: true, value: new Uint8Array(BODY) }),
    sendText: async (_p: unknown, text: string) => { texts.push(text); return { ok: true, value: { messageId: 'om_x' } }; },
  } as unknown as ImAdapter;
}

/** Every file below `dir`, relative. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-C', cwd, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd } });
}

describe('the upload folder', () => {
  const dirs: string[] = [];
  const tmp = (p: string) => {
    const d = mkdtempSync(join(tmpdir(), p));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const now = new Date();
  const day = uploadFolder(now).split('/')[2]!;

  it('a plain folder gets the file, 0600, under the day', async () => {
    const cwd = tmp('lmx-up-');
    const res = await saveAttachments(fakeIm(), cwd, [FILE], now);
    expect(res.blocked).toBeUndefined();
    expect(res.saved).toHaveLength(1);
    expect(readFileSync(join(cwd, res.saved[0]!.path))).toEqual(BODY);
    expect(statSync(join(cwd, res.saved[0]!.path)).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, '.larkmux', 'uploads')).mode & 0o777).toBe(0o700);
    expect(filesUnder(cwd)).toEqual([res.saved[0]!.path]);
  });

  it.each([
    ['.larkmux', '.larkmux'],
    ['.larkmux/uploads', '.larkmux/uploads'],
    [`.larkmux/uploads/${day}`, `.larkmux/uploads/${day}`],
  ])('%s as a link to another folder: refused, nothing written there or anywhere', async (level, refused) => {
    const cwd = tmp('lmx-up-');
    const elsewhere = tmp('lmx-elsewhere-');
    const parent = level.split('/').slice(0, -1).join('/');
    if (parent) mkdirSync(join(cwd, parent), { recursive: true });
    symlinkSync(elsewhere, join(cwd, level));
    const texts: string[] = [];
    const res = await saveAttachments(fakeIm(texts), cwd, [FILE], now);
    expect(res.blocked).toBe(refused);
    expect(res.saved).toEqual([]);
    expect(filesUnder(elsewhere)).toEqual([]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(filesUnder(cwd)).toEqual([]);
  });

  it('a dangling link and a plain file in the way are refused too', async () => {
    const cwd = tmp('lmx-up-');
    mkdirSync(join(cwd, '.larkmux'));
    symlinkSync(join(cwd, 'nowhere'), join(cwd, '.larkmux', 'uploads'));
    expect((await saveAttachments(fakeIm(), cwd, [FILE], now)).blocked).toBe('.larkmux/uploads');
    expect(existsSync(join(cwd, 'nowhere'))).toBe(false);
    const cwd2 = tmp('lmx-up-');
    writeFileSync(join(cwd2, '.larkmux'), 'a file');
    expect((await saveAttachments(fakeIm(), cwd2, [FILE], now)).blocked).toBe('.larkmux');
  });

  it('the person is told in the chat which folder is a link; a model CLI gets a note without the file\'s name', async () => {
    const cwd = tmp('lmx-up-');
    const elsewhere = tmp('lmx-elsewhere-');
    symlinkSync(elsewhere, join(cwd, '.larkmux'));
    const texts: string[] = [];
    const msg = {
      kind: 'message', appId: 'a', messageId: 'om_2', place: { chatId: 'oc', chatType: 'p2p' }, senderId: 'ou', senderType: 'user', text: 'x', mentionsBot: false, createTime: 0,
      attachments: [{ ...FILE, name: 'secret-plan.txt' }],
    } satisfies InboundMessage;
    const turn = { im: fakeIm(texts), cwd, cli: 'codex' as const, limits: undefined, t: translator('en'), log: createLogger({ file: join(tmp('lmx-log-'), 'log') }), place: msg.place, replyTo: 'om_2' };
    const typed = await typedForTurn(turn, 'look', msg);
    expect(texts).toEqual([expect.stringMatching(/^Nothing was saved: \.larkmux in the session's folder is a symbolic link/)]);
    expect(typed.text).toBe('look\n\n(not saved: a file: the upload folder is a link)');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a file being written is never listed under a visible name: a watcher skipping dotfiles sees it whole or not at all', async () => {
    const cwd = tmp('lmx-up-aside-');
    const folder = uploadFolder(now);
    const opened = await UploadDir.open(cwd, folder);
    if (!opened.ok) throw new Error(`refused ${opened.refused}`);
    const seen = new Set<string>();
    const watcher = watch(join(cwd, folder), (_event, name) => { if (name) seen.add(String(name)); });
    try {
      const bytes = Buffer.alloc(4 * 1024 * 1024, 7);
      await opened.dir.write('120000-abcdef.bin', bytes);
      await opened.dir.write('120001-abcdef.png', bytes.subarray(0, 1000));
      // inotify delivers the events on the next turns of the loop.
      await new Promise((r) => setTimeout(r, 200));
      expect(readFileSync(join(cwd, folder, '120000-abcdef.bin')).equals(bytes)).toBe(true);
    } finally {
      watcher.close();
      await opened.dir.close();
    }
    const visible = [...seen].filter((n) => !n.startsWith('.')).sort();
    expect(visible).toEqual(['120000-abcdef.bin', '120001-abcdef.png']);
    expect([...seen].length).toBeGreaterThan(2);
    expect(readdirSync(join(cwd, folder)).sort()).toEqual(['120000-abcdef.bin', '120001-abcdef.png']);
  });

  it('a write that fails leaves no aside file behind', async () => {
    const cwd = tmp('lmx-up-fail-');
    const folder = uploadFolder(now);
    const opened = await UploadDir.open(cwd, folder);
    if (!opened.ok) throw new Error(`refused ${opened.refused}`);
    // A non-empty folder at the file's name: the rename fails after the bytes were written aside.
    mkdirSync(join(cwd, folder, '120002-abcdef.bin', 'inside'), { recursive: true });
    await expect(opened.dir.write('120002-abcdef.bin', Buffer.from('x'))).rejects.toThrow();
    await opened.dir.close();
    expect(readdirSync(join(cwd, folder))).toEqual(['120002-abcdef.bin']);
  });
});

describe('uploads stay out of git', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it.each<[string, string | null]>([
    ['', '# chat uploads (larkmux)\n.larkmux/\n'],
    ['*.log', '*.log\n# chat uploads (larkmux)\n.larkmux/\n'],
    ['*.log\n', '*.log\n# chat uploads (larkmux)\n.larkmux/\n'],
    ['.larkmux/\n', null],
    ['  /.larkmux\n', null],
    ['.larkmux-other/\n', '.larkmux-other/\n# chat uploads (larkmux)\n.larkmux/\n'],
  ])('exclude file %j becomes %j', (current, want) => {
    expect(withUploadsExcluded(current)).toBe(want);
  });

  it('a repository and a linked worktree: `.larkmux/` lands once in the shared info/exclude, and `git add -A` leaves uploads out', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'lmx-repo-'));
    dirs.push(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'README'), 'hi\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
    const sub = join(repo, 'pkg');
    mkdirSync(sub);
    const texts: string[] = [];
    const msg = {
      kind: 'message', appId: 'a', messageId: 'om_3', place: { chatId: 'oc', chatType: 'p2p' }, senderId: 'ou', senderType: 'user', text: 'x', mentionsBot: false, createTime: 0,
      attachments: [FILE],
    } satisfies InboundMessage;
    const logDir = mkdtempSync(join(tmpdir(), 'lmx-log-'));
    dirs.push(logDir);
    const turn = { im: fakeIm(texts), cwd: sub, cli: 'shell' as const, limits: undefined, t: translator('en'), log: createLogger({ file: join(logDir, 'log') }), place: msg.place, replyTo: 'om_3' };
    const typed = await typedForTurn(turn, 'ls', msg);
    expect(existsSync(join(sub, typed.text.split('\n')[1]!))).toBe(true);
    const exclude = join(repo, '.git', 'info', 'exclude');
    expect(readFileSync(exclude, 'utf8').split('\n').filter((l) => l === '.larkmux/')).toHaveLength(1);
    expect(await excludeUploads(sub)).toBe('present');
    git(repo, 'add', '-A');
    expect(git(repo, 'status', '--porcelain')).not.toMatch(/larkmux/);

    // A linked worktree has a `.git` file; git's own answer for info/exclude is the shared one.
    const wt = `${repo}-wt`;
    dirs.push(wt);
    git(repo, 'worktree', 'add', '-q', wt);
    expect(await excludeUploads(wt)).toBe('present');
    mkdirSync(join(wt, '.larkmux', 'uploads'), { recursive: true });
    writeFileSync(join(wt, '.larkmux', 'uploads', 'x.txt'), 'x');
    expect(git(wt, 'status', '--porcelain', '--untracked-files=all')).not.toMatch(/larkmux/);
    expect(await excludeUploads(tmpdir())).toBe('not-a-repo');
  });
});
