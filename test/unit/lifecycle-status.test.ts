// Status decisions, table-driven: screen kind, output silence, open turns and the transcript's authority.
import { describe, expect, it } from 'vitest';
import type { ScreenState } from '../../src/worker/cli/types.js';
import { decideStatus, isBusyStatus, STATUS_TIMING, type StatusInput } from '../../src/worker/lifecycle/status.js';

const sel: ScreenState = { kind: 'selection', title: 'Allow?', options: [{ label: 'Yes' }], defaultIndex: 0, selectionKind: 'permission', id: 's' };
const base: StatusInput = { screen: { kind: 'ready' }, msSinceOutput: 10_000, turnOpen: false, hasTranscript: true, previous: 'idle', processGone: false };
const i = (patch: Partial<StatusInput>): StatusInput => ({ ...base, ...patch });

describe('decideStatus', () => {
  const cases: { name: string; input: StatusInput; status: string }[] = [
    { name: 'ready and quiet', input: i({}), status: 'idle' },
    { name: 'spinner keeps working however long', input: i({ screen: { kind: 'busy' }, msSinceOutput: 600_000 }), status: 'working' },
    { name: 'a selection on screen', input: i({ screen: sel }), status: 'waiting' },
    { name: 'usage limit', input: i({ screen: { kind: 'limited' } }), status: 'limited' },
    { name: 'exited screen', input: i({ screen: { kind: 'exited' } }), status: 'exited' },
    { name: 'process gone', input: i({ processGone: true }), status: 'exited' },
    { name: 'transcript turn still open: working despite a ready screen', input: i({ turnOpen: true, msSinceOutput: 5_000 }), status: 'working' },
    { name: 'transcript never closed the turn: idle after the grace', input: i({ turnOpen: true, msSinceOutput: STATUS_TIMING.transcriptGraceMs }), status: 'idle' },
    { name: 'no transcript: ready right after output is still working', input: i({ hasTranscript: false, turnOpen: true, msSinceOutput: 200 }), status: 'working' },
    { name: 'no transcript: ready and silent closes the turn', input: i({ hasTranscript: false, turnOpen: true, msSinceOutput: STATUS_TIMING.quietMs }), status: 'idle' },
    { name: 'no transcript: the screen proves the turn ended (a shell back at its prompt): idle with output fresh', input: i({ hasTranscript: false, turnOpen: true, msSinceOutput: 50, screenShowsTurnEnd: true }), status: 'idle' },
    { name: 'no transcript: a proof of the end with a busy screen stays working', input: i({ hasTranscript: false, turnOpen: true, msSinceOutput: 50, screenShowsTurnEnd: true, screen: { kind: 'busy' } }), status: 'working' },
    { name: 'working → a brief ready redraw stays working', input: i({ previous: 'working', msSinceOutput: 100 }), status: 'working' },
    { name: 'the transcript recorded the turn end: idle at once, output still fresh (issue 12)', input: i({ previous: 'working', msSinceOutput: 100, turnEndRecorded: true }), status: 'idle' },
    { name: 'turn end recorded but a spinner is up again: working', input: i({ previous: 'working', msSinceOutput: 100, turnEndRecorded: true, screen: { kind: 'busy' } }), status: 'working' },
    { name: 'unknown screen keeps the previous status', input: i({ screen: { kind: 'unknown' }, previous: 'working' }), status: 'working' },
  ];
  it.each(cases)('$name', ({ input, status }) => expect(decideStatus(input)).toBe(status));

  it('only idle and limited CLIs take the next message', () => {
    expect((['starting', 'working', 'waiting', 'idle', 'limited', 'exited'] as const).filter((s) => !isBusyStatus(s))).toEqual(['idle', 'limited', 'exited']);
  });
});
