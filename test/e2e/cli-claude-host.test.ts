// The real Claude Code on another host (issue 29 items 4 and 6, DESIGN §12): the real daemon (the build), the fake
// Feishu, a real sshd on 127.0.0.1 as host b, and the pinned Claude Code against its fake model server. Each case
// checks what the topic shows and what Claude itself recorded on b (its transcript under the CLI's HOME there, in the
// project folder of b's working folder).
// - b is this machine and user, so the same CLI path and model server serve it; the bot's `env` (HOME, PATH with the
//   CLI, the model endpoint) reaches Claude on b through the worker's 0600 launch file, nothing else of this machine's.
// - The fake model lives in a loopback-only network namespace (as in every real-CLI test); b's tmux server for larkmux
//   (the one its folder derives) is started inside it before the daemon needs it, as a local world's is, so Claude on
//   b reaches the model and nothing else.
// - A turn is kept open deterministically with the fake's `HOLD-UNTIL <file>` cue: Claude is busy until the test
//   creates the file, so a prompt sent meanwhile waits in the worker on b, handed over but not typed.
// Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { controlPath, sshPathValue } from '../../src/platform/ssh/ssh-argv.js';
import { closeMaster, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import { cardsFor, markdownText, textsIn } from '../support/cards.js';
import { alive, nsenterTmux, writeBin } from '../support/cli-rig.js';
import { cleanCliEnv, skipWithoutCli } from '../support/clis.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { startFakeModelProcess, type IsolatedFakeServer } from '../support/fake-models/index.js';
import { hostFolders, hostTmux, rigWithHosts } from '../support/host-rig.js';
import { descendantPids } from '../support/proc-tree.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let sshd: TestSshd;
let model: IsolatedFakeServer;
const rigs: E2eRig[] = [];
const cleanups: Array<() => Promise<void>> = [];
let whyFailed: (() => void) | undefined;

beforeAll(async () => {
  sshd = await startTestSshd();
  model = await startFakeModelProcess('anthropic', { isolate: true });
}, 60_000);

afterEach(async () => {
  await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
  for (const c of cleanups.splice(0)) await c();
});

afterAll(async () => {
  await sshd?.cleanup();
  await model?.close();
});

/** A process's NUL-separated /proc file (command line or environment) as words; none once it is gone. */
const procText = (pid: number, file: 'cmdline' | 'environ'): string[] => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

const nonce = () => Math.random().toString(36).slice(2, 10);

type ClaudeRecord = { type?: string; isMeta?: boolean; sessionId?: string; message?: { role?: string; content?: unknown } };

/** A topic placed on b whose bot runs Claude Code there, and the places to look at on b. */
async function claudeTopicOnB() {
  const folders = hostFolders();
  const { hostRoot, app } = folders;
  const root = mkdtempSync(join(tmpdir(), 'lmx-e2e-chost-'));
  const [home, tmp, bin, here] = ['home', 'tmp', 'bin', 'here'].map((d) => join(root, d)) as [string, string, string, string];
  for (const d of [home, tmp, bin, here]) mkdirSync(d, { recursive: true });
  writeBin(bin, 'claude');
  const token = `sk-fake-${nonce()}`;
  const env = { HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C.UTF-8', ANTHROPIC_BASE_URL: model.url, ANTHROPIC_AUTH_TOKEN: token, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
  const adapter = adapterFor('claude-code');
  if (!adapter.ok) throw new Error(adapter.message);
  // Onboarding done and b's working folder trusted, as the adapter's seed does for a local folder.
  const seeded = await applySeedFiles(adapter.adapter.seedFiles({ cwd: app, home, baseUrl: model.url, env }));
  if (!seeded.ok) throw new Error(seeded.message);
  /** b's larkmux tmux server, inside the model's namespace (again after a reboot: the machine is back). */
  const startHostTmux = () => nsenterTmux(model.netnsPid, tmuxSocketName(null, hostRoot), ['new-session', '-d', '-s', 'keepalive', '-x', '20', '-y', '5', 'sleep', '100000'], cleanCliEnv({ HOME: home, TMPDIR: tmp }));
  await startHostTmux();
  cleanups.push(async () => {
    // Claude writes under HOME until it is gone: its processes end before the folders go.
    const panes = hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{pane_pid}']).stdout.split('\n').filter((l) => /^\d+$/.test(l)).map(Number);
    hostTmux(hostRoot, ['kill-server']);
    for (const pid of panes) {
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    folders.remove();
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  const rig = await rigWithHosts(rigs, [{ name: 'b', sshd }], hostRoot, { botOverrides: { cli: 'claude-code', workingDir: here, env } });
  const { fake } = rig;
  const appId = rig.appIds[0]!;
  const open = await fake.injectMessage({ chatType: 'group', text: `/cd b:${app}`, mentionBot: true });
  const { chatId, messageId: rootId } = open;
  const texts = () => textsIn(fake, appId, chatId);
  await fake.waitFor(() => texts().some((t) => t.includes(`Folder set to b:${app}.`)), 30_000, 'the placement on b');

  /** Claude's own records on b: every .jsonl of the project folder Claude keeps for b's working folder. */
  const records = (): ClaudeRecord[] => {
    const dir = join(home, '.claude', 'projects', app.replace(/[^A-Za-z0-9]/g, '-'));
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as ClaudeRecord));
  };
  /** The prompts Claude recorded on b, oldest first, with its conversation's id. */
  const prompts = () =>
    records().flatMap((r) => {
      if (r.type !== 'user' || r.isMeta) return [];
      const c = r.message?.content;
      const parts = typeof c === 'string' ? [c] : Array.isArray(c) ? (c as { type?: string; text?: string }[]).filter((b) => b.type === 'text' && b.text).map((b) => b.text!) : [];
      return parts.map((text) => ({ text, sessionId: r.sessionId }));
    });
  /** How often Claude on b recorded `text` as a prompt (a leading space is the literal-text escape, trimmed). */
  const typedCount = (text: string) => prompts().filter((p) => p.text.trim() === text).length;
  /** The worker's log on b: a prompt handed to it (again, as in flight, after the link came back). */
  const received = (turnId: string, inFlight: boolean) => {
    const log = join(hostRoot, 'logs', 'larkmux.log');
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
    return lines.filter((l) => l.includes('"input: received"') && l.includes(turnId) && l.includes('inFlightSince') === inFlight);
  };
  const say = (text: string) => fake.injectMessage({ chatType: 'group', chatId, rootId, text });
  const answered = (tag: string) => fake.waitFor(() => texts().some((t) => t.includes('FAKE-REPLY') && t.includes(tag)) || undefined, 180_000, `the answer with ${tag} in the topic`);
  const host = { name: 'b', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
  const places = sshPlaces(rig.home.paths);
  /** The pid of larkmux's ControlMaster for b (`ssh -O check`). */
  const masterPid = () => {
    const r = spawnSync('ssh', ['-o', `ControlPath=${sshPathValue(controlPath(host, places))}`, '-O', 'check', '--', host.ssh], { encoding: 'utf8', env: rig.home.env });
    const pid = /pid=(\d+)/.exec(r.stderr + r.stdout)?.[1];
    if (!pid) throw new Error(`no ControlMaster for b: ${r.stderr}`);
    return Number(pid);
  };
  /** The pane Claude runs in on b (b's larkmux tmux server holds it and the keepalive session). */
  const claudePane = () => {
    const panes = hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{session_name}\t#{pane_id}']).stdout.split('\n').map((l) => l.split('\t')).filter(([s, id]) => s && id && s !== 'keepalive');
    if (panes.length !== 1) throw new Error(`expected one pane for Claude on b, found ${JSON.stringify(panes)}`);
    return panes[0]![1]!;
  };
  /** Claude's processes on b (the panes' process trees in b's larkmux tmux server): their command lines and env. */
  const claudeOnB = () =>
    hostTmux(hostRoot, ['list-panes', '-a', '-F', '#{pane_pid}']).stdout.split('\n').filter((l) => /^\d+$/.test(l)).flatMap((p) => [Number(p), ...descendantPids(Number(p))])
      .map((pid) => ({ argv: procText(pid, 'cmdline'), env: procText(pid, 'environ') }))
      .filter((p) => p.argv.some((a) => /claude/.test(a)) && p.env.length > 0);
  /**
   * After a cut: the prompt handed over again once, typed on b once, after the held turn (typed once itself); the held
   * turn, which ran while the link was down, is answered too — each answer once, with its own text.
   */
  const typedAndAnsweredOnce = async (heldText: string, text: string, turnId: string) => {
    for (const t of [text, heldText]) await answered(t.split(' ').at(-1)!);
    for (const t of [heldText, text]) {
      expect(typedCount(t), t).toBe(1);
      expect(texts().filter((x) => x.includes(`FAKE-REPLY: ${t}`)), t).toHaveLength(1);
    }
    expect(received(turnId, true)).toHaveLength(1);
    const order = prompts().map((p) => p.text.trim());
    expect(order.indexOf(heldText)).toBeLessThan(order.indexOf(text));
  };
  /** A held turn: Claude on b works until `release()`. */
  const holdClaude = async () => {
    const gate = join(root, `release-${nonce()}`);
    const text = `keep working HOLD-UNTIL ${gate}`;
    const m = await say(text);
    await fake.waitFor(() => typedCount(text) === 1 || undefined, 180_000, 'the held turn typed on b');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === m.messageId) || undefined, 60_000, 'the held turn reported delivered');
    return { text, release: () => writeFileSync(gate, '') };
  };
  // On a failure (before the cleanup): what the daemon and the worker on b said about the link and the prompts.
  whyFailed = () => {
    const hostLog = join(hostRoot, 'logs', 'larkmux.log');
    const pick = (text: string) => text.split('\n').filter((l) => /host|link|input|deliver|flight|final|resum|exit|turn/i.test(l)).slice(-80).join('\n');
    process.stderr.write(`daemon:\n${pick(rig.logText())}\nb:\n${existsSync(hostLog) ? pick(readFileSync(hostLog, 'utf8')) : ''}\ntopic: ${JSON.stringify(texts())}\nprompts on b: ${JSON.stringify(prompts())}\n`);
  };
  return { rig, fake, appId, chatId, rootId, app, hostRoot, home, token, startHostTmux, claudeOnB, claudePane, typedAndAnsweredOnce, prompts, typedCount, received, say, answered, texts, host, places, masterPid, holdClaude };
}

describe.skipIf(skipWithoutCli('claude'))('the real Claude Code on host b', () => {
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') whyFailed?.();
    whyFailed = undefined;
  });

  it('hostile text (quotes, $(…), CJK, emoji, a leading /word or !) reaches Claude on b exactly as sent, once, and is answered in the topic', async () => {
    const b = await claudeTopicOnB();
    const marker = join(b.hostRoot, `bang-${nonce()}`);
    const sent = [
      `/nonexistentword "double" 'single' $(touch ${marker}) \`id\` 中文 🎉 C-c Enter ${nonce()}`,
      `!touch ${marker} "q" '$(echo x)' 汉字 🚀 ${nonce()}`,
    ];
    for (const text of sent) {
      await b.say(text);
      await b.answered(text.split(' ').at(-1)!);
    }
    for (const text of sent) expect(b.typedCount(text), text).toBe(1);
    // Neither Claude's bash mode nor a shell on the way ran anything on b.
    expect(existsSync(marker)).toBe(false);
    // The bot's env reached Claude on b (its HOME, PATH and model endpoint; the token), by the launch file: the token
    // is in Claude's environment, on no command line on this machine (b is this machine), in no file on b.
    const [claude] = b.claudeOnB();
    expect(claude?.env).toEqual(expect.arrayContaining([`HOME=${b.home}`, `ANTHROPIC_BASE_URL=${model.url}`, `ANTHROPIC_AUTH_TOKEN=${b.token}`]));
    const commandLines = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => procText(Number(d), 'cmdline').join(' '));
    expect(commandLines.filter((c) => c.includes(b.token))).toEqual([]);
    expect(spawnSync('grep', ['-rl', b.token, b.hostRoot], { encoding: 'utf8' }).stdout).toBe('');
  }, 420_000);

  it('in flight and arrived: the link cut after the prompt was typed on b (its report lost) — never retyped, its answer arrives', async () => {
    const b = await claudeTopicOnB();
    const held = await b.holdClaude();
    const text = `arrived while the link was cut ${nonce()}`;
    const m = await b.say(text);
    await b.fake.waitFor(() => b.received(m.messageId, false).length > 0 || undefined, 60_000, 'the prompt handed to the worker on b');
    expect(b.typedCount(text)).toBe(0);

    // The link freezes (the ControlMaster stopped: nothing from b reaches this machine), Claude finishes the held turn
    // and the prompt is typed on b; then the link dies with whatever the worker reported meanwhile.
    const pid = b.masterPid();
    process.kill(pid, 'SIGSTOP');
    try {
      held.release();
      await b.fake.waitFor(() => b.typedCount(text) === 1 || undefined, 120_000, 'the prompt typed on b while the link is frozen');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    await b.fake.waitFor(() => b.received(m.messageId, true).length > 0 || undefined, 120_000, 'the prompt handed over again as in flight');
    await b.typedAndAnsweredOnce(held.text, text, m.messageId);
  }, 420_000);

  it('in flight, not arrived: handed over while Claude worked, the link cut before it was typed — typed once after the link returns, answered', async () => {
    const b = await claudeTopicOnB();
    const held = await b.holdClaude();
    const text = `waited through the cut "中文" $(echo no) ${nonce()}`;
    const m = await b.say(text);
    await b.fake.waitFor(() => b.received(m.messageId, false).length > 0 || undefined, 60_000, 'the prompt handed to the worker on b');

    expect(await closeMaster(b.host, b.places, b.rig.home.env)).toBe(true);
    await b.fake.waitFor(() => b.received(m.messageId, true).length > 0 || undefined, 120_000, 'the prompt handed over again as in flight');
    // Claude is still on the held turn: nothing could have typed it yet.
    expect(b.typedCount(text)).toBe(0);
    held.release();
    await b.typedAndAnsweredOnce(held.text, text, m.messageId);
  }, 420_000);

  it('in flight, pasted without its Enter by a worker that is gone: the composer is emptied and the prompt typed once, not twice', async () => {
    const b = await claudeTopicOnB();
    const held = await b.holdClaude();
    const text = `half typed before the cut "中文" $(echo no) ${nonce()}`;
    const m = await b.say(text);
    await b.fake.waitFor(() => b.received(m.messageId, false).length > 0 || undefined, 60_000, 'the prompt handed to the worker on b');

    expect(await closeMaster(b.host, b.places, b.rig.home.env)).toBe(true);
    // What a worker that died between its paste and its Enter leaves in Claude's composer: the same text, pasted.
    const pane = b.claudePane();
    hostTmux(b.hostRoot, ['set-buffer', '-b', 'half', '--', text]);
    hostTmux(b.hostRoot, ['paste-buffer', '-p', '-d', '-b', 'half', '-t', pane]);
    await b.fake.waitFor(() => b.received(m.messageId, true).length > 0 || undefined, 120_000, 'the prompt handed over again as in flight');
    expect(b.typedCount(text)).toBe(0);
    held.release();
    // Typed twice into one composer, Claude would record the text doubled and typedCount would stay 0.
    await b.typedAndAnsweredOnce(held.text, text, m.messageId);
    expect(b.prompts().filter((p) => p.text.includes(text)).map((p) => p.text.trim())).toEqual([text]);
  }, 420_000);

  it("b reboots (its tmux server gone, sshd restarted): the next message resumes Claude's conversation there, and the card says so", async () => {
    const b = await claudeTopicOnB();
    const word = `PELICAN${nonce()}`;
    await b.say(`remember the word ${word}`);
    await b.answered(word);
    const [first] = b.prompts();
    expect(first?.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    hostTmux(b.hostRoot, ['kill-server']);
    await sshd.stop();
    await sshd.start();
    await b.startHostTmux();
    const question = `what was the word? ${nonce()}`;
    const before = model.requests.length;
    const m = await b.say(question);
    await b.answered(question.split(' ').at(-1)!);
    // The same conversation on b: the prompt is recorded under the first one's session id, and the model got the
    // earlier turn with it.
    expect(b.prompts().filter((p) => p.text.trim() === question).map((p) => p.sessionId)).toEqual([first!.sessionId]);
    const bodies = model.requests.slice(before).map((r) => JSON.stringify(r.body)).filter((s) => s.includes(question));
    expect(bodies.some((s) => s.includes(word))).toBe(true);
    expect(markdownText(cardsFor(b.fake, b.appId, m.messageId)[0]!.content)).toMatch(/resumed your earlier conversation/);
    // Claude on b was started again with `--resume <that id>` (a new process: the reboot ended the first).
    expect(b.claudeOnB().some((p) => p.argv.join(' ').includes(`--resume ${first!.sessionId}`))).toBe(true);
  }, 420_000);
});
