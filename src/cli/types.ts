// The shape of a `larkmux` subcommand: one file each, registered in commands/index.ts.
import type { LarkmuxPaths } from '../platform/paths.js';
import type { Translate } from '../shared/i18n.js';

export interface FlagSpec {
  name: string;
  short?: string;
  /** A flag that takes a value (`--lines 50`); otherwise it is a boolean switch. */
  value?: string;
  description: string;
}

export interface CliContext {
  args: string[];
  flags: Record<string, string | boolean>;
  paths: LarkmuxPaths;
  env: NodeJS.ProcessEnv;
  /** How this user runs larkmux (`larkmux` or `npx larkmux`): every message naming a command uses it. */
  cmd: string;
  /** The catalogue in the terminal's message locale (cli-locale.ts); `--json` output is never translated. */
  t: Translate;
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface CliCommand {
  name: string;
  summary: string;
  /** Positional arguments, for the usage line. */
  params?: string;
  flags: FlagSpec[];
  run(ctx: CliContext): Promise<number>;
}

/**
 * Exit codes: 0 ok, 1 failure, 2 usage error, 3 not running (as LSB status does), 78 bad config (EX_CONFIG, as the
 * daemon); `where`/`send` use 3 for "not in a larkmux pane" (DESIGN §11), also what a caller sees when no daemon runs.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, notRunning: 3, badConfig: 78, notInPane: 3 } as const;
