// This installation's bin/larkmux.js, the script the service unit and every pane's `larkmux` wrapper run.
import { fileURLToPath } from 'node:url';

/** This installation's bin/larkmux.js: src/platform/ and dist/platform/ are two levels below the root. */
export function installedBin(): string {
  return fileURLToPath(new URL('../../bin/larkmux.js', import.meta.url));
}
