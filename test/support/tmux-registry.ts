// The names of the tmux servers this test run starts, one empty file per name in a directory the run's global setup
// makes (test/support/tmux-leak-check.ts). The check at the end of the run looks only at these names: a server the
// developer or CI runs has a name no test makes (random, or derived from a fresh temporary LARKMUX_HOME), so the check
// never reaches it, and a test run next to this one has its own directory.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a test process finds the run's directory (set by the global setup before any test file starts). */
export const TMUX_REGISTRY_ENV = 'LMX_TEST_TMUX_REGISTRY';

/** tmux socket names tests make: letters, digits, `-`, `_`, `.` — also safe as a file name. */
const SOCKET_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** Records `socket` as one this run starts a server on (a no-op outside a vitest run, e.g. in a benchmark). */
export function registerTestTmuxSocket(socket: string): string {
  const dir = process.env[TMUX_REGISTRY_ENV];
  if (!dir) return socket;
  if (!SOCKET_NAME.test(socket)) throw new Error(`not a test tmux socket name: ${JSON.stringify(socket)}`);
  writeFileSync(join(dir, socket), '');
  return socket;
}

/** The socket names recorded in `dir`. */
export function registeredTestTmuxSockets(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => SOCKET_NAME.test(n)).sort() : [];
}
