// Workers on another host, for real: a real sshd on 127.0.0.1 (test/support/sshd.ts) is the host, its larkmux files
// under a folder of their own. The built bundle lands there content-addressed, verified, reused, replaced when damaged;
// a shell session's worker runs through the host agent in an isolated tmux; a lost link ends the workers as `link_lost`
// while the CLI keeps running, and the next start attaches to it. Needs `npm run build` (the bundle is what ships).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteHost } from '../../src/daemon/workers/remote-host.js';
import { WorkerPool, type WorkerExit } from '../../src/daemon/workers/worker-pool.js';
import { MANIFEST_NAME, readBundle } from '../../src/platform/bundle-manifest.js';
import { createLogger } from '../../src/platform/log.js';
import { larkmuxPaths } from '../../src/platform/paths.js';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { tarOf } from '../../src/platform/ssh/bundle-tar.js';
import { copyScript, ensureRemoteBundle } from '../../src/platform/ssh/remote-bundle.js';
import { closeMaster, runProcess, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import type { SshPlaces } from '../../src/platform/ssh/ssh-argv.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES } from '../../src/shared/frame-codec.js';
import type { HostConfig } from '../../src/shared/host-config.js';
import { HOST_AGENT_PROTOCOL_VERSION } from '../../src/shared/host-agent-protocol.js';
import { IPC_PROTOCOL_VERSION, type DaemonToWorker, type WorkerToDaemon } from '../../src/shared/ipc.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { alive, makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { until } from '../support/until.js';

/** A secret the remote CLI gets: it travels inside init over the channel, never on a command line. */
const SECRET = `sk-remote-${randomBytes(6).toString('hex')}`;
const BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'worker', 'bundle');

let sshd: TestSshd;
let home: TestHome;
let host: HostConfig;
let places: SshPlaces;
/** larkmux's folder on the "host" (the ssh user's home is the real one: the test keeps to a folder of its own). */
let remoteRoot: string;
let shellHome: string;

beforeAll(async () => {
  if (!existsSync(join(BUNDLE, MANIFEST_NAME))) throw new Error('dist/worker/bundle is missing: run `npm run build` first');
  sshd = await startTestSshd();
  home = makeTestHome('lmx-remote-');
  places = sshPlaces(home.paths);
  host = { name: 'h1', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
  const [type, blob] = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ');
  writeFileSync(places.knownHosts, pinInKnownHosts('', knownHostsName('127.0.0.1', sshd.port), { type: type!, blob: blob! }));
  remoteRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-on-host-')));
  shellHome = mkdtempSync(join(tmpdir(), 'lmx-rsh-'));
  writeFileSync(join(shellHome, '.bash_profile'), "PS1='$ '\nPS2='> '\nunset PROMPT_COMMAND\nHISTFILE=/dev/null\n");
}, 60_000);

afterAll(async () => {
  if (host) await closeMaster(host, places);
  await sshd?.cleanup();
  home?.cleanup();
  for (const d of [remoteRoot, shellHome]) if (d) rmSync(d, { recursive: true, force: true });
});

const leftovers = () => readdirSync(join(remoteRoot, 'bundles')).filter((n) => n.startsWith('.'));

describe('the worker bundle on a host', () => {
  it('lands content-addressed and verified, is reused while unchanged, and a damaged copy is replaced', { timeout: 120_000 }, async () => {
    const bundle = readBundle(BUNDLE);
    const dir = join(remoteRoot, 'bundles', bundle.sha);
    const first = await ensureRemoteBundle(host, places, bundle, remoteRoot);
    expect(first).toEqual({ ok: true, dir, how: 'copied' });
    for (const f of bundle.files) expect(readFileSync(join(dir, f.name)).equals(f.bytes)).toBe(true);
    expect(readFileSync(join(dir, MANIFEST_NAME), 'utf8')).toBe(bundle.text);
    const copiedAt = readdirSync(dir).map((n) => [n, readFileSync(join(dir, n)).length]);

    expect(await ensureRemoteBundle(host, places, bundle, remoteRoot)).toEqual({ ok: true, dir, how: 'reused' });

    appendFileSync(join(dir, 'main.js'), '\n;globalThis.tampered = 1;\n');
    expect(await ensureRemoteBundle(host, places, bundle, remoteRoot)).toEqual({ ok: true, dir, how: 'replaced' });
    expect(readFileSync(join(dir, 'main.js')).equals(bundle.files.find((f) => f.name === 'main.js')!.bytes)).toBe(true);

    unlinkSync(join(dir, 'host-agent.js'));
    expect(await ensureRemoteBundle(host, places, bundle, remoteRoot)).toEqual({ ok: true, dir, how: 'replaced' });
    expect(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n)).length])).toEqual(copiedAt);
    expect(leftovers()).toEqual([]);
  });

  it('a copy that finds a sound bundle placed meanwhile keeps it in place: a worker may be loading from it', { timeout: 60_000 }, async () => {
    // Two placements that both saw the folder absent (the link's and a one-shot verb's; a quiet CI run on 2026-12-05: a worker died
    // on "Cannot find module chunk-….js" while the second copy had moved the folder aside). The loser's copy, run by
    // the host's sh as ssh would run it.
    const bundle = readBundle(BUNDLE);
    const dir = join(remoteRoot, 'bundles', bundle.sha);
    expect((await ensureRemoteBundle(host, places, bundle, remoteRoot)).ok).toBe(true);
    const placedIno = statSync(dir).ino;
    // ssh hands the remote shell the words joined by blanks (the script is quoted for that shell).
    const remoteLine = copyScript(remoteRoot, bundle.sha).join(' ');
    const files = [...bundle.files, { name: MANIFEST_NAME, bytes: Buffer.from(bundle.text) }];
    const late = await runProcess('sh', ['-c', remoteLine], { stdin: tarOf(files), timeoutMs: 30_000 });
    expect({ code: late.code, out: late.stdout.trim() }).toEqual({ code: 0, out: dir });
    expect(statSync(dir).ino).toBe(placedIno);
    expect(leftovers()).toEqual([]);
  });
});

/** Every process (of this machine, the daemon's and the host's side alike) whose command line holds `text`. */
function commandLinesWith(text: string): string[] {
  const hits: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes(text)) hits.push(`${pid}: ${cmd.replace(/\0/g, ' ')}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return hits;
}

type Init = Extract<DaemonToWorker, { type: 'init' }>;

/** `home`: what the daemon puts in init (its own home); the host's worker gets the host's root instead. */
function shellInit(sessionId: string, tmux: TestTmuxServer, resume: Init['resume'], home = remoteRoot): Init {
  return {
    type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId, sessionKey: `oc_remote::cli_a1b2c3d4e5f60718`, home,
    cli: 'shell', cwd: shellHome, env: { HOME: shellHome, PATH: process.env.PATH ?? '/usr/bin:/bin', CLI_KEY: SECRET }, backend: 'tmux',
    tmuxSocket: tmux.socket, tmuxName: `lmx-${sessionId.slice(0, 8)}`, resume, display: 'screenshot', cols: 100, rows: 30,
  };
}

describe('a session worker on a host', () => {
  it('runs through the host agent; a lost link ends it as link_lost with the CLI alive, and a new start attaches', { timeout: 240_000 }, async () => {
    const tmux = makeTmuxServer();
    const log = createLogger({ file: home.paths.logFile, name: 'daemon' });
    const remote = new RemoteHost({ host, places, log, bundle: () => readBundle(BUNDLE), remoteRoot });
    const pool = new WorkerPool({ log, remoteHost: (name) => (name === 'h1' ? remote : undefined) });
    const messages: WorkerToDaemon[] = [];
    const exits: WorkerExit[] = [];
    const events = { onMessage: (_: string, m: WorkerToDaemon) => void messages.push(m), onExit: (e: WorkerExit) => void exits.push(e) };
    const sid = randomBytes(16).toString('hex');
    const seen = (pred: (m: WorkerToDaemon) => boolean, what: string) => until(what, () => messages.find(pred), 60_000);
    const panePid = async () => Number((await tmux.run(['list-panes', '-t', `=lmx-${sid.slice(0, 8)}:`, '-F', '#{pane_pid}'])).stdout.trim());
    try {
      expect(pool.start(sid, shellInit(sid, tmux, { mode: 'new' }, home.dir), events, { host: 'nowhere' })).toBe(false);
      expect(pool.start(sid, shellInit(sid, tmux, { mode: 'new' }, home.dir), events, { host: 'h1' })).toBe(true);
      await seen((m) => m.type === 'ready', 'the remote worker to be ready');
      pool.send(sid, { type: 'input', turnId: 't1', text: 'echo remote-$((6*7))', requester: { userId: 'ou_1' } });
      await seen((m) => m.type === 'input_delivered' && m.turnId === 't1', 'delivery');
      // The worker keeps its files (the pane's output FIFO) in larkmux's folder on the host, not the daemon's home.
      await until('the FIFO on the host', () => existsSync(larkmuxPaths(remoteRoot).fifo(sid)));
      expect(existsSync(home.paths.fifo(sid))).toBe(false);
      expect(await seen((m) => m.type === 'final_output' && m.turnId === 't1', 'the answer')).toMatchObject({ text: 'remote-42' });
      pool.send(sid, { type: 'capture_now' });
      const screen = await seen((m) => m.type === 'screen' && m.screen.ansi.includes('remote-42'), 'a screen');
      expect(screen).toMatchObject({ type: 'screen', screen: { cols: 100, rows: 30 } });
      const cliPid = await panePid();
      expect(commandLinesWith(SECRET)).toEqual([]);
      const workerPid = pool.pid(sid)!;
      const agentPid = remote.agentPid!;
      // The worker runs from the bundle on the host, forked by the agent.
      expect(readFileSync(`/proc/${workerPid}/cmdline`, 'utf8')).toContain(join(remoteRoot, 'bundles'));
      expect(readFileSync(`/proc/${workerPid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]).toBe(String(agentPid));

      // The link drops (the ControlMaster ends): the worker is reported gone with the link, not as a crash.
      expect(await closeMaster(host, places)).toBe(true);
      const gone = await until('the exit report', () => exits.find((e) => e.sessionId === sid), 60_000);
      expect(gone).toMatchObject({ expected: false, cause: 'link_lost' });
      expect(remote.lastLoss?.why).toMatch(/^the link to the host closed \(ssh exit \d+\)$/);
      expect(pool.has(sid)).toBe(false);
      await until('the worker on the host to detach and exit', () => !alive(workerPid), 60_000);
      await until('the agent to exit', () => !alive(agentPid), 60_000);
      expect(await panePid()).toBe(cliPid);
      expect(alive(cliPid)).toBe(true);

      // A new start connects again and attaches to the CLI that kept running.
      messages.length = 0;
      expect(pool.start(sid, shellInit(sid, tmux, { mode: 'attach' }, home.dir), events, { host: 'h1' })).toBe(true);
      expect(await seen((m) => m.type === 'cli_started', 'the attach')).toMatchObject({ how: 'attached' });
      expect(remote.agentPid).not.toBe(agentPid);
      pool.send(sid, { type: 'input', turnId: 't2', text: 'echo again-$$', requester: { userId: 'ou_1' } });
      expect(await seen((m) => m.type === 'final_output' && m.turnId === 't2', 'the second answer')).toMatchObject({ text: `again-${cliPid}` });
      expect(await panePid()).toBe(cliPid);

      await pool.stop(sid, 'kill');
      expect(exits.filter((e) => e.sessionId === sid).at(-1)).toMatchObject({ expected: true });
      expect(exits.filter((e) => e.cause === 'link_lost')).toHaveLength(1);
    } finally {
      await pool.dispose();
      await remote.dispose();
      await tmux.kill();
    }
  });
});

describe('the pool watching a worker on a host', () => {
  it('kills a remote worker that sends no heartbeat through its agent: an unexpected exit, the link stays up', { timeout: 120_000 }, async () => {
    const tmux = makeTmuxServer();
    const log = createLogger({ file: home.paths.logFile, name: 'daemon' });
    const remote = new RemoteHost({ host, places, log, bundle: () => readBundle(BUNDLE), remoteRoot });
    // A worker sends a heartbeat every 30 s: with a 3 s limit, a quiet one counts as hung.
    const pool = new WorkerPool({ log, heartbeatTimeoutMs: 3_000, remoteHost: () => remote });
    const exits: WorkerExit[] = [];
    let ready = false;
    const sid = randomBytes(16).toString('hex');
    try {
      pool.start(sid, shellInit(sid, tmux, { mode: 'new' }), { onMessage: (_, m) => void (m.type === 'ready' && (ready = true)), onExit: (e) => void exits.push(e) }, { host: 'h1' });
      await until('ready', () => ready, 60_000);
      const workerPid = pool.pid(sid)!;
      const agentPid = remote.agentPid!;
      const exit = await until('the hung worker killed', () => exits[0], 60_000);
      expect(exit).toMatchObject({ sessionId: sid, expected: false, signal: 'SIGKILL' });
      expect(exit.cause).toBeUndefined();
      expect(alive(workerPid)).toBe(false);
      expect(remote.agentPid).toBe(agentPid);
      expect(alive(agentPid)).toBe(true);
    } finally {
      await pool.dispose();
      await remote.dispose();
      await tmux.kill();
    }
  });
});

describe('the host agent', () => {
  it('drops an oversized, a garbled and an invalid frame with a clear log, and keeps serving', { timeout: 120_000 }, async () => {
    const tmux = makeTmuxServer();
    const agent = spawn(process.execPath, [join(BUNDLE, 'host-agent.js')], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: shellHome } });
    const frames: Record<string, unknown>[] = [];
    const decoder = new FrameDecoder();
    agent.stdout.on('data', (c: Buffer) => decoder.push(c).forEach((e) => e.kind === 'frame' && frames.push(e.value as Record<string, unknown>)));
    let stderr = '';
    agent.stderr.on('data', (d) => (stderr += d));
    const sid = randomBytes(16).toString('hex');
    try {
      const hello = await until('hello', () => frames.find((f) => f.kind === 'hello'));
      expect(hello).toMatchObject({ protocol: HOST_AGENT_PROTOCOL_VERSION, ipcProtocol: IPC_PROTOCOL_VERSION, sha: readBundle(BUNDLE).sha });
      // A session is served first; the hostile frames come while it runs.
      agent.stdin.write(encodeFrame({ kind: 'start', session: sid, env: { LARKMUX_HOME: remoteRoot } }));
      agent.stdin.write(encodeFrame({ kind: 'msg', session: sid, msg: shellInit(sid, tmux, { mode: 'new' }) }));
      await until('the worker started', () => frames.find((f) => f.kind === 'started' && f.session === sid));
      await until('the worker ready', () => frames.find((f) => f.kind === 'msg' && f.session === sid && (f.msg as { type: string }).type === 'ready'), 60_000);
      const header = Buffer.alloc(4);
      header.writeUInt32BE(MAX_FRAME_BYTES + 1);
      agent.stdin.write(header);
      agent.stdin.write(Buffer.alloc(MAX_FRAME_BYTES + 1, 0x20));
      const garbled = Buffer.from('{"kind":');
      const gh = Buffer.alloc(4);
      gh.writeUInt32BE(garbled.length);
      agent.stdin.write(Buffer.concat([gh, garbled]));
      agent.stdin.write(encodeFrame({ kind: 'start', session: '../../etc', env: {} }));
      agent.stdin.write(encodeFrame({ kind: 'msg', session: sid, msg: { type: 'input', turnId: 'x', text: 1 } }));
      const dropped = await until('four drops', () => {
        const d = frames.filter((f) => f.kind === 'dropped');
        return d.length === 4 ? d : undefined;
      });
      expect(dropped.map((d) => d.reason)).toEqual([
        `oversized frame of ${MAX_FRAME_BYTES + 1} bytes`,
        `invalid-json frame of ${garbled.length} bytes`,
        expect.stringMatching(/^invalid frame: session: /),
        expect.stringMatching(/^invalid frame: msg\.text: /),
      ]);
      expect(stderr.match(/"msg":"frame from the daemon dropped"/g)).toHaveLength(4);

      // The session is still served after them.
      agent.stdin.write(encodeFrame({ kind: 'msg', session: sid, msg: { type: 'input', turnId: 'after', text: 'echo still-$((2*21))', requester: { userId: 'ou_1' } } }));
      const answer = await until('the answer after the hostile frames', () => frames.find((f) => f.kind === 'msg' && (f.msg as { type: string; turnId?: string }).type === 'final_output' && (f.msg as { turnId?: string }).turnId === 'after'), 60_000);
      expect(answer.msg).toMatchObject({ text: 'still-42' });
      // The daemon closes the channel: the worker detaches, the agent exits cleanly.
      const exited = new Promise<number | null>((r) => agent.on('exit', (code) => r(code)));
      agent.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr).toContain('"msg":"link to the daemon closed; detaching the workers"');
    } finally {
      if (agent.exitCode === null) agent.kill('SIGKILL');
      await tmux.kill();
    }
  });

  it('says the host\'s free memory right after its hello: MemAvailable from its meminfo, null where there is none', { timeout: 60_000 }, async () => {
    const meminfo = join(remoteRoot, 'meminfo-test');
    writeFileSync(meminfo, 'MemTotal:        8000000 kB\nMemFree:          100000 kB\nMemAvailable:     123456 kB\n');
    for (const [file, want] of [[meminfo, 123456 * 1024], [join(remoteRoot, 'no-such-meminfo'), null]] as const) {
      const agent = spawn(process.execPath, [join(BUNDLE, 'host-agent.js')], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: shellHome, LARKMUX_MEMINFO: file } });
      const frames: Record<string, unknown>[] = [];
      const decoder = new FrameDecoder();
      agent.stdout.on('data', (c: Buffer) => decoder.push(c).forEach((e) => e.kind === 'frame' && frames.push(e.value as Record<string, unknown>)));
      try {
        await until('the memory report', () => frames.find((f) => f.kind === 'memory'));
        expect(frames.map((f) => f.kind)).toEqual(['hello', 'memory']);
        expect(frames[1]).toEqual({ kind: 'memory', availableBytes: want });
        const exited = new Promise<number | null>((r) => agent.on('exit', (code) => r(code)));
        agent.stdin.end();
        expect(await exited).toBe(0);
      } finally {
        if (agent.exitCode === null) agent.kill('SIGKILL');
      }
    }
  });
});
