// The test sshd itself: stopping it ends the sessions it serves, not only the listener. sshd gives every connection a
// session of its own (setsid), so a kill of the listener's process group used to leave `sshd: <user>@notty` behind for
// as long as a ControlMaster kept the connection open.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descendantPids, isLive } from '../support/proc-tree.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

let sshd: TestSshd;

beforeAll(async () => {
  sshd = await startTestSshd();
}, 60_000);

afterAll(async () => {
  await sshd?.cleanup();
});

function ssh(socket: string, ...args: string[]) {
  return spawnSync(
    'ssh',
    [
      '-o', 'BatchMode=yes',
      '-o', 'StrictHostKeyChecking=no',
      '-o', 'UserKnownHostsFile=/dev/null',
      '-o', 'LogLevel=ERROR',
      '-o', `ControlPath=${socket}`,
      '-i', sshd.clientKey,
      '-o', 'IdentitiesOnly=yes',
      '-p', String(sshd.port),
      ...args,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
}

it('stop ends the sessions a persistent ControlMaster keeps open, and start serves again', { timeout: 120_000 }, async () => {
  const socket = join(sshd.dir, 'cm');
  const listener = Number(readFileSync(join(sshd.dir, 'sshd.pid'), 'utf8'));
  // The master outlives this command (ControlPersist) and keeps its connection, so sshd keeps its session process.
  const first = ssh(socket, '-o', 'ControlMaster=yes', '-o', 'ControlPersist=yes', sshd.target, 'echo', 'up');
  expect(first.stdout, first.stderr).toBe('up\n');
  const served = await until('a session process under the listener', () => {
    const pids = descendantPids(listener);
    return pids.length > 0 && pids;
  });
  try {
    await sshd.stop();
    expect(served.filter(isLive)).toEqual([]);
    expect(isLive(listener)).toBe(false);
  } finally {
    ssh(socket, '-O', 'exit', sshd.target);
  }
  await sshd.start();
  const again = ssh(socket, '-o', 'ControlMaster=no', sshd.target, 'echo', 'again');
  expect(again.stdout, again.stderr).toBe('again\n');
});
