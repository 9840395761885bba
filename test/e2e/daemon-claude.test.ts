// The real daemon with the real Claude Code CLI: selection cards answered from Feishu, and a simulated reboot resumed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { buttons, cardsFor, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { runLarkmux } from '../support/larkmux-cli.js';

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it("startup and permission prompts become selection cards; the tapped answer reaches the CLI's menu and the card shows who answered", async () => {
    world = await startClaudeWorld({ askPermissions: true });
    const { rig, cwd } = world;
    onTestFailed(() => {
      // What the worker saw and decided, for the failure report (selection and gate lines only).
      const lines = rig.logText().split('\n').filter((l) => /selection|gate|choice|delivered|dialog|status/.test(l));
      process.stderr.write(`${lines.slice(-40).join('\n')}\n`);
    });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'MAKE-FILE from-card.txt' });
    const selectionCards = () => fake.messages.filter((m) => m.msgType === 'interactive' && cardsFor(fake, appId, msg.messageId)[0]?.messageId !== m.messageId && m.chatId === msg.chatId);

    // Claude first offers to switch permission modes: no safe default, so a person answers it on a card.
    const offer = await fake.waitFor(() => selectionCards().find((m) => buttons(m.content).some((b) => /keep manual mode/i.test(b))), 60_000, 'mode offer card');
    const keep = buttons(offer.content).find((b) => /keep manual mode/i.test(b))!;
    await fake.tapButton(offer.messageId, keep);
    await fake.waitFor(() => markdownText(offer.content).includes('Answered by'), 20_000, 'offer answered');

    // Generous: on a loaded 2-core CI machine Claude's tool round trip has taken over a minute.
    const perm = await fake.waitFor(() => selectionCards().find((m) => m !== offer && buttons(m.content).some((b) => /Yes/.test(b))), 150_000, 'permission card');
    expect(buttons(perm.content).some((b) => /No/.test(b))).toBe(true);
    const yes = buttons(perm.content).find((b) => /Yes/.test(b))!;
    await fake.tapButton(perm.messageId, yes);
    await fake.waitFor(() => existsSync(join(cwd, 'from-card.txt')), 60_000, 'file created by the approved tool');
    await fake.waitFor(() => markdownText(perm.content).includes(`Answered by** ${rig.user}`), 20_000, 'who answered');
    expect(buttons(perm.content)).toEqual([]);
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('FAKE-REPLY')), 60_000, 'final answer');
  }, 300_000);

  // Issue 12 finding 6: with an instant model the final answer often reaches the daemon before the delivery report;
  // the "delivered" reaction used to be dropped then. Every message gets it, whatever the order.
  it('fast turns: every message gets the delivered reaction and its own answer, whichever report arrives first', async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'quick one 0' });
    const ids = [first.messageId];
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('FAKE-REPLY: quick one 0')), 90_000, 'answer 0');
    for (let i = 1; i < 4; i++) {
      const m = await fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: `quick one ${i}` });
      ids.push(m.messageId);
      await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes(`FAKE-REPLY: quick one ${i}`)), 90_000, `answer ${i}`);
    }
    for (const id of ids) await fake.waitFor(() => fake.reactions.some((r) => r.messageId === id && r.emoji === 'DONE'), 20_000, `reaction on ${id}`);
  }, 300_000);

  it('after a simulated reboot (tmux server and daemon gone) the next message resumes the same conversation, and the card says so', async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'remember the word PELICAN' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('FAKE-REPLY: remember the word PELICAN')), 90_000, 'first answer');
    // The session record keeps Claude's conversation id: that is what a resume needs after a reboot.
    await new Promise((r) => setTimeout(r, 500));

    const stored = JSON.parse(readFileSync(rig.home.paths.sessionStore(appId), 'utf8')).records[0];
    expect(stored.nativeSessionId).toMatch(/^[0-9a-f-]{36}$/);
    // The reboot: every process goes, the tmux server with its CLIs included; then the machine comes back.
    await runLarkmux(['stop'], rig.home.env);
    await rig.tmux.kill();
    await world.startTmuxServer();
    expect((await runLarkmux(['start'], rig.home.env)).code).toBe(0);
    await fake.waitFor(() => fake.connectionCount(appId) > 0, 15_000, 'reconnected');

    const before = world.fake.requests.length;
    const second = await fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: 'what was the word?' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('FAKE-REPLY: what was the word?')), 90_000, 'answer after reboot');
    // The model received the earlier turns with the new one: the conversation was resumed, not restarted.
    const bodies = world.fake.requests.slice(before).map((r) => JSON.stringify(r.body)).filter((b) => b.includes('what was the word?'));
    expect(bodies.some((b) => b.includes('PELICAN'))).toBe(true);
    const card = cardsFor(fake, appId, second.messageId)[0]!;
    expect(markdownText(card.content)).toMatch(/resumed your earlier conversation/);
  }, 300_000);

  it('startupDialogs "ask" with an unseeded home: every onboarding dialog reaches the chat as a selection card, and the answers get Claude going', async () => {
    world = await startClaudeWorld({ askPermissions: false, seed: false, bot: { startupDialogs: 'ask' } });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'hello after onboarding' });
    const turnCard = () => cardsFor(fake, appId, msg.messageId)[0]?.messageId;
    const answered = new Set<string>();
    // What a person would pick on each dialog; the card's buttons are the options on Claude's screen.
    const pick = (labels: string[]) =>
      labels.find((l) => /Yes, I trust this folder/.test(l)) ?? labels.find((l) => /^Continue$/.test(l)) ?? labels.find((l) => /Auto|Dark mode/.test(l)) ?? labels.find((l) => /^(1\. )?Yes/.test(l));
    const titles: string[] = [];
    const deadline = Date.now() + 180_000;
    while (!textsIn(fake, appId, msg.chatId).some((t) => t.includes('FAKE-REPLY: hello after onboarding'))) {
      if (Date.now() > deadline) throw new Error(`no answer; selection cards so far: ${titles.join(' | ')}`);
      const open = fake.messages.find((m) => m.msgType === 'interactive' && m.chatId === msg.chatId && m.messageId !== turnCard() && !answered.has(m.messageId) && buttons(m.content).length > 0);
      if (open) {
        const choice = pick(buttons(open.content));
        expect(choice, `a known option on "${(open.content as any).header?.title?.content}"`).toBeDefined();
        titles.push(String((open.content as any).header?.title?.content));
        await fake.tapButton(open.messageId, choice!);
        answered.add(open.messageId);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    // Theme, security notes and the trust question each came as a card (none was answered silently).
    expect(answered.size).toBeGreaterThanOrEqual(3);
    expect(titles.join(' | ')).toMatch(/trust/i);
    expect(rig.logText()).not.toMatch(/by default: /);
  }, 300_000);

  it("a talker in the owner's topic can neither tap nor type an answer to the owner's prompt; the owner can (issue 13 finding 8)", async () => {
    const team = 'oc_lmxteam00000000000001';
    world = await startClaudeWorld({ askPermissions: true, bot: { allowedChats: [team] } });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const talker = 'ou_talker0000000000000001';
    const root = await fake.injectMessage({ chatType: 'group', chatId: team, text: 'MAKE-FILE owner-only.txt', mentionBot: true });
    const turnCard = () => cardsFor(fake, appId, root.messageId)[0]?.messageId;
    // Claude's first question (permission mode) belongs to the owner's turn.
    const offer = await fake.waitFor(() => fake.messages.find((m) => m.msgType === 'interactive' && m.chatId === team && m.messageId !== turnCard() && buttons(m.content).some((b) => /keep manual mode/i.test(b))), 90_000, 'owner prompt card');
    const keep = buttons(offer.content).find((b) => /keep manual mode/i.test(b))!;
    // The talker's message in the topic first (it used to make them the session's requester), then a tap: refused.
    const typed = await fake.injectMessage({ chatType: 'group', chatId: team, rootId: root.messageId, senderOpenId: talker, text: '1' });
    await fake.waitFor(() => textsIn(fake, appId, team).some((t) => /only the person who asked|只有提问的人/.test(t)), 20_000, 'refusal reply');
    expect(fake.reactions.some((r) => r.messageId === typed.messageId)).toBe(false);
    const tap = await fake.tapButton(offer.messageId, keep, talker);
    expect((tap.response as { toast?: { type?: string } })?.toast?.type).toBe('error');
    expect(buttons(offer.content).length).toBeGreaterThan(0);
    // The owner answers; the card records who.
    await fake.tapButton(offer.messageId, keep);
    await fake.waitFor(() => markdownText(offer.content).includes(`Answered by** ${rig.user}`), 20_000, 'owner answered');
  }, 300_000);
});
