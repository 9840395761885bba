// What the daemon makes of a host's `get` output as it arrives (shared/host-fetch-protocol.ts splitFetched): table-driven.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readFetched } from '../../src/daemon/workers/remote-fetch.js';
import { HOST_FETCH_LINE_BYTES, parseHostFetchRequest, splitFetched } from '../../src/shared/host-fetch-protocol.js';

const SHA = 'a'.repeat(64);
const line = (o: unknown) => JSON.stringify(o) + '\n';
const out = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

describe('splitFetched', () => {
  const cases: { name: string; out: Buffer; limit: number; ended: boolean; want: Record<string, unknown> }[] = [
    { name: 'nothing yet', out: out(''), limit: 10, ended: false, want: { state: 'partial' } },
    { name: 'nothing at the end', out: out(''), limit: 10, ended: true, want: { state: 'bad', error: 'no answer line' } },
    { name: 'a line longer than any answer', out: out('x'.repeat(HOST_FETCH_LINE_BYTES + 1)), limit: 10, ended: false, want: { state: 'bad', error: 'no answer line' } },
    { name: 'not JSON', out: out('hello\n'), limit: 10, ended: false, want: { state: 'bad', error: 'the answer is not JSON' } },
    { name: 'not the schema', out: out(line({ ok: true, bytes: -1, sha256: SHA })), limit: 10, ended: false, want: { state: 'bad', error: 'the answer is not one' } },
    { name: 'header, bytes still coming', out: out(line({ ok: true, bytes: 4, sha256: SHA }), 'ab'), limit: 10, ended: false, want: { state: 'partial', total: line({ ok: true, bytes: 4, sha256: SHA }).length + 4 } },
    { name: 'bytes cut short', out: out(line({ ok: true, bytes: 4, sha256: SHA }), 'ab'), limit: 10, ended: true, want: { state: 'bad', error: '2 bytes arrived, 4 were announced' } },
    { name: 'more than announced', out: out(line({ ok: true, bytes: 1, sha256: SHA }), 'ab'), limit: 10, ended: false, want: { state: 'bad', error: 'more than the 1 bytes announced' } },
    { name: 'more announced than asked for', out: out(line({ ok: true, bytes: 12, sha256: SHA })), limit: 10, ended: false, want: { state: 'bad', error: '12 bytes announced, at most 11 asked for' } },
    { name: 'a refusal', out: out(line({ ok: false, refusal: { reason: 'not_regular', kind: 'directory' } })), limit: 10, ended: true, want: { state: 'refused', answer: { ok: false, refusal: { reason: 'not_regular', kind: 'directory' } } } },
    { name: 'bytes after a refusal', out: out(line({ ok: false, refusal: { reason: 'missing' } }), 'x'), limit: 10, ended: true, want: { state: 'bad', error: 'bytes after a refusal' } },
    { name: 'an unknown refusal', out: out(line({ ok: false, refusal: { reason: 'gone' } })), limit: 10, ended: true, want: { state: 'bad', error: 'the answer is not one' } },
  ];
  it.each(cases)('$name', ({ out: o, limit, ended, want }) => {
    expect(splitFetched(o, limit, ended)).toEqual(want);
  });

  it('the whole file, once the output ended (limit + 1 bytes: a file larger than the limit shows it)', () => {
    const data = Buffer.from('0123456789A');
    const r = splitFetched(out(line({ ok: true, bytes: 11, sha256: SHA }), data), 10, true);
    expect(r).toEqual({ state: 'complete', answer: { ok: true, bytes: 11, sha256: SHA }, data });
  });
});

describe('parseHostFetchRequest', () => {
  it.each([
    ['{"path":"/srv/a","roots":["/srv"],"home":null,"limit":5}', true],
    ['{"path":"a","roots":["/srv"],"home":null,"limit":5}', false],
    ['{"path":"/srv/a","roots":["srv"],"home":null,"limit":5}', false],
    ['{"path":"/srv/a","roots":[],"home":"/h","limit":5,"extra":1}', false],
    ['not json', false],
  ])('%s → %s', (text, ok) => {
    expect(parseHostFetchRequest(text).ok).toBe(ok);
  });
});

describe('readFetched (the daemon on arrival)', () => {
  const data = Buffer.from('bytes from the host');
  const sha = createHash('sha256').update(data).digest('hex');
  it('posts only what matches the sha256 the host computed', () => {
    expect(readFetched(out(line({ ok: true, bytes: data.length, sha256: sha }), data), 100)).toEqual({ read: { ok: true, data } });
    const damaged = Buffer.from(data);
    damaged[0] = 0x42;
    expect(readFetched(out(line({ ok: true, bytes: data.length, sha256: sha }), damaged), 100)).toEqual({ read: { ok: false, reason: 'failed', detail: 'the file arrived damaged (sha256 differs)' } });
  });
  it('a refusal is the local refusal; output that is no answer is said so', () => {
    expect(readFetched(out(line({ ok: false, refusal: { reason: 'denied' } })), 100)).toEqual({ read: { ok: false, reason: 'denied' } });
    expect(readFetched(out('bash: node: command not found\n'), 100)).toEqual({ bad: 'the answer is not JSON' });
  });
});

describe('readFetched of a file larger than asked for', () => {
  it('knows only that it is larger (limit + 1, as a local read), with no bytes', () => {
    const empty = createHash('sha256').update(Buffer.alloc(0)).digest('hex');
    expect(readFetched(out(line({ ok: true, bytes: 0, sha256: empty, larger: true })), 100)).toEqual({ read: { ok: true, data: Buffer.alloc(0), size: 101 } });
  });
});
