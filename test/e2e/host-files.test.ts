// Files and free memory on other hosts (issue 29 items 4 and 5), through the real daemon (the build: its bundle is what
// ships), the fake Feishu and real sshds on 127.0.0.1 (test/support/sshd.ts) as the hosts, shell CLI.
// - A file sent into a topic whose session is on gpu1 lands in the session's folder there (.larkmux/uploads/<date>/,
//   a generated name) with the same sha256, and the shell there sees it; the sender's hostile name reaches no command
//   line and no path. A copy that fails (the session's folder gone on the host) is told in the topic, and the same file
//   sent again once the folder is back lands — nothing lost.
// - A host whose agent reports less free memory than the floor gets no new CLI: the topic is told why, while this
//   machine (and the CLI already running there) go on. Needs `npm run build`.
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { cardsFor, textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let gpu1: TestSshd;
/** A host whose /proc/meminfo (as its agent reads it: LARKMUX_MEMINFO, set by its sshd) says 100 MiB are free. */
let small: TestSshd;
let hostRoot: string;
let srv: string;
let scratch: string;
let meminfo: string;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hf-')));
  meminfo = join(scratch, 'meminfo');
  writeFileSync(meminfo, 'MemTotal:        2048000 kB\nMemFree:           51200 kB\nMemAvailable:     102400 kB\n');
  gpu1 = await startTestSshd();
  small = await startTestSshd({ setEnv: { LARKMUX_MEMINFO: meminfo } });
  hostRoot = join(scratch, 'root');
  srv = join(scratch, 'srv');
  mkdirSync(hostRoot);
  mkdirSync(join(srv, 'app'), { recursive: true });
}, 60_000);

afterAll(async () => {
  await gpu1?.cleanup();
  await small?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const hostTmux = (args: string[]) => spawnSync('tmux', ['-L', tmuxSocketName(null, hostRoot), ...args], { encoding: 'utf8' });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Files under `<dir>/.larkmux/uploads/<day>/`, finished ones only. */
function uploads(dir: string): string[] {
  const root = join(dir, '.larkmux', 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((day) => readdirSync(join(root, day)).filter((f) => !f.endsWith('.part')).map((f) => join(root, day, f)));
}

describe('files and memory on another host', () => {
  const rigs: E2eRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
    hostTmux(['kill-server']);
  });

  /** A topic placed at `place` (host:dir): its chat and root message. */
  async function topicAt(rig: E2eRig, place: string): Promise<{ chatId: string; root: string }> {
    const open = await rig.fake.injectMessage({ chatType: 'group', text: `/cd ${place}`, mentionBot: true });
    await rig.fake.waitFor(() => textsIn(rig.fake, rig.appIds[0]!, open.chatId).some((t) => t.includes(`Folder set to ${place}.`)), 30_000, `placed at ${place}`);
    return { chatId: open.chatId, root: open.messageId };
  }

  it('a file sent into a gpu1 session lands in its folder there with the same bytes and the shell sees it; a failed copy is told and nothing is lost', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd: gpu1, workingDirs: [srv] }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const app = join(srv, 'app');
    const { chatId, root } = await topicAt(rig, `gpu1:${app}`);
    const said = (needle: string) => fake.messages.some((m) => m.appId === appId && m.chatId === chatId && JSON.stringify(m.content).includes(needle));

    // The topic's first message, before any link to gpu1 is up: a file with a hostile name (quotes, a command
    // substitution, `../`, CJK and emoji). The copy places the bundle on gpu1 itself if it has to.
    const body = Buffer.concat([Buffer.from('第一行 ✅ $(touch pwned)\n'), randomBytes(200_000)]);
    const hostile = `../it's "$(touch pwned)" 笔记 🎉.txt`;
    const fileMsg = `om_hf_${Date.now().toString(16)}`;
    fake.addResource(fileMsg, 'file_v3_fake_hf', 'file', body);
    await fake.injectMessage({ chatType: 'group', chatId, rootId: root, messageId: fileMsg, messageType: 'file', content: JSON.stringify({ file_key: 'file_v3_fake_hf', file_name: hostile }) });
    await fake.waitFor(() => uploads(app).length === 1, 60_000, 'the file on gpu1');
    const [landed] = uploads(app);
    expect(landed).toMatch(new RegExp(`^${app}/\\.larkmux/uploads/\\d{4}-\\d{2}-\\d{2}/\\d{6}-[0-9a-f]{6}\\.txt$`));
    expect(sha(readFileSync(landed!))).toBe(sha(body));
    // The card names the stored path beside the sender's name; the path typed is the one on gpu1.
    await fake.waitFor(() => cardsFor(fake, appId, root).some((m) => JSON.stringify(m.content).includes(landed!.slice(app.length + 1))), 30_000, 'the saved path on the card');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === fileMsg), 30_000, 'the file message delivered');

    // The shell on gpu1 sees the file, bytes and all.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: root, text: 'sha256sum .larkmux/uploads/*/*.txt' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(sha(body))), 60_000, 'the sha256 from the shell on gpu1');
    // Nothing of the sender's name ran or became a path anywhere.
    expect(existsSync(join(app, 'pwned')) || existsSync(join(srv, 'pwned')) || existsSync(join(hostRoot, 'pwned'))).toBe(false);
    expect(readdirSync(join(app, '.larkmux', 'uploads')).length).toBe(1);
    expect(rig.logText()).not.toContain('touch pwned');

    // The session's folder is gone on the host: the copy fails, the topic is told with the reason.
    renameSync(app, `${app}.away`);
    const again = `om_hf2_${Date.now().toString(16)}`;
    fake.addResource(again, 'file_v3_fake_hf2', 'file', body);
    const sendAgain = (id: string) => fake.injectMessage({ chatType: 'group', chatId, rootId: root, messageId: id, messageType: 'file', content: JSON.stringify({ file_key: 'file_v3_fake_hf2', file_name: 'again.txt' }) });
    await sendAgain(again);
    await fake.waitFor(() => said('Not saved into the session') && said('again.txt: ENOENT'), 60_000, 'the failed copy told in the topic');
    expect(rig.logText()).toMatch(/"saved":0,"refused":0,"failed":1/);

    // Back in place, the same file sent again lands beside the first: nothing was lost on the way.
    renameSync(`${app}.away`, app);
    const third = `om_hf3_${Date.now().toString(16)}`;
    fake.addResource(third, 'file_v3_fake_hf2', 'file', body);
    await sendAgain(third);
    await fake.waitFor(() => uploads(app).length === 2, 60_000, 'the file sent again on gpu1');
    expect(uploads(app).map((f) => sha(readFileSync(f)))).toEqual([sha(body), sha(body)]);
  }, 300_000);

  it('a host short of free memory starts no new CLI (the topic is told why, the message waits); its running CLI and this machine go on; with memory free the waiting message runs once', async () => {
    const rig = await rigWithHosts(rigs, [{ name: 'small', sshd: small }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const dirA = join(scratch, 'a');
    const dirB = join(scratch, 'b');
    mkdirSync(dirA);
    mkdirSync(dirB);

    // Before the link is up the host's memory is unknown: the first CLI there starts. Its agent then says 100 MiB.
    const a = await topicAt(rig, `small:${dirA}`);
    await fake.injectMessage({ chatType: 'group', chatId: a.chatId, rootId: a.root, text: 'echo a-on-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, a.chatId).some((t) => t.includes('a-on-42')), 120_000, 'the first CLI on small');

    // A second topic there: waits, told why, and nothing runs for it on the host.
    const b = await topicAt(rig, `small:${dirB}`);
    await fake.injectMessage({ chatType: 'group', chatId: b.chatId, rootId: b.root, text: 'echo b-on-$((6*7))' });
    const notice = 'Waiting: host small has 100 MiB of memory free, below the 512 MiB a new CLI needs.';
    await fake.waitFor(() => cardsFor(fake, appId, b.root).some((m) => JSON.stringify(m.content).includes(notice)), 60_000, 'the wait on the turn card');
    expect(hostTmux(['list-panes', '-a', '-F', '#{pane_current_path}']).stdout.split('\n').filter(Boolean)).toEqual([dirA]);
    expect(rig.logText()).toMatch(/"host":"small","freeMiB":100,"floorMiB":512.*a new CLI waits, free memory is below the floor/);

    // The CLI already on the host still answers, and a topic on this machine starts at once.
    await fake.injectMessage({ chatType: 'group', chatId: a.chatId, rootId: a.root, text: 'echo a-again-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, a.chatId).some((t) => t.includes('a-again-42')), 60_000, 'the running CLI on small');
    const local = await fake.injectMessage({ chatType: 'group', text: 'echo here-$((6*7))', mentionBot: true });
    await fake.waitFor(() => textsIn(fake, appId, local.chatId).some((t) => t.includes('here-42')), 120_000, 'a session on this machine');
    expect(textsIn(fake, appId, b.chatId).some((t) => t.includes('b-on-42'))).toBe(false);

    // Memory freed on the host (its agent says so within 15 s): the waiting message runs there, once — nothing lost.
    writeFileSync(meminfo, 'MemTotal:        2048000 kB\nMemFree:         1024000 kB\nMemAvailable:    1536000 kB\n');
    await fake.waitFor(() => textsIn(fake, appId, b.chatId).some((t) => t.includes('b-on-42')), 120_000, 'the waiting message on small');
    expect(hostTmux(['list-panes', '-a', '-F', '#{pane_current_path}']).stdout.split('\n').filter(Boolean).sort()).toEqual([dirA, dirB].sort());
    expect(textsIn(fake, appId, b.chatId).filter((t) => t.includes('b-on-42'))).toHaveLength(1);
  }, 300_000);
});
