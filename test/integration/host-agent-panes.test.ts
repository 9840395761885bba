// The host agent's side of `larkmux where|send` in a host's pane: the bundle's larkmux-pane.js, run in a real tmux pane,
// asks the agent's unix socket; the agent finds the pane by the caller's tty and sends the daemon a pane_ask naming
// that pane and the request (no session); the daemon's pane_answer reaches the caller. A link lost while a caller waits
// answers it at once. The agent class in this process; its "link" is a pair of streams this test plays the daemon on.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { ControlServer } from '../../src/platform/control-server.js';
import { encodeFrame, FrameDecoder } from '../../src/shared/frame-codec.js';
import { HOST_PANE_SOCKET, parseAgentToDaemon, type AgentPaneAsk } from '../../src/shared/host-agent-protocol.js';
import { quoteShellArg } from '../../src/shared/shell-quote.js';
import { HostAgent } from '../../src/worker/host/host-agent.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { until } from '../support/until.js';

const PANE_ENTRY = join(import.meta.dirname, '..', '..', 'dist', 'worker', 'bundle', 'larkmux-pane.js');

let tmux: TestTmuxServer | undefined;
let server: ControlServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.dispose();
  await tmux?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An agent on a fake link, its pane socket served in `home`; `asks` collects the pane_ask frames it sends. */
async function agentOnFakeLink(home: string, socket: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  const asks: AgentPaneAsk[] = [];
  const decoder = new FrameDecoder();
  output.on('data', (chunk: Buffer) => {
    for (const ev of decoder.push(chunk)) {
      const parsed = ev.kind === 'frame' ? parseAgentToDaemon(ev.value) : null;
      if (parsed?.ok && parsed.frame.kind === 'pane_ask') asks.push(parsed.frame);
    }
  });
  const logs: string[] = [];
  const agent = new HostAgent({
    input, output, workerEntry: '/nonexistent', sha: 'a'.repeat(64), env: {}, tmuxSocket: socket, memAvailable: () => null,
    log: (_level, msg, fields) => void logs.push(`${msg} ${JSON.stringify(fields ?? {})}`), onDone: () => undefined,
    onLinkLost: () => void server?.dispose(),
  });
  agent.run();
  const log = { warn: () => undefined, error: () => undefined };
  server = new ControlServer(join(home, 'run', HOST_PANE_SOCKET), agent.paneAsks.handlers(), log);
  await server.listen();
  return { input, asks, logs };
}

/** Types `larkmux <args>` (the bundle's pane entry, against `home`) into the pane, then `echo <mark>-$?`. */
async function typeInPane(t: TestTmuxServer, home: string, args: string, mark: string): Promise<void> {
  const line = `LARKMUX_HOME=${quoteShellArg(home)} ${quoteShellArg(process.execPath)} ${quoteShellArg(PANE_ENTRY)} ${args}; echo ${mark}-$?`;
  await t.run(['send-keys', '-t', 'pane', '-l', line]);
  await t.run(['send-keys', '-t', 'pane', 'Enter']);
}

const paneText = async (t: TestTmuxServer) => (await t.run(['capture-pane', '-p', '-J', '-t', 'pane'])).stdout;

it('relays where from a real pane as the pane it found (no session named) and prints the daemon\'s answer', { timeout: 60_000 }, async () => {
  tmux = makeTmuxServer();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-agent-panes-')));
  const { input, asks } = await agentOnFakeLink(dir, tmux.socket);
  expect((await tmux.run(['new-session', '-d', '-s', 'pane', '-x', '200', '-y', '30', 'bash', '--norc', '--noprofile'])).code).toBe(0);
  const [paneId, paneTty] = (await tmux.run(['display-message', '-p', '-t', 'pane', '#{pane_id}\t#{pane_tty}'])).stdout.trim().split('\t');

  await typeInPane(tmux, dir, 'where', 'where-exit');
  const ask = await until('the pane_ask', () => asks[0], 20_000);
  // What crosses is the pane found by the caller's tty on this host, and the request: nothing that names a session.
  expect(ask).toEqual({ kind: 'pane_ask', id: 0, pane: { tmuxSession: 'pane', paneId, tty: paneTty }, ask: { cmd: 'where' } });
  const where = {
    inPane: true, session: 'f'.repeat(32), bot: 'bot0', cli: 'shell', cwd: '/srv/app',
    topic: { chatId: 'oc_1', anchorId: 'om_1', scope: 'thread' }, pane: ask.pane,
  };
  input.write(encodeFrame({ kind: 'pane_answer', id: ask.id, answer: { ok: true, where } }));
  await until('the where output', async () => /where-exit-\d/.test(await paneText(tmux!)), 20_000);
  const text = await paneText(tmux);
  expect(text).toContain(`session  ${'f'.repeat(32)}`);
  expect(text).toContain(`pane     pane ${paneId} ${paneTty}`);
  expect(text).toContain('where-exit-0');

  // The daemon says the pane is no session's: exit 3, the local words.
  await typeInPane(tmux, dir, 'where', 'again-exit');
  const second = await until('the second pane_ask', () => asks[1], 20_000);
  input.write(encodeFrame({ kind: 'pane_answer', id: second.id, answer: { ok: true, where: { inPane: false } } }));
  await until('the second output', async () => /again-exit-\d/.test(await paneText(tmux!)), 20_000);
  expect(await paneText(tmux)).toMatch(/not in a larkmux pane\s+again-exit-3/);
});

it('a caller waiting on the daemon hears at once that the link is down, and the socket is gone with it', { timeout: 60_000 }, async () => {
  tmux = makeTmuxServer();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-agent-panes-')));
  const { input, asks } = await agentOnFakeLink(dir, tmux.socket);
  expect((await tmux.run(['new-session', '-d', '-s', 'pane', '-x', '200', '-y', '30', 'bash', '--norc', '--noprofile'])).code).toBe(0);

  await typeInPane(tmux, dir, "send --text 'never answered'", 'send-exit');
  const ask = await until('the pane_ask', () => asks[0], 20_000);
  expect(ask.ask).toEqual({ cmd: 'send', items: [{ kind: 'text', text: 'never answered' }] });
  input.end();
  await until('the send output', async () => /send-exit-\d/.test(await paneText(tmux!)), 20_000);
  expect(await paneText(tmux)).toMatch(/larkmux send: the link to the larkmux daemon is down\s+send-exit-1/);

  // With the link gone, the socket is too: the next call is told larkmux is not running (exit 3), never left hanging.
  await typeInPane(tmux, dir, 'where', 'after-exit');
  await until('the after output', async () => /after-exit-\d/.test(await paneText(tmux!)), 20_000);
  expect(await paneText(tmux)).toMatch(/not in a larkmux pane \(larkmux is not running\)\s+after-exit-3/);
});
