// Pane identity decisions: /proc parsing, device numbers, and the tty + lineage rule (never $TMUX).
import { describe, expect, it } from 'vitest';
import { cmdlineShowsProof, matchCallerPane, parsePaneList, parseProcStat, rdevDevice, ttyNrDevice, type PaneInfo } from '../../src/shared/pane-identity.js';

describe('parseProcStat', () => {
  it.each([
    ['4242 (bash) S 4000 4242 4242 34818 4242 4194304', { pid: 4242, ppid: 4000, tty: '136:2' }],
    // A command name with spaces and a ")" must not shift the fields.
    ['77 (we ird) (x)) R 1 77 77 0 -1 0', { pid: 77, ppid: 1, tty: null }],
    ['garbage', null],
  ])('%s', (text, expected) => {
    expect(parseProcStat(text)).toEqual(expected);
  });
});

describe('device numbers', () => {
  it('tty_nr and stat rdev decode to the same major:minor, including minors above 255', () => {
    // /dev/pts/2 = 136:2; /dev/pts/300 = 136:300 (kernel tty_nr puts minor bits 8+ at bit 20).
    expect(ttyNrDevice(34818)).toBe('136:2');
    expect(rdevDevice(34818)).toBe('136:2');
    const nr300 = (136 << 8) | (300 & 0xff) | ((300 & ~0xff) << 12);
    expect(ttyNrDevice(nr300)).toBe('136:300');
    expect(rdevDevice(BigInt(nr300))).toBe('136:300');
  });
});

const pane = (over: Partial<PaneInfo>): PaneInfo => ({ tmuxSession: 'lmx-aaaaaaaa', paneId: '%1', ttyPath: '/dev/pts/2', tty: '136:2', pid: 100, ...over });

describe('matchCallerPane', () => {
  const panes = [pane({}), pane({ tmuxSession: 'lmx-bbbbbbbb', paneId: '%2', ttyPath: '/dev/pts/3', tty: '136:3', pid: 200 })];
  it.each([
    ['the pane tty and a pane descendant', { pid: 105, tty: '136:2', lineage: [105, 101, 100, 50] }, { ok: true, pane: panes[0] }],
    ['the other pane', { pid: 205, tty: '136:3', lineage: [205, 200] }, { ok: true, pane: panes[1] }],
    ['no controlling tty (setsid)', { pid: 105, tty: null, lineage: [105, 100] }, { ok: false, reason: 'no_tty' }],
    ['another terminal (inherited $TMUX only)', { pid: 300, tty: '136:9', lineage: [300, 299] }, { ok: false, reason: 'no_pane_tty' }],
    ['the pane tty but not under the pane process', { pid: 300, tty: '136:2', lineage: [300, 1] }, { ok: false, reason: 'not_descendant' }],
    ['a pane whose tty could not be read', { pid: 105, tty: '136:2', lineage: [105, 100] }, { ok: false, reason: 'no_pane_tty' }, [pane({ tty: null })]],
  ])('%s', (_name, caller, expected, list = panes) => {
    expect(matchCallerPane(caller, list)).toEqual(expected);
  });
});

describe('parsePaneList', () => {
  it('reads tab-separated lines and skips broken ones', () => {
    expect(parsePaneList('lmx-aaaaaaaa\t%1\t/dev/pts/2\t100\nbad line\nx\t%2\t/dev/pts/3\tnope\n')).toEqual([
      { tmuxSession: 'lmx-aaaaaaaa', paneId: '%1', ttyPath: '/dev/pts/2', pid: 100 },
    ]);
  });
});

describe('cmdlineShowsProof', () => {
  it.each([
    ['lmx:0123456789abcdef\0\0\0', '0123456789abcdef', true],
    ['lmx:0123456789abcdef', 'fedcba9876543210', false],
    ['node /x/bin/larkmux.js send lmx:0123456789abcdef', '0123456789abcdef', false],
    ['lmx:0123', '0123', false],
  ])('%j', (cmdline, nonce, expected) => {
    expect(cmdlineShowsProof(cmdline, nonce)).toBe(expected);
  });
});
