// Reading a file a pane (or a CLI's answer) named: a regular file is read, anything else is refused at once, and a read
// that hangs holds one lane, not libuv's thread pool (issue 31 item 2). Real files, FIFOs, devices and sockets.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLocalRefusal, localFileLane, readLocalFile, type LocalRead } from '../../src/daemon/outbound/local-file-read.js';

let dir: string;
let sock: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lmx-file-read-'));
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
  ])('%s → %s', async (name, expected) => {
    const r = await readLocalFile(name.startsWith('/') ? name : join(dir, name), 1024);
    expect(refusal(r)).toBe(expected);
    if (r.ok) expect(r.data.toString('utf8')).toBe('# report\n');
  });

  it('five FIFOs at once are all refused, and every other file read still answers meanwhile', async () => {
    const fifos = ['f1', 'f2', 'f3', 'f4', 'f5'].map((f) => readLocalFile(join(dir, f), 1024));
    const others = Array.from({ length: 8 }, () => readFile(join(dir, 'report.md'), 'utf8'));
    expect(await Promise.all(others)).toEqual(Array(8).fill('# report\n'));
    for (const r of await Promise.all(fifos)) expect(r).toEqual({ ok: false, reason: 'not_regular', kind: 'fifo' });
  });

  it('reads at most limit + 1 bytes of a larger file', async () => {
    const r = await readLocalFile(join(dir, 'big.bin'), 100);
    expect(r.ok && r.data.length).toBe(101);
    const whole = await readLocalFile(join(dir, 'big.bin'), 10_000);
    expect(whole.ok && whole.data.equals(readFileSync(join(dir, 'big.bin')))).toBe(true);
  });

  it('a read that hangs is given up at its deadline, holds only its lane, and the lane serves again once it returns', async () => {
    let release!: () => void;
    const hung = localFileLane.run(() => new Promise<void>((r) => (release = r)));
    const late = await readLocalFile(join(dir, 'report.md'), 1024, 300);
    expect(late).toEqual({ ok: false, reason: 'too_slow' });
    expect(describeLocalRefusal(late as Extract<LocalRead, { ok: false }>)).toContain('could not be read within');
    // The daemon's other file work does not queue behind it.
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toBe('# report\n');
    release();
    await hung;
    const again = await readLocalFile(join(dir, 'report.md'), 1024);
    expect(again.ok && again.data.toString('utf8')).toBe('# report\n');
  });
});
