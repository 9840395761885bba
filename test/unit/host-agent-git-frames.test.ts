// The git frames of the host agent protocol (a turn's snapshot asked on the agent's channel) and the daemon's waiting
// asks: only `root` and `snapshot` go on the channel (a diff's megabytes stay on the one-shot command), ids are the
// daemon's positive ints, an answer is what the one-shot command would answer; an ask that cannot be answered there
// resolves (null: the caller falls back) instead of waiting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LinkGitAsks } from '../../src/daemon/workers/link-git-asks.js';
import { parseAgentToDaemon, parseDaemonToAgent, type AgentGitAsk } from '../../src/shared/host-agent-protocol.js';

const TREE = 'a'.repeat(40);

describe('git_ask (daemon → agent)', () => {
  const rows: [string, unknown, boolean][] = [
    ['root', { kind: 'git_ask', id: 1, request: { op: 'root', cwd: '/srv/app 笔记 🎉' } }, true],
    ['snapshot', { kind: 'git_ask', id: 2 ** 40, request: { op: 'snapshot', cwd: '/srv/app' } }, true],
    ['a diff (stays on the one-shot command)', { kind: 'git_ask', id: 1, request: { op: 'diff', top: '/srv', from: TREE, to: TREE } }, false],
    ['an unknown op', { kind: 'git_ask', id: 1, request: { op: 'checkout', cwd: '/srv' } }, false],
    ['a relative folder', { kind: 'git_ask', id: 1, request: { op: 'root', cwd: 'srv' } }, false],
    ['an extra field in the request', { kind: 'git_ask', id: 1, request: { op: 'snapshot', cwd: '/srv', env: { GIT_DIR: '/' } } }, false],
    ['an extra field in the frame', { kind: 'git_ask', id: 1, request: { op: 'root', cwd: '/srv' }, session: 'f'.repeat(32) }, false],
    ['id 0', { kind: 'git_ask', id: 0, request: { op: 'root', cwd: '/srv' } }, false],
    ['a negative id', { kind: 'git_ask', id: -3, request: { op: 'root', cwd: '/srv' } }, false],
    ['a fractional id', { kind: 'git_ask', id: 1.5, request: { op: 'root', cwd: '/srv' } }, false],
    ['an id as text', { kind: 'git_ask', id: '1', request: { op: 'root', cwd: '/srv' } }, false],
    ['no request', { kind: 'git_ask', id: 1 }, false],
  ];
  it.each(rows)('%s', (_name, frame, ok) => {
    expect(parseDaemonToAgent(frame).ok).toBe(ok);
  });
});

describe('git_answer (agent → daemon)', () => {
  const rows: [string, unknown, boolean][] = [
    ['a root', { kind: 'git_answer', id: 1, result: { ok: true, top: '/srv/app' } }, true],
    ['not in a work tree', { kind: 'git_answer', id: 1, result: { ok: true, top: null } }, true],
    ['a snapshot', { kind: 'git_answer', id: 9, result: { ok: true, snapshot: { top: '/srv/app', tree: TREE } } }, true],
    ['a snapshot that could not be taken', { kind: 'git_answer', id: 9, result: { ok: true, snapshot: { top: '/srv/app', tree: null } } }, true],
    ['an error', { kind: 'git_answer', id: 3, result: { ok: false, error: 'refused: request.op: Invalid discriminator value' } }, true],
    ['an error past 2000 characters', { kind: 'git_answer', id: 3, result: { ok: false, error: 'x'.repeat(2001) } }, false],
    ['a tree id git would read as an option', { kind: 'git_answer', id: 1, result: { ok: true, snapshot: { top: '/srv', tree: '--output=/x' } } }, false],
    ['a relative top', { kind: 'git_answer', id: 1, result: { ok: true, top: 'srv' } }, false],
    ['id 0', { kind: 'git_answer', id: 0, result: { ok: true, top: null } }, false],
    ['no result', { kind: 'git_answer', id: 1 }, false],
  ];
  it.each(rows)('%s', (_name, frame, ok) => {
    expect(parseAgentToDaemon(frame).ok).toBe(ok);
  });
});

describe('LinkGitAsks', () => {
  afterEach(() => void vi.useRealTimers());
  const sentTo = (into: AgentGitAsk[]) => (f: AgentGitAsk) => (into.push(f), true);

  it('sends each ask with an id of its own and resolves each with the answer of its id, in any order', async () => {
    const asks = new LinkGitAsks();
    const sent: AgentGitAsk[] = [];
    const a = asks.ask(sentTo(sent), { op: 'root', cwd: '/a' });
    const b = asks.ask(sentTo(sent), { op: 'snapshot', cwd: '/b' });
    expect(sent.map((f) => f.request.cwd)).toEqual(['/a', '/b']);
    expect(new Set(sent.map((f) => f.id)).size).toBe(2);
    for (const f of sent) expect(f.id).toBeGreaterThan(0);
    asks.answered(sent[1]!.id, { ok: true, snapshot: null });
    asks.answered(4242, { ok: true, top: '/elsewhere' }); // no such ask: ignored
    asks.answered(sent[0]!.id, { ok: true, top: '/a' });
    expect(await a).toEqual({ ok: true, top: '/a' });
    expect(await b).toEqual({ ok: true, snapshot: null });
    expect(asks.waiting).toBe(0);
  });

  it('resolves null at once when the frame could not go (no link up)', async () => {
    const asks = new LinkGitAsks();
    expect(await asks.ask(() => false, { op: 'snapshot', cwd: '/a' })).toBeNull();
    expect(asks.waiting).toBe(0);
  });

  it('resolves every waiting ask null when no answer will come (link closed, frame dropped); a late answer is ignored', async () => {
    const asks = new LinkGitAsks();
    const sent: AgentGitAsk[] = [];
    const both = Promise.all([asks.ask(sentTo(sent), { op: 'root', cwd: '/a' }), asks.ask(sentTo(sent), { op: 'snapshot', cwd: '/b' })]);
    expect(asks.waiting).toBe(2);
    asks.giveUpAll();
    expect(await both).toEqual([null, null]);
    asks.answered(sent[0]!.id, { ok: true, top: '/a' });
    expect(asks.waiting).toBe(0);
  });

  it('answers an error, not a second try, when the agent does not answer by the deadline', async () => {
    vi.useFakeTimers();
    const asks = new LinkGitAsks(40_000);
    const sent: AgentGitAsk[] = [];
    const late = asks.ask(sentTo(sent), { op: 'snapshot', cwd: '/slow' });
    vi.advanceTimersByTime(40_000);
    expect(await late).toEqual({ ok: false, error: 'no answer from the host agent within 40 s' });
    asks.answered(sent[0]!.id, { ok: true, snapshot: null });
    expect(asks.waiting).toBe(0);
  });
});
