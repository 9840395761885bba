/**
 * Pure decision: inside npm (npx or an npm script; npm puts node_modules/.bin on PATH only for that run) → `npx larkmux`;
 * else `larkmux` when it is on PATH (a global install or a link); otherwise `npx larkmux` (run in the larkmux folder).
 */
export declare function chooseLarkmuxCommand(viaNpm: boolean, onPath: boolean): 'larkmux' | 'npx larkmux';
/** The command for `env` (the daemon inherits its starter's environment, so it says the same as the CLI). */
export declare function larkmuxCommand(env?: NodeJS.ProcessEnv): 'larkmux' | 'npx larkmux';
