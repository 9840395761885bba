// reflowTarget: which window size fit-to-width applies (newest write page's size, else the size from before the first fit).
import { describe, expect, it } from 'vitest';
import { reflowTarget } from '../../src/worker/webterm/reflow.js';

describe('reflowTarget', () => {
  it.each([
    ['no request and nothing saved: leave the window alone', null, [], 1, null],
    ['one phone: its client size less the status line', { cols: 120, rows: 40 }, [{ cols: 46, rows: 38 }], 1, { cols: 46, rows: 37 }],
    ['status line off: the whole client size', { cols: 120, rows: 40 }, [{ cols: 46, rows: 38 }], 0, { cols: 46, rows: 38 }],
    ['two phones: the newest wins', { cols: 120, rows: 40 }, [{ cols: 40, rows: 30 }, { cols: 50, rows: 20 }], 1, { cols: 50, rows: 19 }],
    ['all left: the saved size comes back', { cols: 120, rows: 40 }, [], 1, { cols: 120, rows: 40 }],
    ['a client shorter than the status lines still gets a row', { cols: 120, rows: 40 }, [{ cols: 30, rows: 2 }], 2, { cols: 30, rows: 1 }],
  ] as const)('%s', (_name, original, requests, status, expected) => {
    expect(reflowTarget(original, requests, status)).toEqual(expected);
  });
});
