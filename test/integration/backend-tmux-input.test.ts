// Text typed or pasted through TmuxBackend reaches the program in the pane byte for byte (sha256 of what it read).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TmuxBackend } from '../../src/worker/backend/tmux.js';
import { newSessionId } from '../../src/shared/session-key.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const SENTINEL = '<<lmx-end-of-input>>';

// Reads its tty in raw mode (no line discipline: no ICRNL, no ^C signal, no echo, no 4 KiB line limit) until the
// sentinel, then writes every byte before it to a file. Optionally enables bracketed paste (mode 2004) first.
const READER = `
import fs from 'node:fs';
const [out, sentinel, bracketed] = process.argv.slice(2);
process.stdin.setRawMode(true);
if (bracketed === '1') process.stdout.write('\\x1b[?2004h');
const marker = Buffer.from(sentinel);
let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  const i = buf.indexOf(marker);
  if (i < 0) return;
  fs.writeFileSync(out + '.tmp', buf.subarray(0, i));
  fs.renameSync(out + '.tmp', out);
  process.exit(0);
});
fs.writeFileSync(out + '.ready', '');
`;

let server: TestTmuxServer;
let home: string;
let backend: TmuxBackend | null = null;

beforeEach(() => {
  server = makeTmuxServer();
  home = mkdtempSync(join(tmpdir(), 'lmx-home-'));
  writeFileSync(join(home, 'reader.mjs'), READER);
});

afterEach(async () => {
  await backend?.dispose();
  backend = null;
  await server.kill();
  rmSync(home, { recursive: true, force: true });
});

async function waitFor(path: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startReader(bracketed: boolean): Promise<{ backend: TmuxBackend; out: string }> {
  const out = join(home, 'received.bin');
  const b = new TmuxBackend({ sessionId: newSessionId(), home, socket: server.socket });
  backend = b;
  const res = await b.start({ argv: [process.execPath, join(home, 'reader.mjs'), out, SENTINEL, bracketed ? '1' : '0'], cwd: home, env: {}, cols: 120, rows: 40 });
  expect(res).toMatchObject({ ok: true });
  await waitFor(`${out}.ready`);
  return { backend: b, out };
}

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

const HOSTILE = [
  'C-c', 'Enter', ';', '\\;', 'x;', 'x\\;', "'single'", '"double"', '$(rm -rf /tmp/x)', '`id`', '%s', '%%', '-leading dash',
  '--', '-l', 'a\tb\tc', '你好，世界', '🚀✅ 👍🏽', '{', '}', '#{session_name}', '#[fg=red]', '~', 'Escape', 'C-m', 'end',
];

describe('TmuxBackend text input', () => {
  it('types each hostile single-line string literally', async () => {
    const { backend: b, out } = await startReader(false);
    for (const s of HOSTILE) expect(await b.sendText(s)).toEqual({ ok: true, value: undefined });
    expect(await b.sendText(SENTINEL)).toMatchObject({ ok: true });
    await waitFor(out);
    const got = readFileSync(out);
    const expected = Buffer.from(HOSTILE.join(''), 'utf8');
    expect(got.toString('utf8')).toBe(expected.toString('utf8'));
    expect(sha256(got)).toBe(sha256(expected));
  });

  // tmux's paste-buffer turns each LF into CR, exactly as a terminal does when text is pasted into it; no paste
  // markers are added because the reader did not enable bracketed paste.
  it('pastes 100 KB of multi-line hostile text as one block, LF → CR and nothing else', async () => {
    const { backend: b, out } = await startReader(false);
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 100_000; i++) lines.push(`${i} ${HOSTILE[i % HOSTILE.length]} ${'ü你🚀'.repeat(i % 7)}`);
    const text = lines.join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(100_000);
    expect(await b.sendText(text)).toMatchObject({ ok: true });
    expect(await b.sendText(SENTINEL)).toMatchObject({ ok: true });
    await waitFor(out);
    const got = readFileSync(out);
    const expected = Buffer.from(text.replace(/\n/g, '\r'), 'utf8');
    expect(got.includes(Buffer.from('\x1b[200~'))).toBe(false);
    expect(sha256(got)).toBe(sha256(expected));
    const buffers = await server.run(['list-buffers']);
    expect(buffers.stdout).toBe('');
  });

  it('wraps a paste in bracketed-paste markers when the program enabled mode 2004', async () => {
    const { backend: b, out } = await startReader(true);
    const text = "line one; `two`\n\tline $(three)\n🚀 last";
    expect(await b.sendText(text)).toMatchObject({ ok: true });
    expect(await b.sendText(SENTINEL)).toMatchObject({ ok: true });
    await waitFor(out);
    const expected = `\x1b[200~${text.replace(/\n/g, '\r')}\x1b[201~`;
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });

  it('sends named keys as the bytes the key table promises', async () => {
    const { backend: b, out } = await startReader(false);
    for (const k of ['esc', 'tab', 'enter', 'up', 'page_down', 'ctrl_c'] as const) expect(await b.sendKey(k)).toMatchObject({ ok: true });
    expect(await b.sendText(SENTINEL)).toMatchObject({ ok: true });
    await waitFor(out);
    expect(readFileSync(out, 'utf8')).toBe('\x1b\t\r\x1b[A\x1b[6~\x03');
  });
});
