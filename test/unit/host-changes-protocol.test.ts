// The `changes` verb's contract (shared/host-changes-protocol.ts): what the daemon may ask a host's agent, what the
// agent may answer; and which git a session's change cards ask (WorkerPool.treeGit: this machine's, a host's, none).
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { localTreeGit, noTreeGit, type TreeGit } from '../../src/daemon/changes/tree-git.js';
import { WorkerPool } from '../../src/daemon/workers/worker-pool.js';
import { HostChangesResultSchema, readHostChangesRequest } from '../../src/shared/host-changes-protocol.js';

const TREE = 'a'.repeat(40);
const TREE256 = 'b'.repeat(64);

describe('readHostChangesRequest', () => {
  it.each<[string, string, boolean]>([
    ['root of an absolute folder', JSON.stringify({ op: 'root', cwd: '/srv/app 笔记 🎉' }), true],
    ['snapshot', JSON.stringify({ op: 'snapshot', cwd: '/srv/app' }), true],
    ['snapshot of a top (the old field)', JSON.stringify({ op: 'snapshot', top: '/srv/app' }), false],
    ['diff of sha1 trees', JSON.stringify({ op: 'diff', top: '/srv/app', from: TREE, to: TREE }), true],
    ['diff of sha256 trees', JSON.stringify({ op: 'diff', top: '/srv/app', from: TREE256, to: TREE256 }), true],
    ['not JSON', 'root /srv', false],
    ['a relative folder', JSON.stringify({ op: 'root', cwd: 'srv' }), false],
    ['an option for a tree id', JSON.stringify({ op: 'diff', top: '/srv', from: '--output=/tmp/x', to: TREE }), false],
    ['a revision for a tree id', JSON.stringify({ op: 'diff', top: '/srv', from: 'HEAD', to: TREE }), false],
    ['a short id', JSON.stringify({ op: 'diff', top: '/srv', from: TREE.slice(0, 12), to: TREE }), false],
    ['upper-case hex', JSON.stringify({ op: 'diff', top: '/srv', from: TREE.toUpperCase(), to: TREE }), false],
    ['an unknown op', JSON.stringify({ op: 'checkout', top: '/srv' }), false],
    ['an extra field', JSON.stringify({ op: 'snapshot', cwd: '/srv', env: { GIT_DIR: '/' } }), false],
    ['a missing folder', JSON.stringify({ op: 'snapshot' }), false],
  ])('%s', (_what, input, ok) => {
    expect(readHostChangesRequest(input).ok).toBe(ok);
  });
});

describe('HostChangesResultSchema', () => {
  it.each<[string, unknown, boolean]>([
    ['a root', { ok: true, top: '/srv/app' }, true],
    ['no root', { ok: true, top: null }, true],
    ['a snapshot', { ok: true, snapshot: { top: '/srv/app', tree: TREE } }, true],
    ['a snapshot not taken', { ok: true, snapshot: { top: '/srv/app', tree: null } }, true],
    ['not in a work tree', { ok: true, snapshot: null }, true],
    ['a diff', { ok: true, diff: { numstat: '1\t0\ta\0', patch: '+x', patchCut: false } }, true],
    ['no diff', { ok: true, diff: null }, true],
    ['an error', { ok: false, error: 'ENOENT' }, true],
    ['a tree that is no id', { ok: true, snapshot: { top: '/srv/app', tree: 'HEAD' } }, false],
    ['a relative root', { ok: true, top: 'srv' }, false],
    ['a diff without its cut flag', { ok: true, diff: { numstat: '', patch: '' } }, false],
    ['success without an answer', { ok: true }, false],
  ])('%s', (_what, value, ok) => {
    expect(HostChangesResultSchema.safeParse(value).success).toBe(ok);
  });
});

describe('WorkerPool.treeGit', () => {
  const onHost: TreeGit = { ...noTreeGit };
  const pool = new WorkerPool({ log: pino({ level: 'silent' }), remoteGit: (name) => (name === 'gpu1' ? onHost : undefined) });
  it.each<[string, TreeGit]>([
    ['local', localTreeGit],
    ['gpu1', onHost],
    ['unconfigured', noTreeGit],
  ])('%s', (host, git) => {
    expect(pool.treeGit(host)).toBe(git);
  });
});
