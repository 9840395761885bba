// `larkmux` in a pane on a larkmux host (bundled as larkmux-pane.js beside the host agent): `where` and `send`, asked of
// the host agent's pane socket, which finds the caller's pane there and relays to the daemon. Nothing else runs here:
// the daemon, its config and its sessions live on the daemon's machine.
import { join } from 'node:path';
import { larkmuxPaths, resolveHome } from '../platform/paths.js';
import { HOST_PANE_ONLY, HOST_PANE_SOCKET } from '../shared/host-agent-protocol.js';
import { send } from './commands/send.js';
import { where } from './commands/where.js';
import { exitWith, runCommand, terminalIo } from './dispatch.js';
import { EXIT } from './types.js';

const PANE_COMMANDS = [where, send];

async function paneMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const io = terminalIo();
  const [name, ...rest] = argv;
  const cmd = PANE_COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`larkmux${name ? ` ${name}` : ''}: ${HOST_PANE_ONLY}`);
    return EXIT.usage;
  }
  const paths = larkmuxPaths(resolveHome(env));
  return runCommand(cmd, rest, env, { ...paths, controlSocket: join(paths.run, HOST_PANE_SOCKET) }, io);
}

exitWith(paneMain(process.argv.slice(2)));
