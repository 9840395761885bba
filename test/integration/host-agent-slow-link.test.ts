// The host agent on a stalled link: a worker's screens are held back (only the newest per session) instead of piling up
// in memory, every other message still queues in order, and once the link drains the newest screen goes out. The
// agent class in this process with the real bundled worker and a real tmux; the "link" is a stream that stalls on demand.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { HostAgent } from '../../src/worker/host/host-agent.js';
import { encodeFrame, FrameDecoder } from '../../src/shared/frame-codec.js';
import { IPC_PROTOCOL_VERSION, type WorkerToDaemon } from '../../src/shared/ipc.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { until } from '../support/until.js';

const BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'worker', 'bundle');

let tmux: TestTmuxServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await tmux?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('holds back screens while the link is stalled and sends the newest once it drains', { timeout: 120_000 }, async () => {
  tmux = makeTmuxServer();
  dir = mkdtempSync(join(tmpdir(), 'lmx-slow-'));
  writeFileSync(join(dir, '.bash_profile'), "PS1='$ '\nPS2='> '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
  // The link: everything written is kept; while stalled, no write completes, so the agent's queue only grows.
  const written: Buffer[] = [];
  const stalled: (() => void)[] = [];
  let stall = true;
  const output = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      written.push(chunk);
      if (stall) stalled.push(() => done());
      else done();
    },
  });
  const input = new PassThrough();
  const logs: string[] = [];
  const agent = new HostAgent({
    input, output, workerEntry: join(BUNDLE, 'main.js'), sha: 'a'.repeat(64), env: { PATH: process.env.PATH, HOME: dir },
    log: (_level, msg) => void logs.push(msg), memAvailable: () => null, onDone: () => undefined, screenHoldBytes: 1,
  });
  agent.run();
  const sid = randomBytes(16).toString('hex');
  input.write(encodeFrame({ kind: 'start', session: sid, env: { LARKMUX_HOME: dir } }));
  input.write(encodeFrame({ kind: 'msg', session: sid, msg: {
    type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId: sid, sessionKey: 'oc_slow::cli_a1b2c3d4e5f60718', home: dir, cli: 'shell',
    cwd: dir, env: { HOME: dir, PATH: process.env.PATH ?? '/usr/bin:/bin' }, backend: 'tmux', tmuxSocket: tmux.socket,
    tmuxName: `lmx-${sid.slice(0, 8)}`, resume: { mode: 'new' }, display: 'screenshot', frameIntervalMs: 0, cols: 80, rows: 24,
  } }));
  input.write(encodeFrame({ kind: 'msg', session: sid, msg: { type: 'input', turnId: 't1', text: 'for i in 1 2 3 4 5 6; do echo n-$i; sleep 0.3; done; echo end-mark', requester: { userId: 'ou_1' } } }));
  const newest = () => (agent.heldScreen(sid) as Extract<WorkerToDaemon, { type: 'screen' }> | undefined)?.screen.ansi ?? '';
  await until('the newest screen to be held', () => newest().includes('end-mark') && newest().includes('n-6'), 60_000);

  stall = false;
  for (const done of stalled.splice(0)) done();
  const decoder = new FrameDecoder();
  const frames = () => decoder.push(Buffer.concat(written.splice(0))).flatMap((e) => (e.kind === 'frame' ? [e.value as { kind: string; msg?: WorkerToDaemon }] : []));
  const seen: WorkerToDaemon[] = [];
  await until('the held screen and the answer to arrive', () => {
    for (const f of frames()) if (f.kind === 'msg' && f.msg) seen.push(f.msg);
    return seen.some((m) => m.type === 'screen') && seen.some((m) => m.type === 'final_output');
  }, 60_000);
  const screens = seen.filter((m): m is Extract<WorkerToDaemon, { type: 'screen' }> => m.type === 'screen');
  // None of the intermediate screens (n-1 … n-5 as the last line) was queued: the first out is the newest held one;
  // any after it are the pane changing again (its prompt) once the link flowed.
  expect(screens.length).toBeGreaterThan(0);
  for (const sc of screens) expect(sc.screen.ansi).toContain('end-mark');
  expect(seen.find((m) => m.type === 'final_output')).toMatchObject({ turnId: 't1' });
  expect(agent.heldScreen(sid)).toBeUndefined();

  input.write(encodeFrame({ kind: 'msg', session: sid, msg: { type: 'close', mode: 'kill' } }));
  await until('the worker to exit', () => {
    for (const f of frames()) if (f.kind === 'exit') return true;
    return false;
  }, 60_000);
  input.end();
});
