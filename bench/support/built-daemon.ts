// The daemon as a user runs it: `larkmux start` from bin/ with the compiled JavaScript in dist/, not tsx.
import type { E2eRig } from '../../test/support/e2e-daemon.js';
import { runLarkmux as runFrom } from '../../test/support/larkmux-cli.js';

export const runLarkmux = (args: string[], env: NodeJS.ProcessEnv) => runFrom(args, env, { from: 'built' });

export function expect0(code: number | null, what: string): void {
  if (code !== 0) throw new Error(`larkmux ${what} failed (exit ${code})`);
}

/** `larkmux start`, then waits until the bot's long connection is up. */
export async function startBuilt(rig: E2eRig): Promise<void> {
  expect0((await runLarkmux(['start'], rig.home.env)).code, 'start');
  await rig.fake.waitFor(() => rig.fake.connectionCount(rig.appIds[0]!) > 0, 15_000, 'connected');
}
