// A bot's env reaches the CLI in tmux without appearing on any command line (issue 13 finding 3): tmux's server
// keeps the argv of the client that started it for its whole life, and `ps` shows every argv to every local user.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src/shared/session-key.js';
import { TmuxBackend } from '../../src/worker/backend/tmux.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const DUMP = `
import fs from 'node:fs';
const [out] = process.argv.slice(2);
fs.writeFileSync(out, JSON.stringify({ key: process.env.BOT_API_KEY ?? null, odd: process.env.ODD ?? null, pid: process.pid }));
setInterval(() => {}, 1000);
`;

let server: TestTmuxServer;
let home: string;
let backend: TmuxBackend | null = null;

beforeEach(() => {
  server = makeTmuxServer();
  home = mkdtempSync(join(tmpdir(), 'lmx-env-'));
  writeFileSync(join(home, 'dump.mjs'), DUMP);
});

afterEach(async () => {
  await backend?.dispose();
  backend = null;
  await server.kill();
  rmSync(home, { recursive: true, force: true });
});

function cmdlinesContaining(needle: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const c = readFileSync(`/proc/${d}/cmdline`);
      if (c.includes(needle)) out.push(`${d}: ${c.toString().replace(/\0/g, ' ')}`);
    } catch { /* gone */ }
  }
  return out;
}

async function waitFor(path: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('bot env into tmux', () => {
  it('the CLI sees the values exactly; no tmux server, tmux client or CLI has them on its command line; nothing is left on disk', async () => {
    const key = `sk-${randomBytes(12).toString('hex')}`;
    const odd = `it's "q" $(id) \`id\` \\ ; #{session_name}\nsecond line ${randomBytes(4).toString('hex')}`;
    const out = join(home, 'dump.json');
    backend = new TmuxBackend({ sessionId: newSessionId(), home, socket: server.socket });
    // This launch starts the tmux server: its argv is what `ps` shows for the server's whole life.
    const res = await backend.start({ argv: [process.execPath, join(home, 'dump.mjs'), out], cwd: home, env: { BOT_API_KEY: key, ODD: odd }, cols: 80, rows: 24 });
    expect(res.ok).toBe(true);
    await waitFor(out);
    const dump = JSON.parse(readFileSync(out, 'utf8'));
    expect(dump.key).toBe(key);
    expect(dump.odd).toBe(odd);
    expect(cmdlinesContaining(key)).toEqual([]);
    expect(cmdlinesContaining(odd.split('\n')[1]!)).toEqual([]);
    // The pane's process is the CLI itself (the launcher exec'd it), so pane pid and CLI pid agree.
    const panePid = (await server.run(['list-panes', '-a', '-F', '#{pane_pid}'])).stdout.trim();
    expect(Number(panePid)).toBe(dump.pid);
    const leftovers = readdirSync(join(home, 'run')).filter((f) => !f.endsWith('.fifo'));
    expect(leftovers).toEqual([]);
  });
});
