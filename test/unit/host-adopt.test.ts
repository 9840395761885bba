// /adopt across hosts, the pure parts: one list from this machine's panes and each host's answer, how a host's pane is
// named, and the request a host accepts (nothing but `lmx-<id8>` may be created or killed through it).
import { describe, expect, it } from 'vitest';
import { paneWhere } from '../../src/daemon/commands/adopt.js';
import { mergeAdoptLists } from '../../src/daemon/sessions/adopt.js';
import type { AdoptCandidate } from '../../src/shared/adopt-candidates.js';
import { HostAdoptRequestSchema } from '../../src/shared/host-adopt-protocol.js';

const pane = (paneId: string, tmuxSession: string): AdoptCandidate => ({ paneId, windowId: '@1', tmuxSession, windowIndex: 0, cli: 'shell', cliPid: 10, panePid: 10, cwd: '/srv' });

describe('mergeAdoptLists', () => {
  it('this machine first, then each host in order with its name; failed and silent hosts are left out and named', () => {
    const merged = mergeAdoptLists({ candidates: [pane('%1', 'mine')], notAdoptable: [{}] }, [
      { host: 'b', list: { ok: true, candidates: [pane('%1', 'work'), pane('%4', 'more')], notAdoptable: 2 } },
      { host: 'slow', list: { ok: false, code: 'timeout' } },
      { host: 'broken', list: { ok: false, code: 'scan_failed', message: 'Connection refused' } },
      { host: 'odd', list: { ok: false, code: 'bad_request' } },
    ], 10);
    expect(merged.candidates.map((c) => `${c.host ?? '-'} ${c.paneId} ${c.tmuxSession}`)).toEqual(['- %1 mine', 'b %1 work', 'b %4 more']);
    expect(merged.sharedWindows).toBe(3);
    expect(merged.leftOut).toEqual([{ host: 'slow', reason: null }, { host: 'broken', reason: 'Connection refused' }, { host: 'odd', reason: 'bad_request' }]);
    expect(merged.hostTimeoutSeconds).toBe(10);
  });

  it("a host's pane outside its workingDirs is not offered, only counted with the roots; a host without roots offers all", () => {
    const at = (paneId: string, cwd: string): AdoptCandidate => ({ ...pane(paneId, 's'), cwd });
    const merged = mergeAdoptLists({ candidates: [at('%1', '/anywhere')], notAdoptable: [] }, [
      { host: 'b', list: { ok: true, candidates: [at('%1', '/srv/app'), at('%2', '/srv2'), at('%3', '/tmp')], notAdoptable: 0 }, roots: ['/srv'] },
      { host: 'c', list: { ok: true, candidates: [at('%1', '/tmp')], notAdoptable: 0 } },
      { host: 'd', list: { ok: true, candidates: [at('%1', '/home/u/work')], notAdoptable: 0 }, roots: ['~/work'] },
    ], 10);
    expect(merged.candidates.map((c) => `${c.host ?? '-'} ${c.cwd}`)).toEqual(['- /anywhere', 'b /srv/app', 'c /tmp']);
    expect(merged.outsideRoots).toEqual([{ host: 'b', count: 2, roots: ['/srv'] }, { host: 'd', count: 1, roots: ['~/work'] }]);
  });

  it('no host configured: this machine only, nothing left out', () => {
    expect(mergeAdoptLists({ candidates: [], notAdoptable: [] }, [], 0)).toEqual({ ok: true, candidates: [], sharedWindows: 0, leftOut: [], hostTimeoutSeconds: 0, outsideRoots: [] });
  });
});

describe('paneWhere', () => {
  it.each([
    [{ tmuxSession: 'mine', windowIndex: 2 }, 'mine:2'],
    [{ host: 'gpu1', tmuxSession: 'mine', windowIndex: 0 }, 'gpu1:mine:0'],
    [{ host: 'b', tmuxSession: '中文 $(x)', windowIndex: 1 }, 'b:中文 $(x):1'],
  ])('%j → %s', (c, want) => expect(paneWhere(c)).toBe(want));
});

describe('HostAdoptRequestSchema', () => {
  it.each([
    [{ action: 'list', home: '/h/.larkmux', cli: 'shell' }, true],
    [{ action: 'list', home: 'relative', cli: 'shell' }, false],
    [{ action: 'link', home: '/h', cli: 'claude-code', paneId: '%3', cliPid: 4, tmuxName: 'lmx-0123abcd' }, true],
    [{ action: 'link', home: '/h', cli: 'claude-code', paneId: '%3', cliPid: 4, tmuxName: 'mine' }, false],
    [{ action: 'link', home: '/h', cli: 'claude-code', paneId: '3; rm -rf /', cliPid: 4, tmuxName: 'lmx-0123abcd' }, false],
    [{ action: 'unlink', home: '/h', tmuxName: 'lmx-0123abcd' }, true],
    [{ action: 'unlink', home: '/h', tmuxName: 'lmx-0123abcd:0' }, false],
    [{ action: 'kill', home: '/h' }, false],
  ])('%j → %s', (req, ok) => expect(HostAdoptRequestSchema.safeParse(req).success).toBe(ok));
});
