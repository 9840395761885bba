// The host agent's entry, run on a host as `node <bundle>/host-agent.js [--home <larkmux folder there>]` over one ssh
// channel: frames on stdin/stdout, its own log lines (JSON) on stderr, which the daemon puts in its log. It only wires
// (see host-agent.ts). With a home it also serves `larkmux where|send` for the host's panes: the `larkmux` in their
// PATH (home/run/bin) and its unix socket (home/run/pane-control.sock, 0600); nothing listens on the network.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_NAME, sha256Hex } from '../../platform/bundle-manifest.js';
import { ControlServer } from '../../platform/control-server.js';
import { readMemAvailable } from '../../platform/meminfo.js';
import { writePaneCommand } from '../../platform/pane-command-file.js';
import { larkmuxPaths } from '../../platform/paths.js';
import { HOST_PANE_SOCKET } from '../../shared/host-agent-protocol.js';
import { tmuxSocketName } from '../../shared/tmux-socket.js';
import { HostAgent, type AgentLog } from './host-agent.js';
import { HOST_UPLOAD_VERB } from '../../shared/host-upload-protocol.js';
import { receiveUpload } from './host-upload.js';
import { HOST_ADOPT_VERB } from '../../shared/host-adopt-protocol.js';
import { answerAdopt } from './host-adopt.js';

const here = dirname(fileURLToPath(import.meta.url));
const log: AgentLog = (level, msg, fields = {}) => {
  process.stderr.write(JSON.stringify({ level, time: Date.now(), name: 'host-agent', msg, ...fields }) + '\n');
};
process.stderr.on('error', () => undefined);

// `put`: one attachment copied into a session's folder here (host-upload.ts), then exit; not the agent.
if (process.argv[2] === HOST_UPLOAD_VERB) {
  const res = await receiveUpload(process.stdin);
  process.stdout.write(JSON.stringify(res) + '\n', () => process.exit(res.ok ? 0 : 1));
} else if (process.argv[2] === HOST_ADOPT_VERB) {
  // `adopt`: list, link or unlink a hand-started pane for /adopt (host-adopt.ts), then exit.
  const res = await answerAdopt(process.stdin);
  process.stdout.write(JSON.stringify(res) + '\n', () => process.exit(res.ok ? 0 : 1));
} else {
  runAgent();
}

function runAgent(): void {
  let sha: string;
  try {
    sha = sha256Hex(readFileSync(join(here, MANIFEST_NAME)));
  } catch {
    log('error', `${MANIFEST_NAME} is missing next to the agent: it runs only from a built bundle`);
    process.exit(2);
  }
  const homeAt = process.argv.indexOf('--home');
  const home = homeAt > 0 ? process.argv[homeAt + 1] : undefined;
  let panes: ControlServer | null = null;
  let linkGone = false;
  // Built, main.js sits next to this file; under tsx (tests of the source) it is the worker's main.ts one level up.
  const workerEntry = import.meta.url.endsWith('.ts') ? join(here, '..', 'main.ts') : join(here, 'main.js');
  const agent = new HostAgent({
    input: process.stdin, output: process.stdout, workerEntry, sha, env: process.env, log, memAvailable: () => readMemAvailable(),
    onDone: () => process.exit(0),
    // The workers' own tmux server: the one the folder derives, as RemoteWorker's init names it.
    tmuxSocket: home ? tmuxSocketName(null, home) : null,
    onLinkLost: () => {
      linkGone = true;
      void panes?.dispose();
    },
  });
  agent.run();
  if (home) void servePanes(home, agent, (s) => { panes = s; return linkGone; });
}

/** `larkmux where|send` for this host's panes; `adopt` keeps the server and says whether the link is already gone. */
async function servePanes(home: string, agent: HostAgent, adopt: (server: ControlServer) => boolean): Promise<void> {
  const paths = larkmuxPaths(home);
  const lines = {
    warn: (fields: Record<string, unknown>, msg: string) => log('warn', msg, fields),
    error: (fields: Record<string, unknown>, msg: string) => log('error', msg, { ...fields, err: (fields.err as Error | undefined)?.message }),
  };
  try {
    await writePaneCommand(paths, { node: process.execPath, bin: join(here, 'larkmux-pane.js') });
    const server = new ControlServer(join(paths.run, HOST_PANE_SOCKET), agent.paneAsks.handlers(), lines);
    await server.listen();
    if (adopt(server)) void server.dispose();
  } catch (err) {
    // The sessions still run; only `larkmux where|send` in the host's panes will say larkmux is not running.
    log('error', 'the pane socket could not be set up', { err: (err as Error).message });
  }
}
