// The main path end to end: real daemon process, real SDK, fake Feishu, a real shell in real tmux.
import { afterEach, describe, expect, it } from 'vitest';
import { answerText, buttons, cardsFor, colourHistory, headerColour, imageKey, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('Feishu → daemon → worker → tmux and back', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  async function panePids(r: E2eRig): Promise<string[]> {
    const res = await r.tmux.run(['list-panes', '-a', '-F', '#{session_name} #{pane_pid}']);
    return res.stdout.trim().split('\n').filter(Boolean).sort();
  }

  it('a p2p message starts a session with a live card, a screenshot and the final answer; a second message reuses the CLI', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'echo lmx-$((6*7))' });
    const chatId = first.chatId;

    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('lmx-42')), 30_000, 'final answer');
    const [card] = cardsFor(fake, appId, first.messageId);
    expect(card).toBeDefined();
    // starting → working → idle, in that order.
    await fake.waitFor(() => headerColour(card!.content) === 'green', 10_000, 'idle header');
    const colours = colourHistory(card!);
    expect(colours[0]).toBe('blue');
    expect(colours).toContain('orange');
    expect(colours[colours.length - 1]).toBe('green');
    // A PNG was uploaded and patched into the card.
    await fake.waitFor(() => imageKey(card!.content) !== undefined, 10_000, 'screenshot in card');
    const upload = fake.uploads.find((u) => u.imageKey === imageKey(card!.content));
    expect(upload?.bytes.subarray(0, 4).toString('hex')).toBe('89504e47');
    expect(buttons(card!.content)).toEqual(expect.arrayContaining(['Esc', 'Ctrl+C', 'Enter']));
    // Delivery was proven: the user's message got a reaction.
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === first.messageId), 10_000, 'reaction');
    const final = textsIn(fake, appId, chatId).find((t) => t.includes('lmx-42'));
    expect(final).not.toContain('echo lmx-$((6*7))');

    const pidsBefore = await panePids(rig);
    expect(pidsBefore).toHaveLength(1);
    const second = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo second-$((2+3))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('second-5')), 30_000, 'second answer');
    expect(await panePids(rig)).toEqual(pidsBefore);
    const [card2] = cardsFor(fake, appId, second.messageId);
    expect(card2).toBeDefined();
    expect(card2!.messageId).not.toBe(card!.messageId);
    // The first turn's card is frozen: no buttons left.
    await fake.waitFor(() => buttons(card!.content).length === 0, 10_000, 'first card frozen');
    expect(buttons(card2!.content).length).toBeGreaterThan(0);

    const st = await rig.status();
    expect(st.sessions).toHaveLength(1);
    expect(st.bots[0]).toMatchObject({ state: 'connected', liveWorkers: 1 });
  });

  it('a topic-group message with a mention starts a session in that topic; two bots in one group keep separate sessions', async () => {
    rig = await startRig({ bots: 2 });
    await rig.start();
    const { fake } = rig;
    const [a, b] = rig.appIds as [string, string];
    const msg = await fake.injectMessage({ appId: a, chatType: 'group', text: 'echo topic-$((1+1))', mentionBot: [a] });
    await fake.waitFor(() => textsIn(fake, a, msg.chatId).some((t) => t.includes('topic-2')), 30_000, 'answer in topic');
    // The answer streams into an answer card (a CardKit entity) replied in the topic.
    const answer = fake.messages.find((m) => m.appId === a && !!m.cardId && answerText(m).includes('topic-2'));
    expect(answer?.rootId ?? answer?.parentId).toBe(msg.messageId);
    // A message in that topic without a mention still reaches the session.
    const inTopic = await fake.injectMessage({ appId: a, chatType: 'group', chatId: msg.chatId, rootId: msg.messageId, text: 'echo again-$((3+3))' });
    await fake.waitFor(() => textsIn(fake, a, msg.chatId).some((t) => t.includes('again-6')), 30_000, 'answer to follow-up');
    expect(inTopic.rootId).toBe(msg.messageId);
    // A group message without a mention outside the topic is ignored.
    await fake.injectMessage({ appId: a, chatType: 'group', chatId: msg.chatId, text: 'echo ignored-$((4+4))' });

    // The second bot, mentioned in the same group, gets its own session and tmux session.
    const other = await fake.injectMessage({ appId: b, chatType: 'group', chatId: msg.chatId, text: 'echo beta-$((5+5))', mentionBot: [b] });
    await fake.waitFor(() => textsIn(fake, b, other.chatId).some((t) => t.includes('beta-10')), 30_000, 'second bot answer');
    const st = await rig.status();
    expect(st.sessions).toHaveLength(2);
    expect(new Set(st.sessions.map((s: any) => s.tmuxName)).size).toBe(2);
    expect(new Set(st.sessions.map((s: any) => s.bot))).toEqual(new Set(['bot0', 'bot1']));
    expect(textsIn(fake, a, msg.chatId).some((t) => t.includes('ignored-8'))).toBe(false);
  });

  it('the Ctrl+C key button interrupts the CLI, and /display text switches the card to text', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'sleep 60; echo not-interrupted' });
    const card = await fake.waitFor(() => cardsFor(fake, appId, msg.messageId)[0], 20_000, 'card');
    await fake.waitFor(() => headerColour(card.content) === 'orange', 20_000, 'working');
    const tap = await fake.tapButton(card.messageId, 'Ctrl+C');
    expect(JSON.stringify(tap.response)).toContain('Key sent');
    await fake.waitFor(() => headerColour(card.content) === 'green', 20_000, 'idle after Ctrl+C');
    const screen = await rig.tmux.run(['capture-pane', '-p', '-t', (await rig.status()).sessions[0].tmuxName]);
    expect(screen.stdout).toContain('^C');
    expect(textsIn(fake, appId, msg.chatId).join('\n')).not.toContain('not-interrupted');

    const disp = await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/display text' });
    await fake.waitFor(() => fake.messages.some((m) => m.parentId === disp.messageId), 10_000, 'display reply');
    const next = await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: 'echo text-mode-$((7*7))' });
    const card2 = await fake.waitFor(() => cardsFor(fake, appId, next.messageId)[0], 20_000, 'second card');
    await fake.waitFor(() => markdownText(card2.content).includes('text-mode-49'), 20_000, 'screen text on card');
    expect(imageKey(card2.content)).toBeUndefined();
  });
});
