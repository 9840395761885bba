// The host agent's entry, run on a host as `node <bundle>/host-agent.js` over one ssh channel: frames on stdin/stdout,
// its own log lines (JSON) on stderr, which the daemon puts in its log. It only wires (see host-agent.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_NAME, sha256Hex } from '../../platform/bundle-manifest.js';
import { readMemAvailable } from '../../platform/meminfo.js';
import { HostAgent, type AgentLog } from './host-agent.js';
import { HOST_UPLOAD_VERB } from '../../shared/host-upload-protocol.js';
import { receiveUpload } from './host-upload.js';

const here = dirname(fileURLToPath(import.meta.url));
const log: AgentLog = (level, msg, fields = {}) => {
  process.stderr.write(JSON.stringify({ level, time: Date.now(), name: 'host-agent', msg, ...fields }) + '\n');
};
process.stderr.on('error', () => undefined);

// `put`: one attachment copied into a session's folder here (host-upload.ts), then exit; not the agent.
if (process.argv[2] === HOST_UPLOAD_VERB) {
  const res = await receiveUpload(process.stdin);
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
  // Built, main.js sits next to this file; under tsx (tests of the source) it is the worker's main.ts one level up.
  const workerEntry = import.meta.url.endsWith('.ts') ? join(here, '..', 'main.ts') : join(here, 'main.js');
  new HostAgent({ input: process.stdin, output: process.stdout, workerEntry, sha, env: process.env, log, memAvailable: () => readMemAvailable(), onDone: () => process.exit(0) }).run();
}
