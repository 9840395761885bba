// `larkmux hosts add|list|check` through the real command against a real sshd on 127.0.0.1 (test/support/sshd.ts).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestHome, type TestHome } from '../support/home.js';
import { ROOT, runLarkmux } from '../support/larkmux-cli.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

const APP_SECRET = 'app-secret-h1-4f9c2e7d';
const CLI_KEY = 'sk-cli-key-h1-9a8b7c6d';

/** The fingerprint as the host's admin reads it: OpenSSH's own ssh-keygen, not our code. */
function adminFingerprint(pub: string): string {
  const out = spawnSync('ssh-keygen', ['-lf', pub]).stdout.toString();
  return /SHA256:\S+/.exec(out)![0];
}

let sshd: TestSshd;
let home: TestHome;
let env: NodeJS.ProcessEnv;
let argvLog: string;
let knownHosts: string;

beforeAll(async () => {
  sshd = await startTestSshd();
  home = makeTestHome('lmx-hosts-');
  knownHosts = join(home.dir, 'known_hosts');
  // An `ssh` first on PATH that records every argv it is given, then runs the real client.
  const shim = join(home.dir, 'shim');
  mkdirSync(shim);
  argvLog = join(home.dir, 'ssh-argv.log');
  writeFileSync(join(shim, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "ssh $*" >> '${argvLog}'\nexec /usr/bin/ssh "$@"\n`);
  chmodSync(join(shim, 'ssh'), 0o755);
  env = { ...home.env, PATH: `${shim}:${home.env.PATH}` };
  home.writeConfig({
    console: false,
    bots: [{ name: 'b1', appId: 'cli_0123456789abcdef', appSecret: APP_SECRET, cli: 'shell', workingDir: home.dir, env: { CLI_KEY } }],
  });
  chmodSync(home.paths.config, 0o600);
}, 60_000);

afterAll(async () => {
  await sshd?.cleanup();
  home?.cleanup();
});

/** `larkmux args` on a terminal: waits for the question, types `answer` and Enter, returns the exit code and all output. */
function answerOnTty(args: string[], answer: string): Promise<{ code: number; output: string }> {
  const p = pty.spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], { cols: 200, rows: 30, cwd: ROOT, env: env as Record<string, string> });
  let output = '';
  p.onData((d) => (output += d));
  const exited = new Promise<number>((r) => p.onExit(({ exitCode }) => r(exitCode)));
  return until('the pin question', () => output.includes('Pin it? [y/N]'), 60_000)
    .then(() => p.write(`${answer}\r`))
    .then(() => exited)
    .then((code) => ({ code, output }));
}

const addArgs = (accept: string) => ['hosts', 'add', 'box1', sshd.target, '--port', String(sshd.port), '--identity', sshd.clientKey, '--accept', accept];

// Each test runs the command several times (tsx start-up each): generous on a busy 2-core machine.
describe('larkmux hosts over a real sshd', { timeout: 240_000 }, () => {
  it('refuses a wrong --accept fingerprint, or none without a terminal, and writes nothing', async () => {
    const before = readFileSync(home.paths.config, 'utf8');
    const wrong = await runLarkmux(addArgs('SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`is not the host's key (${adminFingerprint(sshd.hostKeyPub)})`);
    const none = await runLarkmux(['hosts', 'add', 'box1', sshd.target, '--port', String(sshd.port)], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`--accept ${adminFingerprint(sshd.hostKeyPub)}`);
    expect(readFileSync(home.paths.config, 'utf8')).toBe(before);
    expect(existsSync(knownHosts)).toBe(false);
  });

  it('refuses the reserved name local and a target that could be read as an option', async () => {
    const local = await runLarkmux(['hosts', 'add', 'local', sshd.target, '--accept', 'SHA256:x'], env);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('"local" is this machine');
    const dash = await runLarkmux(['hosts', 'add', 'box9', 'me@-oProxyCommand=x', '--accept', 'SHA256:x'], env);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('ssh: user@host');
    expect(existsSync(knownHosts)).toBe(false);
  });

  it('pins the key the admin sees and adds the host, keeping the rest of config.json and its mode', async () => {
    const fp = adminFingerprint(sshd.hostKeyPub);
    const res = await runLarkmux(addArgs(fp), env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`pinned ${fp}`);
    expect(res.stdout).toContain('connected to box1');
    const hostKey = readFileSync(sshd.hostKeyPub, 'utf8').trim().split(' ').slice(0, 2).join(' ');
    expect(readFileSync(knownHosts, 'utf8')).toBe(`[127.0.0.1]:${sshd.port} ${hostKey}\n`);
    const cfg = JSON.parse(readFileSync(home.paths.config, 'utf8'));
    expect(cfg.hosts).toEqual([{ name: 'box1', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey }]);
    expect(cfg.bots[0].appSecret).toBe(APP_SECRET);
    expect(statSync(home.paths.config).mode & 0o777).toBe(0o600);
  });

  it('has doctor name the pinned host and the command that checks it', async () => {
    const res = await runLarkmux(['doctor', '--json'], env);
    const line = (JSON.parse(res.stdout) as Array<{ level: string; label: string; detail: string }>).find((l) => l.label === 'host box1');
    expect(line).toMatchObject({ level: 'OK' });
    expect(line!.detail).toContain('key pinned');
    expect(line!.detail).toContain('hosts check box1');
  });

  it('lists the host as pinned and reachable', async () => {
    const res = await runLarkmux(['hosts', '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ name: 'box1', pinned: true, state: 'reachable' })]);
  });

  it('checks node, tmux, the CLIs, disk and the working dirs, each miss with its fix', async () => {
    const cfg = JSON.parse(readFileSync(home.paths.config, 'utf8'));
    const missing = join(sshd.dir, 'no-such-dir');
    cfg.hosts[0].workingDirs = [sshd.dir, missing];
    home.writeConfig(cfg);
    const res = await runLarkmux(['hosts', 'check', 'box1', '--json'], env);
    const lines = JSON.parse(res.stdout) as Array<{ level: string; label: string; detail: string; fix?: string }>;
    const by = (label: string) => lines.find((l) => l.label === label)!;
    for (const tool of ['node', 'tmux']) {
      const l = by(tool);
      if (l.level === 'OK') expect(l.detail).toMatch(tool === 'node' ? /^v\d+\.\d+/ : /^tmux /);
      else expect(l.fix).toContain(`install`);
    }
    expect(by('workingDirs[0]')).toMatchObject({ level: 'OK', detail: sshd.dir });
    expect(by('workingDirs[1]')).toMatchObject({ level: 'FAIL' });
    expect(by('workingDirs[1]').fix).toContain(`mkdir -p ${missing}`);
    expect(by('disk').level).toMatch(/OK|WARN|FAIL/);
    expect(lines.filter((l) => l.label.startsWith('cli '))).toHaveLength(3);
    expect(res.code).toBe(1);
  });

  it('never put a secret on an ssh command line, and always the hardening options', () => {
    const log = readFileSync(argvLog, 'utf8');
    const runs = log.trim().split('\n');
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(log).not.toContain(APP_SECRET);
    expect(log).not.toContain(CLI_KEY);
    for (const run of runs) {
      for (const opt of ['BatchMode=yes', 'StrictHostKeyChecking=yes', `UserKnownHostsFile="${knownHosts}"`, 'GlobalKnownHostsFile=/dev/null', 'ForwardAgent=no', 'ForwardX11=no', 'PasswordAuthentication=no', 'KbdInteractiveAuthentication=no', 'IdentitiesOnly=yes']) {
        expect(run).toContain(`-o ${opt}`);
      }
    }
  });

  it('lists the host as unreachable once its sshd is gone', async () => {
    await sshd.stop();
    const res = await runLarkmux(['hosts', '--json'], env);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ name: 'box1', pinned: true, state: 'unreachable' })]);
  });

  it('refuses a changed host key, naming the command that re-pins it; that command pins the new key', async () => {
    sshd.regenerateHostKey();
    await sshd.start();
    const repin = `hosts add box1 ${sshd.target} --port ${sshd.port}`;
    const check = await runLarkmux(['hosts', 'check', 'box1'], env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('the host key differs from the one pinned; refused');
    expect(check.stdout).toContain(repin);
    const list = await runLarkmux(['hosts', '--json'], env);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ state: 'refused' })]);
    const again = await runLarkmux(addArgs(adminFingerprint(sshd.hostKeyPub)), env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('updated host "box1"');
    expect(readFileSync(knownHosts, 'utf8').trim().split('\n')).toHaveLength(1);
    const cfg = JSON.parse(readFileSync(home.paths.config, 'utf8'));
    expect(cfg.hosts[0].workingDirs).toEqual([sshd.dir, join(sshd.dir, 'no-such-dir')]);
    const after = await runLarkmux(['hosts', '--json'], env);
    expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ state: 'reachable' })]);
  });

  it('asks on a terminal: no writes nothing, yes pins and adds', async () => {
    const args = ['hosts', 'add', 'box2', sshd.target, '--port', String(sshd.port), '--identity', sshd.clientKey];
    const before = readFileSync(home.paths.config, 'utf8');
    const no = await answerOnTty(args, 'n');
    expect(no.output).toContain(adminFingerprint(sshd.hostKeyPub));
    expect(no.code).toBe(1);
    expect(readFileSync(home.paths.config, 'utf8')).toBe(before);
    const yes = await answerOnTty(args, 'y');
    expect(yes.code, yes.output).toBe(0);
    expect(JSON.parse(readFileSync(home.paths.config, 'utf8')).hosts.map((h: { name: string }) => h.name)).toEqual(['box1', 'box2']);
  });

  it('calls a host that accepts but never answers "unknown", never unreachable', async () => {
    // A listener on loopback that takes the connection and stays silent: ssh gives up in the banner exchange.
    const held: Socket[] = [];
    const silent = createServer((c) => void held.push(c));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const cfg = JSON.parse(readFileSync(home.paths.config, 'utf8'));
      home.writeConfig({ ...cfg, hosts: [...cfg.hosts, { name: 'silent', ssh: 'me@127.0.0.1', port }] });
      const res = await runLarkmux(['hosts', '--json'], env, 120_000);
      expect(res.code, res.stderr).toBe(0);
      const rows = JSON.parse(res.stdout) as Array<{ name: string; state: string }>;
      expect(rows.find((r) => r.name === 'silent')).toMatchObject({ state: 'unknown' });
      expect(rows.find((r) => r.name === 'box1')).toMatchObject({ state: 'reachable' });
    } finally {
      for (const c of held) c.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});
