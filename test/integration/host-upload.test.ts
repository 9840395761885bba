// The host's side of an attachment copy, run as the daemon runs it there: `node <bundle>/host-agent.js put`, the
// header and bytes on stdin (real files, real links). What came from the chat is checked on arrival: a stored name
// with a folder part or shell characters, a damaged file, a folder that is a link — refused, nothing written.
// Needs `npm run build` (the bundle is what ships to a host).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostUploadInput, HOST_UPLOAD_VERB, type HostUploadHeader } from '../../src/shared/host-upload-protocol.js';

const AGENT = join(import.meta.dirname, '..', '..', 'dist', 'worker', 'bundle', 'host-agent.js');
const FOLDER = '.larkmux/uploads/2026-12-04';
const BODY = Buffer.concat([Buffer.from('第一行 🎉\n'), randomBytes(70_000)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let cwd: string;
beforeEach(() => {
  if (!existsSync(AGENT)) throw new Error('dist/worker/bundle is missing: run `npm run build` first');
  cwd = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-put-')));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function put(header: Partial<HostUploadHeader> & Record<string, unknown>, bytes: Buffer = BODY): { code: number | null; result: unknown } {
  const full = { cwd, folder: FOLDER, name: '120000-abcdef.txt', bytes: bytes.length, sha256: sha(bytes), ...header } as HostUploadHeader;
  const r = spawnSync(process.execPath, [AGENT, HOST_UPLOAD_VERB], { input: hostUploadInput(full, bytes), encoding: 'utf8' });
  return { code: r.status, result: JSON.parse(r.stdout.trim()) };
}
const written = () => (existsSync(join(cwd, FOLDER)) ? readdirSync(join(cwd, FOLDER)) : []);

describe('host-agent.js put', () => {
  it('writes the file into the session\'s upload folder with the same bytes (0600, no .part left)', () => {
    expect(put({})).toEqual({ code: 0, result: { ok: true } });
    expect(written()).toEqual(['120000-abcdef.txt']);
    expect(sha(readFileSync(join(cwd, FOLDER, '120000-abcdef.txt')))).toBe(sha(BODY));
    expect(statSync(join(cwd, FOLDER, '120000-abcdef.txt')).mode & 0o777).toBe(0o600);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a name with a folder part', { name: '../escape.txt' }],
    ['a name with shell characters', { name: 'a$(touch x).txt' }],
    ['a folder other than the day\'s uploads', { folder: '../../etc' }],
    ['a relative working folder', { cwd: 'srv/app' }],
    ['a damaged file', { sha256: sha(Buffer.from('other')) }],
    ['fewer bytes than said', { bytes: BODY.length + 1 }],
  ])('refuses %s and writes nothing', (_what, header) => {
    expect(put(header)).toMatchObject({ code: 1, result: { ok: false } });
    expect(written()).toEqual([]);
    expect(existsSync(join(cwd, '..', 'escape.txt'))).toBe(false);
  });

  it('refuses an upload folder that is a link, naming the level', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'lmx-put-away-'));
    try {
      mkdirSync(join(cwd, '.larkmux'));
      symlinkSync(elsewhere, join(cwd, '.larkmux', 'uploads'));
      expect(put({})).toEqual({ code: 1, result: { ok: false, error: '.larkmux/uploads is a link or not a folder', refused: '.larkmux/uploads' } });
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a session folder that is gone is an error in words', () => {
    rmSync(cwd, { recursive: true });
    expect(put({})).toMatchObject({ code: 1, result: { ok: false, error: expect.stringMatching(/^ENOENT: /) } });
    mkdirSync(cwd);
  });
});
