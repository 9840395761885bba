// The host's side of "what a turn changed" and the daemon's runner for it (issue 29 item 4), as the daemon runs them:
// `node <bundle>/host-agent.js changes` with the request on stdin (directly, then over a real sshd on 127.0.0.1 as the
// host, the bundle placed by a RemoteHost). What came from the daemon is checked on arrival (a relative folder, a tree
// id git would read as an option, extra fields: refused, nothing run); snapshots leave the user's index and HEAD as
// they were; git on the host gets none of the host session's secret environment; a patch past 4 MiB is cut, one below
// it arrives whole; an unreachable host answers null with one log line. With the agent's link up, root and snapshot
// are answered on its channel (no node starts on the host for them: a wrapper `node` there notes each start), without
// it through the one-shot command, and a link that drops while one is asked falls back to it. Needs `npm run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeTracker } from '../../src/daemon/changes/change-tracker.js';
import { localTreeGit } from '../../src/daemon/changes/tree-git.js';
import { remoteTreeGit } from '../../src/daemon/workers/remote-changes.js';
import { RemoteHost, type RemoteHostOptions } from '../../src/daemon/workers/remote-host.js';
import { MANIFEST_NAME, readBundle } from '../../src/platform/bundle-manifest.js';
import { createLogger } from '../../src/platform/log.js';
import { knownHostsName, pinInKnownHosts } from '../../src/platform/ssh/known-hosts.js';
import { closeMaster, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { HOST_CHANGES_VERB } from '../../src/shared/host-changes-protocol.js';
import type { HostConfig } from '../../src/shared/host-config.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

const BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'worker', 'bundle');
const AGENT = join(BUNDLE, 'host-agent.js');
const SECRET = 'sk-host-secret-4f1c9e';

let scratch: string;
let sshd: TestSshd;
let home: TestHome;
let remoteRoot: string;
/** Where the host's `git` wrapper writes the environment each git run got. */
let envSeen: string;
/** Where the host's `node` wrapper writes the arguments of each start. */
let nodeSeen: string;
/** While this file is there, the next git run about a folder named `held-on-host` takes it and waits for `release`. */
let holdNext: string;

function gitRepo(name: string): { dir: string; git: (...args: string[]) => string } {
  const dir = join(scratch, name);
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  git('add', '-A');
  git('commit', '-qm', 'start');
  return { dir, git };
}

function ask(request: unknown): { code: number | null; result: any } {
  const r = spawnSync(process.execPath, [AGENT, HOST_CHANGES_VERB], { input: typeof request === 'string' ? request : JSON.stringify(request), encoding: 'utf8' });
  return { code: r.status, result: JSON.parse(r.stdout.trim()) };
}

/** How many times the host started the agent as the one-shot `changes` command. */
const oneShotStarts = (): number => (existsSync(nodeSeen) ? readFileSync(nodeSeen, 'utf8').split('\n').filter((l) => l.endsWith(` ${HOST_CHANGES_VERB}`)).length : 0);

function hostOf(s: TestSshd, name: string, extra: Partial<RemoteHostOptions> = {}): { cfg: HostConfig; remote: RemoteHost; logFile: string } {
  const places = sshPlaces(home.paths);
  const cfg: HostConfig = { name, ssh: s.target, port: s.port, identityFile: s.clientKey };
  const [type, blob] = readFileSync(s.hostKeyPub, 'utf8').trim().split(' ');
  const known = existsSync(places.knownHosts) ? readFileSync(places.knownHosts, 'utf8') : '';
  writeFileSync(places.knownHosts, pinInKnownHosts(known, knownHostsName('127.0.0.1', s.port), { type: type!, blob: blob! }));
  const logFile = join(scratch, `${name}.log`);
  const log = createLogger({ file: logFile, name: 'daemon' });
  return { cfg, logFile, remote: new RemoteHost({ host: cfg, places, log, bundle: () => readBundle(BUNDLE), remoteRoot, ...extra }) };
}

beforeAll(async () => {
  if (!existsSync(join(BUNDLE, MANIFEST_NAME))) throw new Error('dist/worker/bundle is missing: run `npm run build` first');
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hchg-')));
  remoteRoot = join(scratch, 'root');
  mkdirSync(remoteRoot);
  // The host's PATH starts with a `git` that notes its environment, then runs the real one; its sessions carry a secret.
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  envSeen = join(scratch, 'git-env');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  holdNext = join(scratch, 'hold-next');
  const hold = `case "$*" in *'/held-on-host'*) if mv '${holdNext}' '${holdNext}.taken' 2>/dev/null; then : > '${scratch}/held'; while [ ! -f '${scratch}/release' ]; do sleep 0.05; done; fi;; esac\n`;
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nenv >> '${envSeen}'\n${hold}exec '${realGit}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  nodeSeen = join(scratch, 'node-starts');
  writeFileSync(join(bin, 'node'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${nodeSeen}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(join(bin, 'node'), 0o755);
  sshd = await startTestSshd({ setEnv: { PATH: `${bin}:${process.env.PATH}`, LMX_TEST_TOKEN: SECRET } });
  home = makeTestHome('lmx-hchg-home-');
}, 60_000);

afterAll(async () => {
  if (scratch) writeFileSync(join(scratch, 'release'), ''); // a held git of a failed run ends
  await sshd?.cleanup();
  home?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('host-agent.js changes', () => {
  it('answers root, snapshot and diff like the local code, and leaves the index and HEAD as they were', () => {
    const { dir, git } = gitRepo('direct');
    const head = git('rev-parse', 'HEAD');
    const index = readFileSync(join(dir, '.git', 'index'));
    expect(ask({ op: 'root', cwd: join(dir) })).toEqual({ code: 0, result: { ok: true, top: dir } });
    expect(ask({ op: 'root', cwd: scratch })).toEqual({ code: 0, result: { ok: true, top: null } });
    expect(ask({ op: 'snapshot', cwd: scratch })).toEqual({ code: 0, result: { ok: true, snapshot: null } });
    const first = ask({ op: 'snapshot', cwd: join(dir, '.git', '..') });
    expect(first).toMatchObject({ code: 0, result: { ok: true, snapshot: { top: dir } } });
    const from = first.result.snapshot.tree as string;
    writeFileSync(join(dir, 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(dir, '新 file 🎉.txt'), 'x\n');
    const to = ask({ op: 'snapshot', cwd: dir }).result.snapshot.tree as string;
    const { code, result } = ask({ op: 'diff', top: dir, from, to });
    expect(code).toBe(0);
    expect(result.diff.numstat).toBe('1\t1\ta.txt\x001\t0\t新 file 🎉.txt\x00');
    expect(result.diff.patch).toContain('+TWO');
    expect(result.diff.patchCut).toBe(false);
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(dir, '.git', 'index')).equals(index)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['input that is not JSON', 'root /etc'],
    ['a relative folder', { op: 'root', cwd: 'srv/app' }],
    ['a tree id git would read as an option', { op: 'diff', top: '/tmp', from: '--output=/tmp/x', to: 'a'.repeat(40) }],
    ['a revision expression for a tree id', { op: 'diff', top: '/tmp', from: 'HEAD~1', to: 'a'.repeat(40) }],
    ['an unknown op', { op: 'checkout', top: '/tmp' }],
    ['an extra field', { op: 'root', cwd: '/tmp', env: { GIT_DIR: '/' } }],
    ['more input than a request may have', { op: 'root', cwd: `/${'a'.repeat(70_000)}` }],
  ])('refuses %s', (_what, request) => {
    expect(ask(request)).toMatchObject({ code: 1, result: { ok: false } });
  });
});

describe('the git of a session on a host', () => {
  it('a ChangeTracker over ssh sees the turn\'s changes as the local one does; git there gets no secret of the session\'s environment', { timeout: 120_000 }, async () => {
    const { dir } = gitRepo('over-ssh');
    const { cfg, remote } = hostOf(sshd, 'h1');
    try {
      const log = createLogger({ file: join(scratch, 'tracker.log') });
      const far = new ChangeTracker(() => dir, log, remoteTreeGit(remote, log));
      const near = new ChangeTracker(() => dir, log, localTreeGit);
      expect(await far.inGit()).toBe(true);
      await far.begin();
      await near.begin();
      writeFileSync(join(dir, 'a.txt'), `one\ntwo\nTHREE '$(touch pwned)' 笔记\nfour\n`);
      writeFileSync(join(dir, 'b c.txt'), 'new\n');
      const got = await far.finish();
      const local = await near.finish();
      expect(got?.files).toEqual([{ path: 'a.txt', added: 2, deleted: 1 }, { path: 'b c.txt', added: 1, deleted: 0 }]);
      expect(got?.patch).toBe(local?.patch);
      expect(got?.patch).toContain(`+THREE '$(touch pwned)' 笔记`);
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
      // The host's git ran (through the wrapper) and saw neither the secret nor the host session's own variables.
      const seen = readFileSync(envSeen, 'utf8');
      // (SetEnv reached the agent: git's PATH is the one it set, with the wrapper in it.)
      expect(seen).toMatch(new RegExp(`^PATH=.*${join(scratch, 'bin')}:`, 'm'));
      expect(seen).toContain('GIT_TERMINAL_PROMPT=0');
      expect(seen).not.toContain(SECRET);
      const names = new Set(seen.split('\n').filter(Boolean).map((l) => l.slice(0, l.indexOf('='))));
      expect([...names].filter((n) => !/^(GIT_[A-Z_]+|PATH|HOME|LANG|PWD|OLDPWD|SHLVL|_)$/.test(n))).toEqual([]);
    } finally {
      await closeMaster(cfg, sshPlaces(home.paths));
    }
  });

  it('a patch below 4 MiB arrives whole over ssh; one above is cut, its counts still there', { timeout: 180_000 }, async () => {
    const { dir } = gitRepo('large');
    const { cfg, remote } = hostOf(sshd, 'h2');
    try {
      const log = createLogger({ file: join(scratch, 'large.log') });
      const tracker = new ChangeTracker(() => dir, log, remoteTreeGit(remote, log));
      const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n') + '\n';
      await tracker.begin();
      writeFileSync(join(dir, 'big.txt'), lines(40_000)); // ~3 MiB of patch
      const whole = await tracker.finish();
      expect(whole?.files).toEqual([{ path: 'big.txt', added: 40_000, deleted: 0 }]);
      expect(whole?.patchCut).toBe(false);
      expect(whole?.patch.length).toBeGreaterThan(2 * 1024 * 1024);
      expect(whole?.patch).toContain(`+line 39999 ${'x'.repeat(60)}`);

      await tracker.begin();
      writeFileSync(join(dir, 'bigger.txt'), lines(80_000)); // ~6 MiB of patch
      const cut = await tracker.finish();
      expect(cut?.files).toEqual([{ path: 'bigger.txt', added: 80_000, deleted: 0 }]);
      expect(cut?.patchCut).toBe(true);
      expect(cut?.patch).toBe('');
    } finally {
      await closeMaster(cfg, sshPlaces(home.paths));
    }
  });

  it('a folder the host said is in no work tree is not asked about again on the next turn (no ssh before its prompt)', { timeout: 120_000 }, async () => {
    const dir = join(scratch, 'plain');
    mkdirSync(dir);
    const { cfg, remote } = hostOf(sshd, 'h3');
    try {
      const log = createLogger({ file: join(scratch, 'plain.log') });
      const git = remoteTreeGit(remote, log);
      expect(await git.snapshot(dir)).toBeNull();
      // Made a work tree now: this host's answer of a moment ago is still believed (nothing goes to the host) …
      execFileSync('git', ['-C', dir, 'init', '-q']);
      writeFileSync(join(dir, 'a.txt'), 'one\n');
      const runs = readFileSync(envSeen, 'utf8').length;
      expect(await git.snapshot(dir)).toBeNull();
      expect(readFileSync(envSeen, 'utf8').length).toBe(runs);
      // … while a folder in a work tree is asked every time, and another session's git asks afresh.
      expect((await remoteTreeGit(remote, log).snapshot(dir))?.tree).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await closeMaster(cfg, sshPlaces(home.paths));
    }
  });

  it('an unreachable host answers no change set, with one log line that names the host', { timeout: 120_000 }, async () => {
    const gone = await startTestSshd();
    const { remote, logFile } = hostOf(gone, 'down');
    await gone.cleanup();
    const { dir } = gitRepo('unreachable');
    const log = createLogger({ file: logFile });
    const tracker = new ChangeTracker(() => dir, log, remoteTreeGit(remote, log));
    await tracker.begin();
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    expect(await tracker.finish()).toBeNull();
    const lines = readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes('git on the host did not answer'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ host: 'down', op: 'snapshot' });
  });
});

describe('the git of a session on a host, on the agent\'s link', () => {
  /** Opens the agent's link as a session's start does (its worker, waiting for an init that never comes, is detached at the end). */
  async function linkUp(remote: RemoteHost): Promise<number> {
    remote.startWorker(randomBytes(16).toString('hex'), {});
    return until('the host agent up', () => remote.agentPid, 60_000);
  }

  it('with the link up, a turn\'s root and snapshots start no node on the host; its diff still is the one-shot command', { timeout: 120_000 }, async () => {
    const { dir } = gitRepo('on-link');
    const { remote } = hostOf(sshd, 'h5');
    try {
      const log = createLogger({ file: join(scratch, 'on-link.log') });
      // No link yet: the one-shot command answers (a node start on the host).
      let starts = oneShotStarts();
      expect((await remoteTreeGit(remote, log).snapshot(dir))?.top).toBe(dir);
      expect(oneShotStarts()).toBe(starts + 1);

      await linkUp(remote);
      starts = oneShotStarts();
      const tracker = new ChangeTracker(() => dir, log, remoteTreeGit(remote, log));
      expect(await tracker.inGit()).toBe(true);
      await tracker.begin();
      writeFileSync(join(dir, 'a.txt'), `one\ntwo '$(touch pwned)' 笔记 🎉\nthree\n`);
      expect(oneShotStarts()).toBe(starts);
      const got = await tracker.finish();
      expect(got?.files).toEqual([{ path: 'a.txt', added: 1, deleted: 1 }]);
      expect(got?.patch).toContain(`+two '$(touch pwned)' 笔记 🎉`);
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
      // The turn's end: its snapshot on the link, its diff one command.
      expect(oneShotStarts()).toBe(starts + 1);
      expect(await remoteTreeGit(remote, log).root(scratch)).toBeNull();
      expect(oneShotStarts()).toBe(starts + 1);
    } finally {
      await remote.dispose();
    }
  });

  it('a link that drops while a snapshot is asked on it settles the ask: the one-shot command answers it', { timeout: 120_000 }, async () => {
    const { dir } = gitRepo('held-on-host');
    // The ask's deadline far past the test's own: only the link's close can settle it in time.
    const { remote } = hostOf(sshd, 'h6', { gitAskTimeoutMs: 60 * 60_000 });
    try {
      const log = createLogger({ file: join(scratch, 'held.log') });
      const agentPid = await linkUp(remote);
      const starts = oneShotStarts();
      writeFileSync(holdNext, '');
      const asked = remoteTreeGit(remote, log).snapshot(dir);
      await until('the agent\'s git held', () => existsSync(join(scratch, 'held')), 60_000);
      expect(oneShotStarts()).toBe(starts);
      process.kill(agentPid, 'SIGKILL');
      expect(await asked).toEqual({ top: dir, tree: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(oneShotStarts()).toBe(starts + 1);
    } finally {
      writeFileSync(join(scratch, 'release'), '');
      await remote.dispose();
    }
  });
});
