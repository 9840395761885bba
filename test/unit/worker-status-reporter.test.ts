// A worker's status is sent from one place (issue 28 item 7): the StatusReporter builds every `status` message.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC_LIMITS, StatusMsg, type WorkerToDaemon } from '../../src/shared/ipc.js';
import { STATUS_DETAIL_MAX, StatusReporter, type StatusExtras } from '../../src/worker/runtime/status-reporter.js';

const ROOT = join(import.meta.dirname, '..', '..');
const REPORTER = 'src/worker/runtime/status-reporter.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

describe('StatusReporter', () => {
  const cases: { name: string; extras: StatusExtras | undefined; want: Record<string, unknown> }[] = [
    { name: 'a bare status', extras: undefined, want: { type: 'status', status: 'starting' } },
    { name: 'the screen tail only', extras: { screenText: 'x'.repeat(IPC_LIMITS.screenText + 10) + 'END' }, want: { screenText: expect.stringMatching(/END$/) } },
    { name: 'a long detail cut to the schema cap', extras: { detail: 'd'.repeat(STATUS_DETAIL_MAX + 50) }, want: { detail: 'd'.repeat(STATUS_DETAIL_MAX) } },
  ];
  it.each(cases)('sends $name as a message the daemon accepts', ({ extras, want }) => {
    const sent: WorkerToDaemon[] = [];
    new StatusReporter((m) => sent.push(m)).report('starting', extras);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject(want);
    expect(StatusMsg.safeParse(sent[0]).success).toBe(true);
    if (extras?.screenText) expect((sent[0] as { screenText: string }).screenText).toHaveLength(IPC_LIMITS.screenText);
  });

  it('sends every report in order, repeats included, and remembers the last', () => {
    const sent: WorkerToDaemon[] = [];
    const r = new StatusReporter((m) => sent.push(m));
    expect(r.last).toBeNull();
    for (const s of ['starting', 'waiting', 'waiting', 'idle', 'exited'] as const) r.report(s);
    expect(sent.map((m) => (m.type === 'status' ? m.status : m.type))).toEqual(['starting', 'waiting', 'waiting', 'idle', 'exited']);
    expect(r.last).toBe('exited');
  });

  it('is the only place in the worker that builds a status message', () => {
    const builders = tsFiles(join(ROOT, 'src', 'worker'))
      .filter((f) => /type:\s*'status'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(builders).toEqual([REPORTER]);
  });
});
