import { describe, expect, it } from 'vitest';
import { NOT_IN_PANE, sayNoAnswer } from '../../src/cli/pane-caller.js';
import { EXIT } from '../../src/cli/types.js';

describe('sayNoAnswer: what `larkmux where` and `larkmux send` print when the daemon gave no answer', () => {
  it.each([
    { res: { kind: 'no_daemon' } as const, command: 'where', notRunning: [`${NOT_IN_PANE} (larkmux is not running)`], err: [], code: EXIT.notInPane },
    { res: { kind: 'error', message: 'timed out' } as const, command: 'where', notRunning: [], err: ['larkmux where: timed out'], code: EXIT.failure },
    { res: { kind: 'error', message: 'the daemon sent an unexpected answer' } as const, command: 'send', notRunning: [], err: ['larkmux send: the daemon sent an unexpected answer'], code: EXIT.failure },
  ])('$command, $res.kind → exit $code', ({ res, command, notRunning, err, code }) => {
    const printed = { notRunning: [] as string[], err: [] as string[] };
    expect(sayNoAnswer(res, command, (l) => printed.notRunning.push(l), (l) => printed.err.push(l))).toBe(code);
    expect(printed).toEqual({ notRunning, err });
  });
});
