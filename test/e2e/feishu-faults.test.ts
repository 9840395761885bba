// Faults from the fake Feishu against the real daemon: a dropped socket, 429s on patches, failed uploads, duplicate events.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLarkmux } from '../support/larkmux-cli.js';
import { buttons, cardsFor, headerColour, imageKey, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

function linesOf(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe('Feishu faults against the real daemon', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('a dropped websocket reconnects; a message sent during the outage is handled exactly once, one after it too', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const log = join(rig.home.dir, 'outage.log');
    const warm = await fake.injectMessage({ chatType: 'p2p', text: 'echo warm-$((1+1))' });
    const chatId = warm.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('warm-2')), 30_000, 'first answer');

    const opened = fake.connectionsOpened;
    fake.dropConnections();
    expect(fake.connectionCount(appId)).toBe(0);
    // Injected while no socket is up: the platform holds it and pushes it once the daemon is back.
    const during = await fake.injectMessage({ chatType: 'p2p', chatId, text: `echo during-$((3*3)) | tee -a ${log}` });
    expect(during.ack?.code).toBe(200);
    expect(fake.connectionsOpened).toBeGreaterThan(opened);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('during-9')), 30_000, 'answer to the message sent during the outage');

    const after = await fake.injectMessage({ chatType: 'p2p', chatId, text: `echo after-$((4*4)) | tee -a ${log}` });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('after-16')), 30_000, 'answer after reconnecting');

    // Exactly once each: the commands ran once, one card per message, one answer each.
    expect(linesOf(log)).toEqual(['during-9', 'after-16']);
    expect(cardsFor(fake, appId, during.messageId)).toHaveLength(1);
    expect(cardsFor(fake, appId, after.messageId)).toHaveLength(1);
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes('during-9'))).toHaveLength(1);
    const st = await rig.status();
    expect(st.bots[0]).toMatchObject({ state: 'connected' });
    expect(st.sessions).toHaveLength(1);
  });

  it('the next 5 card patches answer 429 during a turn; the card still ends idle with the screenshot, and the answer arrives', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'sleep 1; echo limited-$((5*5))' });
    const card = await fake.waitFor(() => cardsFor(fake, appId, msg.messageId)[0], 20_000, 'turn card');
    fake.failNext('patch', 5);
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('limited-25')), 40_000, 'final answer');
    await fake.waitFor(() => headerColour(card.content) === 'green' && imageKey(card.content), 40_000, 'idle card with a screenshot');

    const refused = fake.calls.filter((c) => c.endpoint === 'patch' && c.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused.every((c) => c.messageId === card.messageId)).toBe(true);
    // The card was patched after the last refusal (nothing was dropped), and it is the same card, not a replacement.
    const lastRefusal = Math.max(...refused.map((c) => c.at));
    expect(fake.calls.some((c) => c.endpoint === 'patch' && c.status === 200 && c.messageId === card.messageId && c.at > lastRefusal)).toBe(true);
    expect(cardsFor(fake, appId, msg.messageId)).toHaveLength(1);
    expect(fake.uploads.some((u) => u.imageKey === imageKey(card.content))).toBe(true);
    expect(buttons(card.content)).toEqual(expect.arrayContaining(['Esc', 'Ctrl+C', 'Enter']));
  });

  it('when screenshot uploads fail, the card shows the screen as text with a notice', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    // More failures than one turn's uploads, retries included.
    fake.failUpload(50);
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo fallback-$((8*8))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('fallback-64')), 30_000, 'final answer');
    const card = await fake.waitFor(() => cardsFor(fake, appId, msg.messageId)[0], 10_000, 'turn card');
    await fake.waitFor(
      () => headerColour(card.content) === 'green' && /upload failed/i.test(markdownText(card.content)) && markdownText(card.content).includes('fallback-64'),
      30_000,
      'idle card with the screen as text and a notice',
    );
    expect(fake.calls.some((c) => c.endpoint === 'upload' && c.code === 234009)).toBe(true);
    expect(imageKey(card.content)).toBeUndefined();
    // The screen is a fenced code block holding the command and its output.
    const md = markdownText(card.content);
    expect(md).toMatch(/```[^]*echo fallback-\$\(\(8\*8\)\)[^]*fallback-64[^]*```/);
    expect(fake.uploads).toHaveLength(0);
  });

  it('an event delivered twice is handled once; the same event after a restart is ignored (dedupe is persisted)', async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const file = join(home.dir, 'random.log');
    const twice = await fake.injectMessage({ chatType: 'p2p', text: `echo $RANDOM | tee -a ${file}`, deliverTwice: true });
    const chatId = twice.chatId;
    await fake.waitFor(() => linesOf(file).length > 0 && textsIn(fake, appId, chatId).length > 0, 30_000, 'the command ran and answered');
    // A later message in the same chat is a barrier: messages of one session are handled in order.
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo barrier-$((2*21))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('barrier-42')), 30_000, 'barrier answer');
    const [number] = linesOf(file);
    expect(linesOf(file)).toHaveLength(1);
    expect(number).toMatch(/^\d+$/);
    expect(cardsFor(fake, appId, twice.messageId)).toHaveLength(1);
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes(number!))).toHaveLength(1);
    // Both deliveries were ACKed (Feishu would otherwise keep redelivering).
    expect(fake.acks.filter((a) => a.code === 200).length).toBeGreaterThanOrEqual(3);

    const opened = fake.connectionsOpened;
    const restarted = await runLarkmux(['restart'], home.env);
    expect(restarted.code, restarted.stdout + restarted.stderr).toBe(0);
    await fake.waitFor(() => fake.connectionsOpened > opened && fake.connectionCount(appId) > 0, 20_000, 'daemon reconnected after restart');
    // Turn cards only: each answer now arrives as its own streamed answer card (a CardKit entity, `cardId`).
    const turnCards = () => fake.messages.filter((m) => m.msgType === 'interactive' && !m.cardId).length;
    const cardsBefore = turnCards();
    const again = await fake.injectMessage({ chatType: 'p2p', chatId, text: `echo $RANDOM | tee -a ${file}`, eventId: twice.eventId, messageId: twice.messageId });
    expect(again.ack?.code).toBe(200);
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo barrier-$((3*21))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('barrier-63')), 40_000, 'barrier answer after restart');
    expect(linesOf(file)).toEqual([number]);
    expect(cardsFor(fake, appId, twice.messageId)).toHaveLength(1);
    // Only the barrier's card is new.
    expect(turnCards()).toBe(cardsBefore + 1);
  });
});
