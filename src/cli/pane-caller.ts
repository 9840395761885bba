// What `larkmux where` and `larkmux send` share: proving to the daemon which process is asking.
import { randomBytes } from 'node:crypto';
import { controlCall } from '../platform/control-client.js';
import { CONTROL_CLIENT_GRACE_MS, controlDeadlineMs, type CallerClaim } from '../shared/control-protocol.js';
import { proofTitle } from '../shared/pane-identity.js';
import { EXIT } from './types.js';

/** What a caller outside any larkmux pane is told (DESIGN §11); the exit code is EXIT.notInPane. */
export const NOT_IN_PANE = 'not in a larkmux pane';

/**
 * The daemon reads this process's tty and ancestors itself; the nonce in the process title proves the pid is ours
 * (the daemon reads it back from /proc/<pid>/cmdline). Nothing from the environment ($TMUX, $TMUX_PANE) is used.
 */
export function proveCaller(): CallerClaim {
  const proof = randomBytes(8).toString('hex');
  process.title = proofTitle(proof);
  return { pid: process.pid, proof };
}

export type PaneAnswer<T> = { kind: 'answer'; data: T } | { kind: 'no_daemon' } | { kind: 'error'; message: string };

/**
 * One control request from a pane command, its answer checked against `schema`. It waits a little longer than the
 * daemon works on the request (uploads take a while on a slow link), so the daemon's own error arrives first.
 */
export async function askFromPane<T>(
  socketPath: string,
  req: Parameters<typeof controlCall>[1],
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
): Promise<PaneAnswer<T>> {
  const res = await controlCall(socketPath, req, controlDeadlineMs(req.cmd) + CONTROL_CLIENT_GRACE_MS);
  if (!res.ok) return res.code === 'not_running' ? { kind: 'no_daemon' } : { kind: 'error', message: res.message };
  const parsed = schema.safeParse(res.data);
  return parsed.success ? { kind: 'answer', data: parsed.data } : { kind: 'error', message: 'the daemon sent an unexpected answer' };
}

/**
 * Says why an ask brought no answer and returns the exit code. `notRunning` prints the line for a daemon that is not
 * running: `where` puts it on stdout (it is the answer to "where am I"), `send` on stderr with its other failures.
 */
export function sayNoAnswer(res: Exclude<PaneAnswer<unknown>, { kind: 'answer' }>, command: string, notRunning: (line: string) => void, err: (line: string) => void): number {
  if (res.kind === 'no_daemon') {
    notRunning(`${NOT_IN_PANE} (larkmux is not running)`);
    return EXIT.notInPane;
  }
  err(`larkmux ${command}: ${res.message}`);
  return EXIT.failure;
}
