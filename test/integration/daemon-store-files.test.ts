// The session store against real files: atomic writes, skipped identical writes, damaged files kept aside, restore.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { larkmuxPaths } from '../../src/platform/paths.js';
import { emptyRenderState } from '../../src/daemon/ground/render-state.js';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { writeFileAtomic } from '../../src/platform/durable-file.js';
import { RenderStateStore, SessionStore, renderStatePath } from '../../src/daemon/ground/store.js';

const APP = 'cli_0123456789abcdef';
const NOW = 1_800_000_000_000;
let home: string;
beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'lmx-store-')); });
afterEach(() => rmSync(home, { recursive: true, force: true }));

const open = () => new SessionStore({ home, appId: APP, now: () => NOW });
const mk = (anchorId: string, over: Partial<SessionCore> = {}): SessionCore => ({
  ...newSessionCore({ appId: APP, anchorId, scope: 'thread', chatId: 'oc_g', chatType: 'group', cli: 'claude-code', cwd: `/w/${anchorId}`, ownerId: 'ou_a', now: NOW }),
  ...over,
});
const filesIn = () => readdirSync(home).sort();

async function storeWith(sessions: SessionCore[]): Promise<SessionStore> {
  const s = open();
  expect(await s.load()).toMatchObject({ ok: true, sessions: [] });
  for (const x of sessions) s.put(x);
  expect(await s.flush()).toEqual({ ok: true, written: true });
  return s;
}

describe('SessionStore files', () => {
  it('restore returns the sessions that were written, by id and by key', async () => {
    const a = mk('om_a', { nativeSessionId: 'native-1', status: 'idle' });
    const b = mk('om_b', { lifecycle: 'detached' });
    await (await storeWith([a, b])).dispose();

    const again = open();
    const res = await again.load();
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.sessions.sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)));
    expect(res.dropped).toEqual([]);
    expect(again.getByKey(`om_a::${APP}`)?.nativeSessionId).toBe('native-1');
    expect(JSON.parse(readFileSync(again.path, 'utf8'))).toMatchObject({ format: 'larkmux-sessions', version: 1 });
    await again.dispose();
  });

  it('a write interrupted before its rename leaves the old file intact; the stray temp file is cleaned up', async () => {
    const a = mk('om_a');
    const s = await storeWith([a]);
    await s.dispose();
    const path = larkmuxPaths(home).sessionStore(APP);
    // What a crash between "write temp" and "rename" leaves behind: a half-written temp file beside the real one.
    writeFileSync(`${path}.tmp-99999-deadbeef`, '{"format":"larkmux-sessions","version":1,"records":[{"id":"');
    const again = open();
    const res = await again.load();
    expect(res).toMatchObject({ ok: true, sessions: [a] });
    expect(filesIn()).toEqual([basename(path)]);
    await again.dispose();
  });

  it('identical content is not written again (the file keeps its mtime), changed content is', async () => {
    const a = mk('om_a');
    const s = await storeWith([a]);
    const path = s.path;
    const old = new Date(NOW - 3_600_000);
    utimesSync(path, old, old);
    s.put({ ...a });
    expect(await s.flush()).toEqual({ ok: true, written: false });
    expect(statSync(path).mtimeMs).toBe(old.getTime());
    await s.dispose();

    const reopened = open();
    await reopened.load();
    reopened.put(reopened.get(a.id)!);
    expect(await reopened.flush()).toEqual({ ok: true, written: false });
    expect(statSync(path).mtimeMs).toBe(old.getTime());
    reopened.update(a.id, { status: 'working' });
    expect(await reopened.flush()).toEqual({ ok: true, written: true });
    expect(statSync(path).mtimeMs).not.toBe(old.getTime());
    await reopened.dispose();
  });

  it('a burst of changes is one write, flushed on dispose', async () => {
    const s = open();
    await s.load();
    const a = mk('om_a');
    s.put(a);
    for (const status of ['working', 'idle', 'working', 'idle'] as const) s.update(a.id, { status });
    await s.dispose();
    expect(filesIn()).toEqual([basename(s.path)]);
    const again = open();
    expect(await again.load()).toMatchObject({ ok: true, sessions: [{ id: a.id, status: 'idle' }] });
    await again.dispose();
  });

  it('a file truncated to half is moved aside and reported, never treated as empty', async () => {
    const sessions = [mk('om_a'), mk('om_b'), mk('om_c')];
    await (await storeWith(sessions)).dispose();
    const path = larkmuxPaths(home).sessionStore(APP);
    const full = readFileSync(path);
    writeFileSync(path, full.subarray(0, Math.floor(full.length / 2)));

    const s = open();
    const res = await s.load();
    expect(res).toMatchObject({ ok: false, code: 'corrupt' });
    if (res.ok) return;
    expect(res.movedTo).toMatch(new RegExp(`${basename(path).replace(/\./g, '\\.')}\\.corrupt-\\d{4}-\\d\\d-\\d\\dT`));
    expect(readFileSync(res.movedTo!)).toEqual(full.subarray(0, Math.floor(full.length / 2)));
    expect(res.message).toContain('kept aside');
    // The store keeps working for new sessions, and the damaged bytes are still there afterwards.
    s.put(mk('om_new'));
    await s.dispose();
    expect(filesIn()).toEqual([basename(path), basename(res.movedTo!)].sort());
    expect(readFileSync(res.movedTo!).length).toBe(Math.floor(full.length / 2));
  });

  it.each([
    { name: 'not JSON', text: 'garbage', code: 'corrupt' },
    { name: 'empty', text: '', code: 'corrupt' },
    { name: 'another format', text: '{"format":"other","version":1,"records":[]}', code: 'corrupt' },
    { name: 'a newer format version', text: '{"format":"larkmux-sessions","version":99,"records":[]}', code: 'future_version' },
  ])('$name → $code, moved aside', async ({ text, code }) => {
    writeFileSync(larkmuxPaths(home).sessionStore(APP), text);
    const s = open();
    expect(await s.load()).toMatchObject({ ok: false, code });
    expect(filesIn().some((n) => n.includes('.corrupt-'))).toBe(true);
    await s.dispose();
  });

  it('one bad record is dropped with a reason; the others load; the original is kept as a copy', async () => {
    const good = mk('om_good');
    const path = larkmuxPaths(home).sessionStore(APP);
    const records = [good, { ...mk('om_bad'), status: 'sleeping' }, { ...good }];
    writeFileSync(path, JSON.stringify({ format: 'larkmux-sessions', version: 1, records }));
    const s = open();
    const res = await s.load();
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.sessions).toEqual([good]);
    expect(res.dropped).toEqual([
      { index: 1, id: records[1]!.id, reason: expect.stringContaining('status') },
      { index: 2, id: good.id, reason: 'duplicate id' },
    ]);
    expect(readFileSync(res.droppedCopy!, 'utf8')).toContain('sleeping');
    await s.dispose();
  });

  it('closed sessions older than the retention are forgotten at load; recent ones stay', async () => {
    const oldClosed = mk('om_old', { lifecycle: 'closed', lastActivityAt: NOW - 8 * 24 * 3_600_000 });
    const recentClosed = mk('om_recent', { lifecycle: 'closed' });
    await (await storeWith([oldClosed, recentClosed])).dispose();
    const s = open();
    const res = await s.load();
    expect(res.ok && res.sessions.map((x) => x.anchorId)).toEqual(['om_recent']);
    await s.dispose();
  });

  it('getByKey prefers the open session over an older closed one', async () => {
    const closed = mk('om_a', { lifecycle: 'closed', createdAt: NOW - 10 });
    const reopened = mk('om_a');
    const s = await storeWith([closed, reopened]);
    expect(s.getByKey(`om_a::${APP}`)?.id).toBe(reopened.id);
    await s.dispose();
  });

  it('writeFileAtomic leaves no temp file and replaces the content whole', async () => {
    const p = join(home, 'x.json');
    expect(await writeFileAtomic(p, 'one')).toEqual({ ok: true });
    expect(await writeFileAtomic(p, 'two')).toEqual({ ok: true });
    expect(readFileSync(p, 'utf8')).toBe('two');
    expect(filesIn()).toEqual(['x.json']);
    expect(await writeFileAtomic(join(home, 'x.json', 'nested'), 'z')).toMatchObject({ ok: false, code: 'write_failed' });
  });
});

describe('RenderStateStore files', () => {
  it('lives beside the session store and restores', async () => {
    const a = mk('om_a');
    const r = new RenderStateStore({ home, appId: APP });
    await r.load();
    r.put({ ...emptyRenderState(a.id, NOW), currentCardMessageId: 'om_card', display: 'text' });
    await r.dispose();
    expect(r.path).toBe(renderStatePath(home, APP));
    expect(basename(r.path)).toBe(`sessions-${APP}.render.json`);
    const again = new RenderStateStore({ home, appId: APP });
    expect(await again.load()).toMatchObject({ ok: true, states: [{ sessionId: a.id, currentCardMessageId: 'om_card', display: 'text' }] });
    await again.dispose();
  });
});
