// The `larkmux` command: looks the subcommand up in the table, parses its flags, runs it, exits with its code.
import { larkmuxCommand } from '../platform/larkmux-command.js';
import { larkmuxPaths, resolveHome } from '../platform/paths.js';
import { LARKMUX_VERSION } from '../platform/version.js';
import { COMMANDS } from './commands/index.js';
import { exitWith, runCommand, terminalIo } from './dispatch.js';
import { EXIT } from './types.js';

function usage(cmd: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = [
    `larkmux ${LARKMUX_VERSION}: Feishu/Lark ⇄ coding CLIs in tmux`,
    '',
    'usage: larkmux <command> [flags]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run \`${cmd} <command> --help\` for its flags. Data lives in $LARKMUX_HOME (default ~/.larkmux).`,
  ];
  return lines.join('\n');
}

const io = terminalIo();

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { out, err } = io;
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    out(usage(larkmuxCommand(env)));
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === 'version') {
    out(LARKMUX_VERSION);
    return EXIT.ok;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    err(`larkmux: unknown command "${name}"\n`);
    err(usage(larkmuxCommand(env)));
    return EXIT.usage;
  }
  return runCommand(cmd, rest, env, larkmuxPaths(resolveHome(env)), io);
}

exitWith(main(process.argv.slice(2)));
