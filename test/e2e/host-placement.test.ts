// Placing a session on a host and running it there (issue 29 items 1, 3, 7): `/cd gpu1:<dir>` in a topic answers with
// the place; the next message runs in gpu1's tmux (a real sshd on 127.0.0.1, test/support/sshd.ts) and its answer and
// turn card arrive; an unknown host is answered with the known ones; a folder outside the host's workingDirs is refused.
// A host that is down (gpu2: a port nothing listens on) makes the message wait, says so once, is tried rarely, and the
// message runs there once when it is back.
// Real daemon (the build: the bundle is what ships to the host), fake Feishu, shell CLI. Needs `npm run build`.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buttons, cardsFor, textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostTmux as hostTmuxOf, rigWithHosts as rigWithTestHosts } from '../support/host-rig.js';
import type { FakeMessage } from '../support/fake-feishu/index.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { controlPath } from '../../src/platform/ssh/ssh-argv.js';
import { sshPlaces } from '../../src/platform/ssh/ssh-run.js';

let sshd: TestSshd;
/** gpu2: down until a test starts it (its port and pinned key stay). */
let sshd2: TestSshd;
/** larkmux's folder on the host (LARKMUX_REMOTE_ROOT): the bundle and the workers' home there, apart from the user's. */
let hostRoot: string;
/** gpu1's one working root; sessions there work in it or below. */
let srv: string;

beforeAll(async () => {
  sshd = await startTestSshd();
  sshd2 = await startTestSshd();
  await sshd2.stop();
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-gpu1-')));
  srv = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-srv-')));
  mkdirSync(join(srv, 'app'));
}, 60_000);

afterAll(async () => {
  await sshd?.cleanup();
  await sshd2?.cleanup();
  for (const d of [hostRoot, srv]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The tmux server larkmux's workers use on the host: the one its folder there derives. */
const hostTmux = (args: string[]) => hostTmuxOf(hostRoot, args);

/** The folders of the panes in the host's tmux. */
const hostPaneDirs = () => hostTmux(['list-panes', '-a', '-F', '#{pane_current_path}']).stdout.split('\n').filter(Boolean);

/**
 * A message to a session placed on gpu1 once it is out: its answer in the topic and the turn card there, run in the
 * host's tmux in the placed folder (never on this machine's server, the daemon's own).
 */
async function awaitRemoteTurn(rig: E2eRig, topic: string, chatId: string, dir: string): Promise<FakeMessage> {
  const { fake } = rig;
  const appId = rig.appIds[0]!;
  await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('ran-on-b-42')), 120_000, 'the answer from gpu1');
  const card = await fake.waitFor(() => cardsFor(fake, appId, topic).find((m) => JSON.stringify(m.content).includes(`gpu1:${basename(dir)}`)), 60_000, 'the turn card');
  expect(hostPaneDirs()).toContain(dir);
  expect((await rig.tmux.run(['list-panes', '-a', '-F', '#{pane_current_path}'])).stdout).not.toContain(dir);
  return card;
}

/** A started rig whose config.json has gpu1 and gpu2 (the test sshds, their keys pinned) beside its bots, kept in `into`. */
const rigWithHosts = (into: E2eRig[]) =>
  rigWithTestHosts(into, [{ name: 'gpu1', sshd, workingDirs: [srv] }, { name: 'gpu2', sshd: sshd2 }], hostRoot);

describe('a session placed on a host', () => {
  const rigs: E2eRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
    hostTmux(['kill-server']);
  });

  it('/cd host:dir places the topic\'s session there and runs it in the host\'s tmux; unknown hosts and folders outside the roots are refused', async () => {
    const rig = await rigWithHosts(rigs);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const app = join(srv, 'app');

    // A topic opened with /cd: the reply says where the next message starts the CLI.
    const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu1:${app}/../app`, mentionBot: true });
    const chatId = open.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to gpu1:${app}.`)), 30_000, 'the placement in the reply');

    // The first message of the topic runs on gpu1.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: 'echo ran-on-b-$((6*7))' });
    await awaitRemoteTurn(rig, open.messageId, chatId, app);
    const sessions = (await rig.status()).sessions.filter((s: { key: string }) => s.key.startsWith(open.messageId));
    expect(sessions).toMatchObject([{ host: 'gpu1', cwd: app }]);

    // /status in the topic names the host.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/status' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Host: gpu1')), 30_000, '/status names the host');

    // An unknown host: the known ones are listed, and the session stays where it was.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/cd nope:/x' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('There is no host "nope". Known hosts: local, gpu1, gpu2.')), 30_000, 'the known hosts');
    // Outside gpu1's roots (after `..` is resolved): refused, and the session stays where it was.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: `/cd gpu1:${srv}/../etc` });
    const outside = join(srv, '..', 'etc');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`${outside} is outside the folders sessions may use on gpu1 (${srv})`)), 30_000, 'confinement');
    const after = (await rig.status()).sessions.filter((s: { key: string; lifecycle: string }) => s.key.startsWith(open.messageId) && s.lifecycle !== 'closed');
    expect(after).toMatchObject([{ host: 'gpu1', cwd: app }]);

    // `larkmux stop` closes gpu1's ControlMaster (else it would outlive the daemon by ssh's ControlPersist).
    const master = controlPath({ name: 'gpu1', ssh: sshd.target, port: sshd.port }, sshPlaces(rig.home.paths));
    expect(existsSync(master)).toBe(true);
    await rig.stop();
    expect(existsSync(master)).toBe(false);
  }, 240_000);

  it('the folder picker of a new topic offers each host\'s roots as host:dir beside the bot\'s own folder', async () => {
    const rig = await rigWithHosts(rigs);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const root = `gpu1:${basename(srv)}`;
    const open = await fake.injectMessage({ chatType: 'group', text: 'echo ran-on-b-$((6*7))', mentionBot: true });
    const picker = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === open.chatId && m.msgType === 'interactive' && buttons(m.content).includes(root)), 60_000, 'picker card');
    // The bot's own folder stays the first choice: configuring a host never moves a session nobody placed.
    expect(buttons(picker.content)).toEqual([basename(rig.home.dir), root]);
    await fake.tapButton(picker.messageId, root);
    await awaitRemoteTurn(rig, open.messageId, open.chatId, srv);
    const sessions = (await rig.status()).sessions.filter((s: { key: string }) => s.key.startsWith(open.messageId));
    expect(sessions).toMatchObject([{ host: 'gpu1', cwd: srv }]);
  }, 240_000);

  it('a message to a host that is down waits (told once, tried rarely, never run here) and runs there once when it is back', async () => {
    const rig = await rigWithHosts(rigs);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const app = join(srv, 'app');
    const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu2:${app}`, mentionBot: true });
    const chatId = open.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to gpu2:${app}.`)), 30_000, 'the placement');
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: 'echo ran-on-c-$((6*7))' });

    const told = () => fake.messages.filter((m) => m.appId === appId && JSON.stringify(m.content).includes('host gpu2 unreachable since'));
    await fake.waitFor(() => told().length > 0, 60_000, 'the topic told the host is unreachable');
    expect(JSON.stringify(told()[0]!.content)).toMatch(/host gpu2 unreachable since \d\d:\d\d, retrying/);
    expect(cardsFor(fake, appId, open.messageId)).toContain(told()[0]);

    // A while with the host down: an upper bound on how often it is tried (a pause of 2 s while the outage is young, each
    // attempt a connect that fails), never a tight loop.
    const attempts = () => rig.logText().split('\n').filter((l) => l.includes('"host":"gpu2"') && l.includes('connecting to the host')).length;
    await new Promise((r) => setTimeout(r, 20_000));
    expect(attempts()).toBeGreaterThanOrEqual(2);
    expect(attempts()).toBeLessThanOrEqual(14); // the first, one per 2 s of these 20 s, and slack
    // Told once; nothing ran on this machine, and the message is still waiting (no answer anywhere).
    expect(told()).toHaveLength(1);
    expect(textsIn(fake, appId, chatId).some((t) => t.includes('ran-on-c-42'))).toBe(false);
    expect((await rig.tmux.run(['list-panes', '-a', '-F', '#{pane_current_path}'])).stdout).not.toContain(app);

    // The host comes back where the config points: the waiting message runs there, once.
    await sshd2.start();
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('ran-on-c-42')), 150_000, 'the answer once gpu2 is back');
    expect(hostPaneDirs()).toContain(app);
    const [pane] = hostTmux(['list-panes', '-a', '-F', '#{pane_id}']).stdout.split('\n').filter(Boolean);
    const typed = hostTmux(['capture-pane', '-p', '-S', '-', '-t', pane!]).stdout.split('\n').filter((l) => l.includes('echo ran-on-c-'));
    expect(typed).toHaveLength(1);
    // The notice was the turn card's (now showing the answer): no other message ever repeated it.
    expect(told().length).toBeLessThanOrEqual(1);
  }, 300_000);
});
