// The host agent's entry, run on a host as `node <bundle>/host-agent.js [--home <larkmux folder there>]` over one ssh
// channel: frames on stdin/stdout, its own log lines (JSON) on stderr, which the daemon puts in its log. It only wires
// (see host-agent.ts). With a home it also serves `larkmux where|send` for the host's panes: the `larkmux` in their
// PATH (home/run/bin) and its unix socket (home/run/pane-control.sock, 0600); nothing listens on the network.
// Run as `host-agent.js put`, `changes` or `get` it answers one request on stdin instead (host-upload.ts,
// host-changes.ts, host-fetch.ts) and exits.
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
import { HOST_CHANGES_VERB } from '../../shared/host-changes-protocol.js';
import { receiveChangesRequest } from './host-changes.js';
import { HOST_FETCH_VERB } from '../../shared/host-fetch-protocol.js';
import { fetchOutput, serveFetch } from './host-fetch.js';
import { HOST_ADOPT_VERB } from '../../shared/host-adopt-protocol.js';
import { answerAdopt } from './host-adopt.js';

const here = dirname(fileURLToPath(import.meta.url));
const log: AgentLog = (level, msg, fields = {}) => {
  process.stderr.write(JSON.stringify({ level, time: Date.now(), name: 'host-agent', msg, ...fields }) + '\n');
};
process.stderr.on('error', () => undefined);

/** One answer of a one-shot verb: what goes to stdout, and whether it is a success (the exit code). */
type VerbAnswer = { out: string | Buffer; ok: boolean };
const asLine = (res: { ok: boolean }): VerbAnswer => ({ out: JSON.stringify(res) + '\n', ok: res.ok });

/**
 * The one-shot verbs, each run by the daemon as its own ssh command over the ControlMaster: one request on stdin, one
 * answer on stdout, then exit (not the agent). `put`: an attachment into a session's folder (host-upload.ts);
 * `changes`: a git question about a session's folder (host-changes.ts); `get`: a file a pane here sends, read by the
 * local rules (host-fetch.ts); `adopt`: list, link or unlink a hand-started pane for /adopt (host-adopt.ts).
 */
const VERBS: Readonly<Record<string, () => Promise<VerbAnswer>>> = {
  [HOST_UPLOAD_VERB]: async () => asLine(await receiveUpload(process.stdin)),
  [HOST_CHANGES_VERB]: async () => asLine(await receiveChangesRequest(process.stdin)),
  [HOST_FETCH_VERB]: async () => {
    const served = await serveFetch(process.stdin);
    return { out: fetchOutput(served), ok: served.answer.ok };
  },
  [HOST_ADOPT_VERB]: async () => asLine(await answerAdopt(process.stdin)),
};

const verb = process.argv[2];
if (verb !== undefined && Object.hasOwn(VERBS, verb)) {
  const { out, ok } = await VERBS[verb]!();
  process.stdout.write(out, () => process.exit(ok ? 0 : 1));
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
