// The `larkmux` command inside a pane (issue 32): every CLI larkmux starts finds this installation under that name,
// bound to this home, and nothing else of larkmux's in its environment (no LARKMUX_HOME, TMUX or TMUX_PANE; issue 31).
// Pure: the daemon writes the wrapper (platform/pane-command-file.ts; a host agent writes the host's), the worker sets the pane's environment.
import { quoteShellArg } from './shell-quote.js';

/**
 * bash imports an exported function from a variable of this name before it reads any profile, so `larkmux` works in a
 * login shell whose /etc/profile resets PATH (Debian's does), and in the `bash -lc` a coding CLI runs its commands with.
 */
export const PANE_FUNCTION_VAR = 'BASH_FUNC_larkmux%%';

export interface PaneCommandTarget {
  /** The node binary that runs this installation (the daemon's process.execPath). */
  node: string;
  /** This installation's bin/larkmux.js. */
  bin: string;
  /** The larkmux home the command talks to. */
  home: string;
}

/** The wrapper's text: a /bin/sh script that runs this installation against this home, whatever the caller's env says. */
export function paneCommandScript(target: PaneCommandTarget): string {
  return [
    '#!/bin/sh',
    '# `larkmux` for the panes of one larkmux home, rewritten by its daemon at every start: edits do not last.',
    '# It runs the installation that started the daemon, against that daemon\'s home, so `larkmux where|send` reach it.',
    `LARKMUX_HOME=${quoteShellArg(target.home)}`,
    'export LARKMUX_HOME',
    `exec ${quoteShellArg(target.node)} ${quoteShellArg(target.bin)} "$@"`,
    '',
  ].join('\n');
}

/** PATH with `dir` first, once (a daemon started from inside a pane already has it somewhere). */
export function pathWithFirst(dir: string, path: string | undefined): string {
  const rest = (path ?? '').split(':').filter((p) => p !== '' && p !== dir);
  return [dir, ...rest].join(':');
}

/** The bash function's definition (the value of PANE_FUNCTION_VAR): it runs the wrapper by its absolute path. */
export function paneFunction(command: string): string {
  return `() { ${quoteShellArg(command)} "$@"; }`;
}

/**
 * What larkmux adds to a CLI's environment, past the bot-env filter: the wrapper's folder first on PATH, and the same
 * command as a bash function for shells whose profile rewrites PATH. `basePath` is the PATH the CLI would have had.
 */
export function paneCommandEnv(paneBin: string, paneCommand: string, basePath: string | undefined): Record<string, string> {
  return { PATH: pathWithFirst(paneBin, basePath), [PANE_FUNCTION_VAR]: paneFunction(paneCommand) };
}
