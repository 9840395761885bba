// The command line that reaches this larkmux installation from inside a pane, for the CLI's pane hint.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { which } from '../../platform/which.js';
import { shellWord } from '../cli/pane-hint.js';

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** `larkmux` when PATH finds this very installation; otherwise node and this installation's bin script, quoted. */
export function larkmuxCommandLine(env: NodeJS.ProcessEnv = process.env): string {
  // src/worker/runtime/, dist/worker/runtime/ and the bundle's dist/worker/bundle/ are all three levels below the package root.
  const bin = fileURLToPath(new URL('../../../bin/larkmux.js', import.meta.url));
  const onPath = which('larkmux', env);
  if (onPath && real(onPath) === real(bin)) return 'larkmux';
  return `${shellWord(process.execPath)} ${shellWord(bin)}`;
}
