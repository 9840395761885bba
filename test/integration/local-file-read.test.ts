// Reading a file a pane (or a CLI's answer) named: a regular file is read, anything else is refused at once, and a read
// that hangs holds one lane, not libuv's thread pool (issue 31 item 2). Real files, FIFOs, devices and sockets.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileAccess } from '../../src/platform/file-access.js';
import { describeLocalRefusal, localFileLane, readLocalFile, type LocalRead } from '../../src/platform/local-file-read.js';

let dir: string;
let sock: Server;
/** Files come from `dir` (and /dev, so devices reach the kind check); `outside` is a sibling nobody allowed. */
let access: FileAccess;
let outside: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lmx-file-read-'));
  outside = mkdtempSync(join(tmpdir(), 'lmx-file-outside-'));
  access = { roots: [dir, '/dev'], home: join(dir, 'home') };
  writeFileSync(join(outside, 'shadow'), 'not to be sent');
  symlinkSync(join(outside, 'shadow'), join(dir, 'link-to-shadow'));
  symlinkSync(outside, join(dir, 'link-to-outside-folder'));
  mkdirSync(join(dir, 'home', 'logs'), { recursive: true });
  writeFileSync(join(dir, 'home', 'config.json'), '{"appSecret":"s"}');
  writeFileSync(join(dir, 'home', 'logs', 'larkmux.log'), 'log');
  writeFileSync(join(dir, 'home', 'notes.md'), 'a user file in the home');
  writeFileSync(join(dir, 'report.md'), '# report\n');
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(4096, 7));
  mkdirSync(join(dir, 'folder'));
  for (const f of ['f1', 'f2', 'f3', 'f4', 'f5']) execFileSync('mkfifo', [join(dir, f)]);
  symlinkSync(join(dir, 'f1'), join(dir, 'link-to-fifo'));
  symlinkSync('report.md', join(dir, 'link-to-report'));
  sock = createServer();
  await new Promise<void>((r) => sock.listen(join(dir, 'a.sock'), r));
});

afterAll(async () => {
  await new Promise<void>((r) => sock.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function refusal(r: LocalRead): string {
  return r.ok ? 'read' : describeLocalRefusal(r);
}

describe('readLocalFile', () => {
  it.each([
    ['report.md', 'read'],
    ['link-to-report', 'read'],
    ['f1', 'not a regular file (a FIFO); only regular files are sent'],
    ['link-to-fifo', 'not a regular file (a FIFO); only regular files are sent'],
    ['folder', 'not a regular file (a folder); only regular files are sent'],
    ['a.sock', 'not a regular file (a socket); only regular files are sent'],
    ['/dev/zero', 'not a regular file (a device); only regular files are sent'],
    ['/dev/null', 'not a regular file (a device); only regular files are sent'],
    ['missing.txt', 'no such file'],
    ['report.md/below', 'no such file'],
    ['home/notes.md', 'read'],
    ['home/config.json', "one of larkmux's own files (config, stores, logs in LARKMUX_HOME), which are never sent"],
    ['home/logs/larkmux.log', "one of larkmux's own files (config, stores, logs in LARKMUX_HOME), which are never sent"],
    ['link-to-shadow', 'outside'],
    ['link-to-outside-folder/shadow', 'outside'],
    ['OUTSIDE/shadow', 'outside'],
    ['/etc/hostname', 'outside'],
  ])('%s → %s', async (name, expected) => {
    const path = name.startsWith('/') ? name : name.startsWith('OUTSIDE/') ? join(outside, name.slice(8)) : join(dir, name);
    const r = await readLocalFile(path, 1024, access);
    if (expected === 'outside') {
      // The refusal names the allowed roots (resolved), so the person knows where to put the file.
      expect(refusal(r)).toBe(`outside the folders larkmux sends from (${realpathSync(dir)}, /dev): the session's folder and answerFileRoots in config.json`);
      return;
    }
    expect(refusal(r)).toBe(expected);
    if (r.ok) expect(r.data.toString('utf8')).toBe(readFileSync(path, 'utf8'));
  });

  it('five FIFOs at once are all refused, and every other file read still answers meanwhile', async () => {
    const fifos = ['f1', 'f2', 'f3', 'f4', 'f5'].map((f) => readLocalFile(join(dir, f), 1024, access));
    const others = Array.from({ length: 8 }, () => readFile(join(dir, 'report.md'), 'utf8'));
    expect(await Promise.all(others)).toEqual(Array(8).fill('# report\n'));
    for (const r of await Promise.all(fifos)) expect(r).toEqual({ ok: false, reason: 'not_regular', kind: 'fifo' });
  });

  it('reads at most limit + 1 bytes of a larger file', async () => {
    const r = await readLocalFile(join(dir, 'big.bin'), 100, access);
    expect(r.ok && r.data.length).toBe(101);
    const whole = await readLocalFile(join(dir, 'big.bin'), 10_000, access);
    expect(whole.ok && whole.data.equals(readFileSync(join(dir, 'big.bin')))).toBe(true);
  });

  it('a read that hangs is given up at its deadline, holds only its lane, and the lane serves again once it returns', async () => {
    let release!: () => void;
    const hung = localFileLane.run(() => new Promise<void>((r) => (release = r)));
    const late = await readLocalFile(join(dir, 'report.md'), 1024, access, 300);
    expect(late).toEqual({ ok: false, reason: 'too_slow' });
    expect(describeLocalRefusal(late as Extract<LocalRead, { ok: false }>)).toContain('could not be read within');
    // The daemon's other file work does not queue behind it.
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toBe('# report\n');
    release();
    await hung;
    const again = await readLocalFile(join(dir, 'report.md'), 1024, access);
    expect(again.ok && again.data.toString('utf8')).toBe('# report\n');
  });
});
