// The real daemon with the real Claude Code: a prompt singles out the person who asked (mention, summary, pin, buzz);
// an ordinary short turn singles out nobody (issue 16).
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { buttons, cardsFor, elementsOf, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import type { FakeFeishu, FakeMessage } from '../support/fake-feishu/index.js';

type Json = Record<string, any>;

/** Every @-mention tag in what the bot sent: card markdown and text messages (the places Feishu turns them into pings). */
function mentionsIn(fake: FakeFeishu, appId: string): string[] {
  const out: string[] = [];
  for (const m of fake.messages.filter((x) => x.appId === appId)) {
    const versions = m.msgType === 'interactive' ? m.history : [m.content];
    for (const v of versions) {
      const text = m.msgType === 'interactive' ? elementsOf(v).filter((e) => e.tag === 'markdown').map((e) => String(e.content)).join('\n') : String((v as Json)?.text ?? '');
      out.push(...(text.match(/<at\b[^>]*>/g) ?? []));
    }
  }
  return out;
}

const summaryOf = (m: FakeMessage): string => String((m.content as Json)?.config?.summary?.content ?? '');

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: attention for the person needed, typed answers', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it('a permission prompt @-mentions the requester only, its summary is the question, the chat is pinned until the answer, and a buzz comes after the configured minutes', async () => {
    // 0.05 min = 3 s: the buzz must come while the prompt waits, long before anyone answers it in this test.
    world = await startClaudeWorld({ askPermissions: true, bot: { attention: { buzzAfterMinutes: 0.05 } } });
    const { rig, cwd } = world;
    onTestFailed(() => {
      process.stderr.write(`feed cards: ${JSON.stringify(rig.fake.feedCards)}\nurgents: ${JSON.stringify(rig.fake.urgents)}\n`);
      writeFileSync(join(tmpdir(), 'lmx-attention-daemon.log'), rig.logText());
    });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'MAKE-FILE attention.txt' });
    const turnCard = () => cardsFor(fake, appId, msg.messageId)[0]?.messageId;
    const selectionCards = () => fake.messages.filter((m) => m.msgType === 'interactive' && m.chatId === msg.chatId && m.messageId !== turnCard());
    const pins = () => fake.feedCards.filter((c) => c.appId === appId);

    // Claude first offers to switch permission modes: answered on its card, which also ends its pin.
    const offer = await fake.waitFor(() => selectionCards().find((m) => buttons(m.content).some((b) => /keep manual mode/i.test(b))), 60_000, 'mode offer card');
    await fake.tapButton(offer.messageId, buttons(offer.content).find((b) => /keep manual mode/i.test(b))!);
    await fake.waitFor(() => markdownText(offer.content).includes('Answered by'), 30_000, 'offer answered');
    await fake.waitFor(() => pins().length === 0 || pins().at(-1)!.timeSensitive === false, 30_000, 'offer pin cleared');
    const pinsBeforePermission = pins().length;

    const perm = await fake.waitFor(() => selectionCards().find((m) => m !== offer && buttons(m.content).some((b) => /Yes/.test(b))), 150_000, 'permission card');
    // The card pings the person who asked, and nobody else; the chat list shows the question.
    const sentCard = perm.history[0];
    expect(elementsOf(sentCard).filter((e) => e.tag === 'markdown').map((e) => String(e.content)).join('\n')).toContain(`<at id=${rig.user}></at>`);
    expect(summaryOf({ ...perm, content: sentCard })).toMatch(/Do you want to proceed\?/);
    // Pinned for the requester while it waits.
    const pin = await fake.waitFor(() => pins().slice(pinsBeforePermission).find((c) => c.timeSensitive), 30_000, 'pin set');
    expect(pin).toMatchObject({ feedCardId: 'bot_time_sentive', userIds: [rig.user] });

    // After 3 s of waiting: a buzz, on a short text message that mentions the requester and says what is asked.
    const buzz = await fake.waitFor(() => fake.urgents.find((u) => u.appId === appId && u.at > perm.createdAt), 60_000, 'buzz');
    expect(buzz.userIds).toEqual([rig.user]);
    const buzzed = fake.messages.find((m) => m.messageId === buzz.messageId)!;
    expect(buzzed.msgType).toBe('text');
    expect(String((buzzed.content as Json).text)).toContain(`<at user_id="${rig.user}"></at>`);
    expect(String((buzzed.content as Json).text)).toMatch(/Do you want to proceed\?/);

    // Answered on the card: the pin is cleared, and Claude goes on.
    await fake.tapButton(perm.messageId, buttons(perm.content).find((b) => /Yes/.test(b))!);
    await fake.waitFor(() => pins().slice(pinsBeforePermission).some((c) => !c.timeSensitive), 30_000, 'pin cleared');
    expect(pins().slice(pinsBeforePermission).filter((c) => !c.timeSensitive)[0]).toMatchObject({ feedCardId: 'bot_time_sentive', userIds: [rig.user] });
    await fake.waitFor(() => existsSync(join(cwd, 'attention.txt')), 60_000, 'file created by the approved tool');
    await fake.waitFor(() => markdownText(perm.content).includes('Answered by'), 20_000, 'who answered');
    // The answered card no longer pings anyone.
    expect(markdownText(perm.content)).not.toMatch(/<at\b/);
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('FAKE-REPLY')), 60_000, 'final answer');

    // Whatever was sent, every mention was of the requester: never the group, never anyone else.
    const mentions = mentionsIn(fake, appId);
    expect(mentions.length).toBeGreaterThan(0);
    for (const m of mentions) expect(m === `<at id=${rig.user}>` || m === `<at user_id="${rig.user}">`).toBe(true);
    // The pin is left off at the end: every pin was matched by an unpin.
    expect(pins().at(-1)!.timeSensitive).toBe(false);
  }, 400_000);

  it('an ordinary short turn mentions nobody and pins nothing', async () => {
    // A generous notifyAfterSeconds: on a loaded machine even a short turn can take a minute; the point is "short".
    world = await startClaudeWorld({ askPermissions: false, bot: { attention: { notifyAfterSeconds: 900, buzzAfterMinutes: 0.05 } } });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'say hello quietly' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('FAKE-REPLY: say hello quietly')), 120_000, 'final answer');
    // Longer than the buzz delay: a wrongly armed buzz would have fired by now.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(mentionsIn(fake, appId)).toEqual([]);
    expect(fake.feedCards).toEqual([]);
    expect(fake.urgents).toEqual([]);
  }, 300_000);

  it("Claude's question offers a text box on its card; the typed answer reaches Claude exactly as typed", async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig } = world;
    const w = world;
    onTestFailed(() => writeFileSync(join(tmpdir(), 'lmx-attention-typed.log'), rig.logText()));
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'ASK-QUESTION about the button' });
    const turnCard = () => cardsFor(fake, appId, msg.messageId)[0]?.messageId;
    const question = await fake.waitFor(
      () => fake.messages.find((m) => m.msgType === 'interactive' && m.chatId === msg.chatId && m.messageId !== turnCard() && JSON.stringify(m.content).includes('"form"')),
      150_000, 'question card with a text box',
    );
    expect(buttons(question.content).some((b) => /Red/.test(b))).toBe(true);
    // Typed words that must stay words: shell, tmux key names, quotes, a tag, CJK, emoji.
    const typed = `$(touch pwned) C-c "green" <at user_id="all"></at> 绿色 🎉`;
    // Bound like the buttons: someone who is neither the requester nor an operator is refused, and nothing is typed.
    const stranger = await fake.submitForm(question.messageId, 'an intruder answers', 'ou_stranger0000000000000000000000');
    expect(JSON.stringify(stranger.response)).toMatch(/"type":"error"/);
    await fake.submitForm(question.messageId, typed);
    await fake.waitFor(() => markdownText(question.content).includes('Answered by'), 30_000, 'answered');
    // Claude hands the answer to the model in its tool result: exactly as typed.
    const sawIt = () => w.fake.requests.some((r) => JSON.stringify(r.body).includes(JSON.stringify(typed).slice(1, -1)));
    await fake.waitFor(sawIt, 90_000, 'the typed answer in the model request');
    expect(w.fake.requests.some((r) => JSON.stringify(r.body).includes('an intruder answers'))).toBe(false);
    expect(existsSync(join(w.cwd, 'pwned'))).toBe(false);
    // The card says who answered what, as typed.
    expect(markdownText(question.content)).toContain('绿色 🎉');
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('FAKE-REPLY: tool said')), 90_000, 'final answer');
  }, 300_000);
});
