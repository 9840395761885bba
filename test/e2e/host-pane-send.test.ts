// `larkmux send` and `larkmux where` inside a pane on a host (issue 29 item 4): the pane's `larkmux` is the bundle's
// (written by the host agent into larkmux's folder there), it asks the agent's unix socket (0600, nothing on the
// network), the agent finds the caller's pane by its tty on the host and the daemon decides the session. A file it
// sends is read on the host by the bundle's `get` over the ControlMaster and checked by its sha256 on arrival. A pane on the
// host that is not a session's, and a process with no pane, get exit 3 and "not in a larkmux pane", as locally.
// Real daemon (the build: the bundle is what ships to the host), fake Feishu, shell CLI, a real sshd on 127.0.0.1.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

/** A 1×1 PNG: a picture the platform takes. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

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
  it('a session on host B: send posts the text exactly, files and a picture with B\'s bytes, refuses what a local send refuses; where names the session; a hand-started pane on B and a process without a pane get exit 3', async () => {
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

    // Files and a picture from a pane on B: read on B by the local rules, over a channel of their own, and posted with
    // the bytes B holds (the file's name with a space and CJK, typed as a person would).
    const report = 'report 报告.txt';
    const reportBytes = Buffer.from('on b: 中文 🙂 $(echo x)\n'.repeat(200));
    writeFileSync(join(srv, report), reportBytes);
    const png = Buffer.from(PNG_1X1, 'base64');
    writeFileSync(join(srv, 'shot.png'), png);
    await inTopic(`larkmux send './${report}' && larkmux send --image shot.png; echo file-exit-$?`);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('file-exit-')), 120_000, 'the file sends in B\'s pane');
    expect(textsIn(fake, appId, chatId).find((t) => t.includes('file-exit-'))).toContain('file-exit-0');
    const files = fake.fileUploads.filter((u) => u.appId === appId);
    expect(files.map((u) => [u.fileName, sha(u.bytes)])).toEqual([[report, sha(reportBytes)]]);
    const media = fake.messages.filter((m) => m.appId === appId && m.chatId === chatId && (m.msgType === 'file' || m.msgType === 'image'));
    expect(media.map((m) => m.msgType)).toEqual(['file', 'image']);
    expect(media.every((m) => (m.rootId ?? m.parentId) === open.messageId)).toBe(true);
    // The picture message shows the upload whose bytes are B's PNG (other uploads are the screen cards' images).
    const imageKey = (media[1]!.content as { image_key: string }).image_key;
    expect(fake.uploads.filter((u) => u.imageKey === imageKey).map((u) => sha(u.bytes))).toEqual([sha(png)]);

    // What a local send refuses, B refuses the same way, in words in the pane, exit 1, and nothing is posted: a missing
    // file, a folder, a file larger than Feishu takes (30 MB; sparse on B; B sends none of its bytes), a link out of the
    // session's folder.
    mkdirSync(join(srv, 'adir'));
    const big = openSync(join(srv, 'big.bin'), 'w');
    ftruncateSync(big, 31 * 1024 * 1024);
    closeSync(big);
    symlinkSync('/etc/hostname', join(srv, 'out.lnk'));
    const fileUploads0 = fake.fileUploads.length;
    const tries: [string, string][] = [
      ['nope.txt', 'no such file'],
      ['adir', 'not a regular file (a folder)'],
      ['big.bin', 'larger than the platform accepts (30 MB)'],
      ['out.lnk', 'outside the folders larkmux sends from'],
    ];
    for (const [name, why] of tries) {
      await inTopic(`larkmux send ${name}; echo ${name}-exit-$?`);
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`${name}-exit-`)), 120_000, `the send of ${name} in B's pane`);
      const shown = textsIn(fake, appId, chatId).find((t) => t.includes(`${name}-exit-`))!;
      expect(shown).toContain(`${name}-exit-1`);
      expect(shown.replace(/\s+/g, ' ')).toContain(`not sent ${join(srv, name)}: ${why}`);
    }
    expect(fake.fileUploads.length).toBe(fileUploads0);
    // Read on B by its `get` (B is this machine's user in the test, so the daemon says where each read was made).
    const reads = rig.logText().split('\n').filter((l) => l.includes('file read on a host for larkmux send') && l.includes('"host":"b"'));
    expect(reads.map((l) => (JSON.parse(l) as { bytes?: number; refused?: string }))).toMatchObject([
      { bytes: reportBytes.length }, { bytes: png.length }, { refused: 'missing' }, { refused: 'not_regular' }, { bytes: 0, larger: true }, { refused: 'outside' },
    ]);
    expect(fake.messages.filter((m) => m.msgType === 'file' || m.msgType === 'image').length).toBe(media.length);

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
