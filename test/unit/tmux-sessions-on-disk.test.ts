// `larkmux sessions --prune` / doctor read which tmux sessions the stores own while the daemon is stopped: by the store's
// own schema (issue 28), and never reporting "complete" when a file or a record could not be read (nothing is pruned).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownedTmuxNamesOnDisk } from '../../src/platform/tmux-sessions.js';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { renderStatePath, SessionStore } from '../../src/daemon/ground/store.js';
import { ScheduleStore } from '../../src/daemon/schedules/schedule-store.js';
import { BudgetStateStore } from '../../src/daemon/sessions/budget-state-store.js';
import type { Schedule } from '../../src/shared/schedule.js';

const APP = 'cli_0123456789abcdef';
const rec = (anchorId: string, patch: Partial<SessionCore> = {}): SessionCore => ({
  ...newSessionCore({ appId: APP, anchorId, scope: 'thread', chatId: 'oc_g', chatType: 'group', cli: 'codex', cwd: '/w', ownerId: 'ou_a', now: 5 }),
  ...patch,
});
const scheduleOf = (anchorId: string): Schedule => ({
  id: '0123456789ab', sessionKey: anchorId, anchorId, scope: 'thread', chatId: 'oc_g', chatType: 'group', cwd: '/w', creatorId: 'ou_a',
  prompt: 'run the tests', spec: { kind: 'once', at: 10_000 }, text: '3s run the tests', timezone: 'UTC', createdAt: 5, nextRunAt: 10_000, paused: false,
});
const store = (records: unknown[], format = 'larkmux-sessions') => JSON.stringify({ format, version: 1, records });

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-owned-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('ownedTmuxNamesOnDisk', () => {
  it('reads a file the real store wrote: open records own their tmux session, closed ones do not', async () => {
    const s = new SessionStore({ home, appId: APP });
    await s.load();
    const open = rec('om_open');
    const closed = rec('om_closed', { lifecycle: 'closed' });
    s.put(open);
    s.put(closed);
    await s.flush();
    expect(ownedTmuxNamesOnDisk(home)).toEqual({ names: new Set([open.tmuxName]), complete: true });
  });

  it('reads past the store\'s siblings (render state, schedules, holds, budget, host waits): they are not session stores', async () => {
    const s = new SessionStore({ home, appId: APP });
    await s.load();
    const open = rec('om_open');
    s.put(open);
    await s.flush();
    const schedules = new ScheduleStore({ home, appId: APP });
    await schedules.load();
    schedules.put(scheduleOf('om_open'));
    await schedules.flush();
    writeFileSync(renderStatePath(home, APP), JSON.stringify({ format: 'larkmux-render-state', version: 1, records: [] }));
    writeFileSync(join(home, `sessions-${APP}.holds.json`), JSON.stringify({ format: 'larkmux-holds', version: 1, records: [] }));
    const budget = new BudgetStateStore({ home, appId: APP });
    await budget.setWarnedDay('2026-12-04');
    await budget.dispose();
    writeFileSync(join(home, `sessions-${APP}.waits.json`), JSON.stringify({ format: 'larkmux-host-waits', version: 1, records: [] }));
    expect(ownedTmuxNamesOnDisk(home)).toEqual({ names: new Set([open.tmuxName]), complete: true });
  });

  it.each([
    { name: 'a record the store would drop (no id)', file: store([{ tmuxName: 'lmx-0123abcd', lifecycle: 'live' }]) },
    { name: 'another format', file: store([rec('om_x')], 'larkmux-render-state') },
    { name: 'no records list', file: JSON.stringify({ format: 'larkmux-sessions', version: 1 }) },
    { name: 'not JSON', file: '{"format": "larkmux-sess' },
    { name: 'a newer larkmux\'s store (format 2)', file: JSON.stringify({ format: 'larkmux-sessions', version: 2, records: [rec('om_new')] }) },
  ])('$name: owns nothing, and the answer is incomplete (nothing is pruned)', ({ file }) => {
    writeFileSync(join(home, `sessions-${APP}.json`), file);
    expect(ownedTmuxNamesOnDisk(home)).toEqual({ names: new Set(), complete: false });
  });
});
