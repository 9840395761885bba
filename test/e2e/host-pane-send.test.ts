// `larkmux send` and `larkmux where` inside a pane on a host (issue 29 item 4): the pane's `larkmux` is the bundle's
// (written by the host agent into larkmux's folder there), it asks the agent's unix socket (0600, nothing on the
// network), the agent finds the caller's pane by its tty on the host and the daemon decides the session. A pane on the
// host that is not a session's, and a process with no pane, get exit 3 and "not in a larkmux pane", as locally.
// Real daemon (the build: the bundle is what ships to the host), fake Feishu, shell CLI, a real sshd on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCall } from '../../src/platform/control-client.js';
import { HOST_PANE_ONLY, HOST_PANE_SOCKET } from '../../src/shared/host-agent-protocol.js';
import { textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostTmux as hostTmuxOf, rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

let sshd: TestSshd;
/** larkmux's folder on host B (LARKMUX_REMOTE_ROOT): the bundle, the panes' `larkmux` and the agent's socket. */
let hostRoot: string;
let srv: string;
let rig: E2eRig | undefined;

beforeAll(async () => {
  sshd = await startTestSshd();
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hostb-')));
  srv = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-srvb-')));
}, 60_000);

afterAll(async () => {
  await rig?.cleanup();
  hostTmux(['kill-server']);
  await sshd?.cleanup();
  for (const d of [hostRoot, srv]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The tmux server larkmux's workers use on the host: the one its folder there derives. */
const hostTmux = (args: string[]) => hostTmuxOf(hostRoot, args);

/** The pane's `larkmux` on the host, by its absolute path (what a hand-started shell there would have to type). */
const hostLarkmux = () => join(hostRoot, 'run', 'bin', 'larkmux');

/** Runs the host's `larkmux` with no terminal at all (setsid: no pane can be its). */
function withoutTty(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const c = spawn('setsid', ['-w', hostLarkmux(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    c.stdout.on('data', (d) => (output += d));
    c.stderr.on('data', (d) => (output += d));
    c.on('exit', (code) => resolve({ code, output }));
  });
}

describe('larkmux where / send in a pane on a host', () => {
  it('a session on host B: send posts the text exactly, where names the session; a hand-started pane on B and a process without a pane get exit 3', async () => {
    rig = await rigWithHosts([], [{ name: 'b', sshd, workingDirs: [srv] }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;

    const open = await fake.injectMessage({ chatType: 'group', text: `/cd b:${srv}`, mentionBot: true });
    const chatId = open.chatId;
    const inTopic = (text: string) => fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to b:${srv}.`)), 30_000, 'the placement');

    // Typed into B's pane as a person would: quotes, a command substitution, CJK and an emoji reach the topic as typed.
    const hostile = 'hi from b $(echo x) 中文 "q" 🙂';
    await inTopic(`larkmux send --text '${hostile}'; echo send-exit-$?`);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('send-exit-')), 120_000, 'the send in B\'s pane');
    expect(textsIn(fake, appId, chatId).find((t) => t.includes('send-exit-'))).toContain('send-exit-0');
    const posted = fake.messages.filter((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'text' && (m.content as { text: string }).text === hostile);
    expect(posted).toHaveLength(1);
    // In the topic (a reply in its thread), and it ran on B: B's tmux holds the session's pane, this machine's does not.
    expect(posted[0]!.rootId ?? posted[0]!.parentId).toBe(open.messageId);
    const [session] = (await rig.status()).sessions.filter((s: { host?: string }) => s.host === 'b');
    expect(session).toBeDefined();
    expect(hostTmux(['list-panes', '-a', '-F', '#{session_name}']).stdout).toContain(session.tmuxName);

    await inTopic('larkmux where; echo where-exit-$?');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('where-exit-')), 60_000, 'the where in B\'s pane');
    const whereText = textsIn(fake, appId, chatId).find((t) => t.includes('where-exit-'))!;
    expect(whereText).toContain('where-exit-0');
    expect(whereText).toContain(session.id);
    expect(whereText).toContain(srv);

    // A file from a pane on B is refused by name (its bytes are on B), and nothing is uploaded.
    writeFileSync(join(srv, 'report.md'), 'on b\n');
    const uploads = fake.fileUploads.length;
    await inTopic('larkmux send report.md; echo file-exit-$?');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('file-exit-')), 60_000, 'the file send in B\'s pane');
    const fileText = textsIn(fake, appId, chatId).find((t) => t.includes('file-exit-'))!;
    expect(fileText).toContain('file-exit-1');
    expect(fileText).toContain(`not sent ${join(srv, 'report.md')}`);
    expect(fake.fileUploads.length).toBe(uploads);

    // The agent's socket is owner-only, in larkmux's folder on B.
    const sock = join(hostRoot, 'run', HOST_PANE_SOCKET);
    expect(statSync(sock).isSocket()).toBe(true);
    expect(statSync(sock).mode & 0o777).toBe(0o600);

    // A pane on B that larkmux did not start: not a session's, exit 3 with the local words; nothing is posted.
    const sent = fake.messages.length;
    expect(hostTmux(['new-session', '-d', '-s', 'by-hand', '-x', '120', '-y', '20', 'bash', '--norc', '--noprofile']).status).toBe(0);
    hostTmux(['send-keys', '-t', 'by-hand', '-l', `${hostLarkmux()} where; echo hand-where-$?; ${hostLarkmux()} send --text hand; echo hand-send-$?`]);
    hostTmux(['send-keys', '-t', 'by-hand', 'Enter']);
    const handPane = () => hostTmux(['capture-pane', '-p', '-t', 'by-hand']).stdout;
    await until('the hand-started pane\'s answers', () => /hand-send-\d/.test(handPane()), 60_000);
    expect(handPane()).toMatch(/not in a larkmux pane\s+hand-where-3/);
    expect(handPane()).toMatch(/not in a larkmux pane\s+hand-send-3/);

    // No terminal at all: exit 3 too. Any other command is refused on a host, and says so.
    const bare = await withoutTty(['where']);
    expect(bare).toEqual({ code: 3, output: 'not in a larkmux pane\n' });
    const status = await withoutTty(['status']);
    expect(status.code).toBe(2);
    expect(status.output).toContain(HOST_PANE_ONLY);
    // A forged caller (the session pane's shell pid without its proof) asking the socket directly: not in a pane.
    const panePid = Number(hostTmux(['display-message', '-p', '-t', session.tmuxName, '#{pane_pid}']).stdout.trim());
    const forged = await controlCall(sock, { cmd: 'send', caller: { pid: panePid, proof: '0123456789abcdef' }, items: [{ kind: 'text', text: 'forged' }] });
    expect(forged).toEqual({ ok: true, data: { inPane: false } });
    expect(fake.messages.length).toBe(sent);
  }, 300_000);
});
