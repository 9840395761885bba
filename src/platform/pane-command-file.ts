// Writes LARKMUX_HOME/run/bin/larkmux at daemon start: the `larkmux` every pane finds first on its PATH (issue 32).
// Never `npx larkmux` (npm would ask the public registry for a package of that name), never a global install that may
// be another version: this node binary, this installation's bin/larkmux.js, this home. A host agent writes the same
// file in larkmux's folder on its host, running the bundle's larkmux-pane.js (`where` and `send` only).
import type { LarkmuxPaths } from './paths.js';
import { paneCommandScript, type PaneCommandTarget } from '../shared/pane-command.js';
import { writeFileAtomic } from './durable-file.js';
import { installedBin } from './installed-bin.js';

/**
 * Replaces the wrapper atomically (a pane running `larkmux` while the daemon restarts sees the old file or the new one,
 * never half of one), mode 0755. `run/` stays owner-only, as it holds the control socket: writeFileAtomic creates the
 * missing folders 0700.
 */
export async function writePaneCommand(paths: LarkmuxPaths, target: Omit<PaneCommandTarget, 'home'> = { node: process.execPath, bin: installedBin() }): Promise<void> {
  const written = await writeFileAtomic(paths.paneCommand, paneCommandScript({ ...target, home: paths.home }), { mode: 0o755 });
  if (!written.ok) throw new Error(written.message);
}
