// Placing a session on a host (issue 29 items 1, 7): `/cd gpu1:/srv/app` in a topic answers with the place, the turn's
// card names the host, an unknown host is answered with the known ones, and a folder outside the host's workingDirs is
// refused. Real daemon, fake Feishu, shell CLI; no SSH is involved (the transport is another piece of work).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, cardsFor, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import type { FakeFeishu, FakeMessage } from '../support/fake-feishu/index.js';

/** The hosts of this test: `gpu1` confined to /srv; no real machine is ever reached. */
const HOSTS = [{ name: 'gpu1', ssh: 'ops@gpu1.example', workingDirs: ['/srv'] }];

/**
 * What a message to a session placed on gpu1 shows once it is out, while this build has no SSH transport: the honest
 * refusal on the turn's card (never a run on this machine). When the transport lands, this is the one place to change:
 * wait for the answer in the topic instead.
 */
async function awaitRemoteTurn(fake: FakeFeishu, appId: string, topic: string, chatId: string): Promise<FakeMessage> {
  const said = (m: FakeMessage) => JSON.stringify(m.content).includes('host gpu1: remote sessions are not available in this build');
  const card = await fake.waitFor(() => cardsFor(fake, appId, topic).find(said), 60_000, 'the turn card says the host cannot run it in this build');
  // Nothing ran here: no answer of the shell reached the topic.
  expect(textsIn(fake, appId, chatId).some((t) => t.includes('ran-here-42'))).toBe(false);
  return card;
}

/** A started rig whose config.json has HOSTS beside its bots (the rig writes bots only), kept in `into` to be cleaned up. */
async function rigWithHosts(into: E2eRig[]): Promise<E2eRig> {
  const made = await startRig();
  into.push(made);
  made.home.writeConfig({ ...JSON.parse(readFileSync(made.home.paths.config, 'utf8')), hosts: HOSTS });
  await made.start();
  return made;
}

describe('placing a session on a host', () => {
  const rigs: E2eRig[] = [];
  afterEach(() => Promise.all(rigs.splice(0).map((r) => r.cleanup())));

  it('/cd host:dir places the topic\'s session there; unknown hosts and folders outside the roots are refused', async () => {
    const rig = await rigWithHosts(rigs);
    const { fake } = rig;
    const appId = rig.appIds[0]!;

    // A topic opened with /cd: the reply says where the next message starts the CLI.
    const open = await fake.injectMessage({ chatType: 'group', text: '/cd gpu1:/srv/app/../app', mentionBot: true });
    const chatId = open.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Folder set to gpu1:/srv/app.')), 30_000, 'the placement in the reply');

    // The first message of the topic: the session is on gpu1, and this build says so instead of running it here.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: 'echo ran-here-$((6*7))' });
    const card = await awaitRemoteTurn(fake, appId, open.messageId, chatId);
    expect(JSON.stringify(card.content)).toContain('gpu1:app');
    const sessions = (await rig.status()).sessions.filter((s: { key: string }) => s.key.startsWith(open.messageId));
    expect(sessions).toMatchObject([{ host: 'gpu1', cwd: '/srv/app' }]);

    // /status in the topic names the host.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/status' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Host: gpu1')), 30_000, '/status names the host');

    // An unknown host: the known ones are listed, and the session stays where it was.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/cd nope:/x' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('There is no host "nope". Known hosts: local, gpu1.')), 30_000, 'the known hosts');
    // Outside gpu1's roots (after `..` is resolved): refused, and the session stays where it was.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/cd gpu1:/srv/../etc' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('/etc is outside the folders sessions may use on gpu1 (/srv)')), 30_000, 'confinement');
    const after = (await rig.status()).sessions.filter((s: { key: string; lifecycle: string }) => s.key.startsWith(open.messageId) && s.lifecycle !== 'closed');
    expect(after).toMatchObject([{ host: 'gpu1', cwd: '/srv/app' }]);
  }, 180_000);

  it('the folder picker of a new topic offers each host\'s roots as host:dir beside the bot\'s own folder', async () => {
    const rig = await rigWithHosts(rigs);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const open = await fake.injectMessage({ chatType: 'group', text: 'echo ran-here-$((6*7))', mentionBot: true });
    const picker = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === open.chatId && m.msgType === 'interactive' && buttons(m.content).includes('gpu1:srv')), 60_000, 'picker card');
    // The bot's own folder stays the first choice: configuring a host never moves a session nobody placed.
    expect(buttons(picker.content)).toEqual([basename(rig.home.dir), 'gpu1:srv']);
    await fake.tapButton(picker.messageId, 'gpu1:srv');
    await awaitRemoteTurn(fake, appId, open.messageId, open.chatId);
    const sessions = (await rig.status()).sessions.filter((s: { key: string }) => s.key.startsWith(open.messageId));
    expect(sessions).toMatchObject([{ host: 'gpu1', cwd: '/srv' }]);
  }, 180_000);
});
