// SessionCore and RenderState schemas: what a valid record is, and what makes one invalid.
import { describe, expect, it } from 'vitest';
import { emptyRenderState, RENDER_STATE_LIMITS, RenderStateSchema, withFrozenCard } from '../../src/daemon/ground/render-state.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { SessionCoreSchema } from '../../src/shared/session-record.js';

const APP = 'cli_0123456789abcdef';
const base = newSessionCore({ appId: APP, anchorId: 'om_root', scope: 'thread', chatId: 'oc_g', chatType: 'group', cli: 'codex', cwd: '/w', ownerId: 'ou_a', now: 5 });

describe('SessionCore', () => {
  it('a new session is starting, live, keyed anchor::app, with a tmux name from its id', () => {
    expect(base).toMatchObject({ key: `om_root::${APP}`, status: 'starting', lifecycle: 'live', backend: 'tmux', tmuxName: `lmx-${base.id.slice(0, 8)}`, createdAt: 5, lastActivityAt: 5 });
    expect(base.id).toMatch(/^[0-9a-f]{32}$/);
  });
  it.each([
    { name: 'id not 32 hex', patch: { id: 'XYZ' }, path: 'id' },
    { name: 'key not anchor::app', patch: { key: `other::${APP}` }, path: 'key' },
    { name: 'tmux name of another session', patch: { tmuxName: 'lmx-00000000' }, path: 'tmuxName' },
    { name: 'unknown status', patch: { status: 'sleeping' }, path: 'status' },
    { name: 'unknown lifecycle', patch: { lifecycle: 'gone' }, path: 'lifecycle' },
    { name: 'scope neither thread nor chat', patch: { scope: 'dm' }, path: 'scope' },
  ])('rejects: $name', ({ patch, path }) => {
    const res = SessionCoreSchema.safeParse({ ...base, ...patch });
    expect(res.success).toBe(false);
    expect(res.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });
  it('ignores fields it does not know (a newer larkmux wrote them)', () => {
    expect(SessionCoreSchema.parse({ ...base, someFutureField: 1 })).toEqual(base);
  });
});

describe('RenderState', () => {
  it('defaults to screenshots with no cards', () => {
    expect(emptyRenderState(base.id, 1)).toEqual({ sessionId: base.id, display: 'screenshot', frozenCardIds: [], pendingSelectionCards: {}, updatedAt: 1 });
  });
  it('keeps only the newest frozen card ids', () => {
    let s = emptyRenderState(base.id, 1);
    for (let i = 0; i < RENDER_STATE_LIMITS.frozenCardIds + 5; i++) s = withFrozenCard(s, `om_${i}`, 2);
    expect(s.frozenCardIds).toHaveLength(RENDER_STATE_LIMITS.frozenCardIds);
    expect(s.frozenCardIds.at(-1)).toBe(`om_${RENDER_STATE_LIMITS.frozenCardIds + 4}`);
    expect(RenderStateSchema.safeParse(s).success).toBe(true);
  });
});
