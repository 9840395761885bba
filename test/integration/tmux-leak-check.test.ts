// Issue 31 item 19: the end-of-run check finds a test's tmux server that outlived its test, kills it and says so — and
// never touches a server whose name the run did not record (the developer's own, CI's, another run's).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endSurvivors } from '../support/tmux-leak-check.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function server(): TestTmuxServer {
  const s = makeTmuxServer();
  cleanups.push(() => s.kill());
  return s;
}

function registry(names: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-leak-check-'));
  for (const n of names) writeFileSync(join(dir, n), '');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('end-of-run tmux server check', () => {
  it('names, kills and fails on a recorded server that still runs; leaves unrecorded ones alone', async () => {
    const leaked = server();
    const notOurs = server();
    const ended = server();
    for (const s of [leaked, notOurs, ended]) expect((await s.run(['new-session', '-d', '-s', 'keepalive', 'sleep', '600'])).code).toBe(0);
    await ended.kill();
    const reports: string[] = [];

    const failed = await endSurvivors(registry([leaked.socket, ended.socket, 'lmx-t-never-started']), (t) => reports.push(t));

    expect(failed).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(`tmux -L ${leaked.socket} `);
    expect(reports[0]).toContain('sessions: keepalive');
    expect(reports[0]).not.toContain(ended.socket);
    expect(reports[0]).not.toContain(notOurs.socket);
    expect((await leaked.run(['list-sessions'])).code).not.toBe(0);
    expect((await notOurs.run(['has-session', '-t', '=keepalive'])).code).toBe(0);
  });

  it('passes quietly when every recorded server has ended', async () => {
    const s = server();
    expect((await s.run(['new-session', '-d', '-s', 'x', 'sleep', '600'])).code).toBe(0);
    await s.kill();
    const reports: string[] = [];
    expect(await endSurvivors(registry([s.socket]), (t) => reports.push(t))).toBe(false);
    expect(reports).toEqual([]);
  });
});
