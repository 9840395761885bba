// How the person at this terminal runs larkmux, decided once: every message that names a command (`… restart`) uses it,
// so a newcomer who ran `npx larkmux start` after `npm ci` (larkmux not on PATH) is never told to type `larkmux …`.
import { which } from './which.js';

/**
 * Pure decision: inside npm (npx or an npm script; npm puts node_modules/.bin on PATH only for that run) → `npx larkmux`;
 * else `larkmux` when it is on PATH (a global install or a link); otherwise `npx larkmux` (run in the larkmux folder).
 */
export function chooseLarkmuxCommand(viaNpm: boolean, onPath: boolean): 'larkmux' | 'npx larkmux' {
  if (viaNpm) return 'npx larkmux';
  return onPath ? 'larkmux' : 'npx larkmux';
}

/** The command for `env` (the daemon inherits its starter's environment, so it says the same as the CLI). */
export function larkmuxCommand(env: NodeJS.ProcessEnv = process.env): 'larkmux' | 'npx larkmux' {
  return chooseLarkmuxCommand(env.npm_command !== undefined || env.npm_lifecycle_event !== undefined, which('larkmux', env) !== null);
}
