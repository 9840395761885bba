// Running one `larkmux` subcommand from its table entry: help, flags, arguments, then the command. Shared by the
// command of this installation (main.ts) and the one in a host's panes (pane-main.ts, `where` and `send` only).
import { larkmuxCommand } from '../platform/larkmux-command.js';
import type { LarkmuxPaths } from '../platform/paths.js';
import { translator } from '../shared/i18n.js';
import { parseArgs } from './args.js';
import { cliLocale } from './cli-locale.js';
import { EXIT, type CliCommand } from './types.js';

export interface TerminalIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** `larkmux start | head`: the reader may go away; the command still finishes its work and stays quiet. */
export function terminalIo(): TerminalIo {
  let stdoutOpen = true;
  let stderrOpen = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stdoutOpen = false;
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stderrOpen = false;
  });
  return {
    out: (l) => void (stdoutOpen && process.stdout.write(`${l}\n`)),
    err: (l) => void (stderrOpen && process.stderr.write(`${l}\n`)),
  };
}

export function commandUsage(c: CliCommand): string {
  const flags = c.flags.map((f) => `  ${f.short ? `-${f.short}, ` : '    '}--${f.name}${f.value ? ` ${f.value}` : ''}  ${f.description}`);
  return [`usage: larkmux ${c.name}${c.params ? ` ${c.params}` : ''}${c.flags.length ? ' [flags]' : ''}`, `${c.summary}.`, ...(flags.length ? ['', ...flags] : [])].join('\n');
}

/** Runs `cmd` with the arguments after its name; its exit code. */
export async function runCommand(cmd: CliCommand, rest: string[], env: NodeJS.ProcessEnv, paths: LarkmuxPaths, { out, err }: TerminalIo): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    out(commandUsage(cmd));
    return EXIT.ok;
  }
  const parsed = parseArgs(rest, cmd.flags);
  if (!parsed.ok) {
    err(`larkmux ${cmd.name}: ${parsed.error}\n`);
    err(commandUsage(cmd));
    return EXIT.usage;
  }
  if (!cmd.params && parsed.args.length > 0) {
    err(`larkmux ${cmd.name}: unexpected argument "${parsed.args[0]}"\n`);
    err(commandUsage(cmd));
    return EXIT.usage;
  }
  return cmd.run({ args: parsed.args, flags: parsed.flags, paths, env, cmd: larkmuxCommand(env), t: translator(cliLocale(env)), out, err });
}

/** The process's exit code once `run` settles (a thrown error is a failure, said in one line). */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`larkmux: ${(e as Error).message}\n`);
      process.exitCode = EXIT.failure;
    },
  );
}
