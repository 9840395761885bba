// The host's side of a pane's `larkmux send` (`host-agent.js get`, worker/host/host-fetch.ts): the request line on
// stdin, the file read by the local rules, and an output the daemon's splitFetched reads back. Real files.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOutput, serveFetch } from '../../src/worker/host/host-fetch.js';
import { splitFetched, type HostFetchRequest } from '../../src/shared/host-fetch-protocol.js';

let dir: string;
let home: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-host-fetch-')));
  home = join(dir, 'larkmux');
  mkdirSync(join(home, 'run'), { recursive: true });
  writeFileSync(join(dir, 'report.txt'), 'from the host 中文\n');
  writeFileSync(join(home, 'config.json'), '{"appSecret":"s"}');
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(100, 7));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the daemon reads back from the agent's output for `request` (sent as the host's stdin). */
async function fetched(stdin: string, limit = 1000) {
  return splitFetched(fetchOutput(await serveFetch(Readable.from([Buffer.from(stdin)]))), limit, true);
}
const ask = (r: Partial<HostFetchRequest>) => JSON.stringify({ path: join(dir, 'report.txt'), roots: [dir], home, limit: 1000, ...r }) + '\n';

describe('host-agent get', () => {
  it('a regular file inside the roots: its bytes and their sha256', async () => {
    const r = await fetched(ask({}));
    expect(r.state).toBe('complete');
    if (r.state !== 'complete') return;
    expect(r.data.toString('utf8')).toBe('from the host 中文\n');
    expect(r.answer.sha256).toBe(createHash('sha256').update(r.data).digest('hex'));
  });

  it('a file larger than the limit: said so, and none of its bytes sent', async () => {
    const r = await fetched(ask({ path: join(dir, 'big.bin'), limit: 10 }), 10);
    expect(r.state === 'complete' && { larger: r.answer.larger, bytes: r.data.length }).toEqual({ larger: true, bytes: 0 });
    const fits = await fetched(ask({ path: join(dir, 'big.bin'), limit: 100 }), 100);
    expect(fits.state === 'complete' && { larger: fits.answer.larger, bytes: fits.data.length }).toEqual({ larger: undefined, bytes: 100 });
  });

  it.each([
    ['larkmux\'s own file there', () => ask({ path: join(home, 'config.json') }), { reason: 'private' }],
    ['a folder', () => ask({ path: home }), { reason: 'not_regular', kind: 'directory' }],
    ['a missing file', () => ask({ path: join(dir, 'nope') }), { reason: 'missing' }],
    ['outside the roots', () => ask({ roots: [join(dir, 'elsewhere')] }), { reason: 'outside', roots: [] }],
    ['a request that is not one', () => '{"path":"relative"}\n', { reason: 'failed' }],
    ['no request line', () => 'x'.repeat(10), { reason: 'failed', detail: 'no request line' }],
  ])('%s is refused with the reason', async (_name, stdin, refusal) => {
    const r = await fetched(stdin());
    expect(r.state).toBe('refused');
    expect(r.state === 'refused' && r.answer.refusal).toMatchObject(refusal);
  });
});
