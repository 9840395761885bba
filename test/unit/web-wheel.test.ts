// Table-driven tests of the wheel decision: what tmux commands a web wheel event becomes, per pane state.
import { describe, expect, it } from 'vitest';
import { parsePaneScrollState, planWheel, wheelReport, type PaneScrollState } from '../../src/worker/webterm/wheel.js';

const shell: PaneScrollState = { inMode: false, mouseAny: false, mouseSgr: false, cols: 80, rows: 24 };
const T = 'lmx-12345678';
const hex = (s: string) => [...Buffer.from(s, 'latin1')].map((b) => b.toString(16).padStart(2, '0'));

describe('planWheel', () => {
  it.each([
    { name: 'shell, up → enter copy mode and scroll back', state: shell, input: { dir: 'up', n: 3 },
      want: [['copy-mode', '-e', '-t', T], ['send-keys', '-t', T, '-X', '-N', '3', 'scroll-up']] },
    { name: 'shell, down → nothing below the bottom', state: shell, input: { dir: 'down', n: 3 }, want: [] },
    { name: 'copy mode, up → scroll copy mode', state: { ...shell, inMode: true }, input: { dir: 'up', n: 5 },
      want: [['send-keys', '-t', T, '-X', '-N', '5', 'scroll-up']] },
    { name: 'copy mode, down → scroll down (leaves at bottom)', state: { ...shell, inMode: true }, input: { dir: 'down', n: 2 },
      want: [['send-keys', '-t', T, '-X', '-N', '2', 'scroll-down']] },
    { name: 'mouse program (SGR), up at a cell', state: { ...shell, mouseAny: true, mouseSgr: true }, input: { dir: 'up', n: 1, col: 3, row: 4 },
      want: [['send-keys', '-t', T, '-H', ...hex('\x1b[<64;3;4M')]] },
    { name: 'mouse program (SGR), down twice at the centre', state: { ...shell, mouseAny: true, mouseSgr: true }, input: { dir: 'down', n: 2 },
      want: [['send-keys', '-t', T, '-H', ...hex('\x1b[<65;40;12M'), ...hex('\x1b[<65;40;12M')]] },
    { name: 'mouse program, cell beyond the pane is clamped', state: { ...shell, mouseAny: true, mouseSgr: true }, input: { dir: 'up', n: 1, col: 500, row: 0 },
      want: [['send-keys', '-t', T, '-H', ...hex('\x1b[<64;80;1M')]] },
    { name: 'mouse program (X10), up', state: { ...shell, mouseAny: true }, input: { dir: 'up', n: 1, col: 1, row: 1 },
      want: [['send-keys', '-t', T, '-H', '1b', '5b', '4d', (32 + 64).toString(16), '21', '21']] },
    { name: 'copy mode wins over mouse (as in tmux)', state: { ...shell, inMode: true, mouseAny: true }, input: { dir: 'up', n: 1 },
      want: [['send-keys', '-t', T, '-X', '-N', '1', 'scroll-up']] },
  ] as const)('$name', ({ state, input, want }) => {
    expect(planWheel(T, state, input)).toEqual(want);
  });

  it('X10 cannot address cells beyond 223: nothing is sent rather than a wrong cell', () => {
    expect(wheelReport('up', 224, 1, false)).toBeNull();
    expect(planWheel(T, { ...shell, mouseAny: true, cols: 300 }, { dir: 'up', n: 1, col: 250, row: 1 })).toEqual([]);
  });
});

describe('parsePaneScrollState', () => {
  it.each([
    ['0 0 0 80 24', shell],
    ['1 1 1 120 40\n', { inMode: true, mouseAny: true, mouseSgr: true, cols: 120, rows: 40 }],
    ['', null],
    ['0 0 0 80', null],
    ['0 0 0 0 24', null],
    ['a b c d e', null],
  ])('%j', (line, want) => {
    expect(parsePaneScrollState(line)).toEqual(want);
  });
});
