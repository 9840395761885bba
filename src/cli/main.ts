// The `larkmux` command: looks the subcommand up in the table, parses its flags, runs it, exits with its code.
import { larkmuxCommand } from '../platform/larkmux-command.js';
import { larkmuxPaths, resolveHome } from '../platform/paths.js';
import { LARKMUX_VERSION } from '../platform/version.js';
import { translator } from '../shared/i18n.js';
import { parseArgs } from './args.js';
import { cliLocale } from './cli-locale.js';
import { COMMANDS } from './commands/index.js';
import { EXIT, type CliCommand } from './types.js';

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

function commandUsage(c: CliCommand): string {
  const flags = c.flags.map((f) => `  ${f.short ? `-${f.short}, ` : '    '}--${f.name}${f.value ? ` ${f.value}` : ''}  ${f.description}`);
  return [`usage: larkmux ${c.name}${c.params ? ` ${c.params}` : ''}${c.flags.length ? ' [flags]' : ''}`, `${c.summary}.`, ...(flags.length ? ['', ...flags] : [])].join('\n');
}

// `larkmux start | head`: the reader may go away; the command still finishes its work (the daemon starts) and stays quiet.
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

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const out = (l: string) => void (stdoutOpen && process.stdout.write(`${l}\n`));
  const err = (l: string) => void (stderrOpen && process.stderr.write(`${l}\n`));
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
  const paths = larkmuxPaths(resolveHome(env));
  return cmd.run({ args: parsed.args, flags: parsed.flags, paths, env, cmd: larkmuxCommand(env), t: translator(cliLocale(env)), out, err });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`larkmux: ${(e as Error).message}\n`);
    process.exitCode = EXIT.failure;
  },
);
