// The host's side of /adopt (`host-agent.js adopt`): a request on stdin, answered from larkmux's tmux server for the
// given folder (the one the host's workers use), by the local scan and link. Real tmux; the server is the one that
// folder derives, made and killed by the test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { answerAdopt } from '../../src/worker/host/host-adopt.js';

let home: string;
const tmux = (args: string[]) => spawnSync('tmux', ['-L', tmuxSocketName(null, home), ...args], { encoding: 'utf8' });
const ask = (req: unknown) => answerAdopt(Readable.from([Buffer.from(typeof req === 'string' ? req : JSON.stringify(req))]));

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hostadopt-')));
});
afterEach(() => {
  tmux(['kill-server']);
  rmSync(home, { recursive: true, force: true });
});

describe('answerAdopt', () => {
  it('no server yet: an empty list, not a failure', async () => {
    expect(await ask({ action: 'list', home, cli: 'shell' })).toEqual({ ok: true, candidates: [], notAdoptable: 0 });
  });

  it('lists a hand-started shell, links it into lmx-<id8> (same PID), no longer lists it, and unlinks it again', async () => {
    expect(tmux(['new-session', '-d', '-s', 'mine', '-c', home, '--', 'bash', '--norc', '--noprofile']).status).toBe(0);
    const panePid = Number(tmux(['display-message', '-p', '-t', 'mine:', '#{pane_pid}']).stdout.trim());
    const listed = await ask({ action: 'list', home, cli: 'shell' });
    expect(listed.ok).toBe(true);
    const [c] = (listed as { candidates: { paneId: string; cliPid: number; cwd: string; tmuxSession: string }[] }).candidates;
    expect(c).toMatchObject({ tmuxSession: 'mine', cliPid: panePid, cwd: home });

    // A stale pick (another pid in that pane) is refused as gone; nothing is created.
    expect(await ask({ action: 'link', home, cli: 'shell', paneId: c!.paneId, cliPid: panePid + 100000, tmuxName: 'lmx-0123abcd' })).toEqual({ ok: false, code: 'gone' });
    expect(tmux(['has-session', '-t', '=lmx-0123abcd']).status).not.toBe(0);

    const linked = await ask({ action: 'link', home, cli: 'shell', paneId: c!.paneId, cliPid: panePid, tmuxName: 'lmx-0123abcd' });
    expect(linked).toMatchObject({ ok: true, candidate: { paneId: c!.paneId, cliPid: panePid } });
    expect(tmux(['list-panes', '-t', '=lmx-0123abcd:', '-F', '#{pane_pid}']).stdout.trim()).toBe(String(panePid));
    expect(await ask({ action: 'list', home, cli: 'shell' })).toEqual({ ok: true, candidates: [], notAdoptable: 0 });

    expect(await ask({ action: 'unlink', home, tmuxName: 'lmx-0123abcd' })).toEqual({ ok: true });
    expect(tmux(['has-session', '-t', '=lmx-0123abcd']).status).not.toBe(0);
    expect(tmux(['list-panes', '-t', '=mine:', '-F', '#{pane_pid}']).stdout.trim()).toBe(String(panePid));
  });

  it.each([['not json'], [{ action: 'list', home: 'relative', cli: 'shell' }], [{ action: 'unlink', home: '/h', tmuxName: 'mine' }]])('refuses %j with bad_request', async (req) => {
    expect(await ask(req)).toMatchObject({ ok: false, code: 'bad_request' });
  });
});
