// The real daemon, the fake Feishu and the real Claude Code (issue 30 item 4): a message sent while Claude works waits
// by default and goes once the turn ends; "Interrupt and send" on its card stops the running turn (a Bash command that
// would run for minutes) and delivers it next; "Steer now" types it into the working Claude, which hands it to the
// model beside the next tool result, within the same turn. Claude's own transcript proves each prompt reached it
// exactly once: the interrupted prompt Claude puts back in its input box is cleared, never sent again; the steered one
// is recorded as a `queued_command` attachment, never as a prompt of its own, and the turn ends once for both.
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, markdownText, textsIn } from '../support/cards.js';
import { absorbedPrompts, BASH_ALLOWED, busyTurn, claudeInManualMode, claudeRecords, transcriptPrompts, waitingCard } from '../support/claude-busy.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { until } from '../support/until.js';

/** CJK, a command substitution and both quotes: none of it may be run, split or re-quoted on the way. */
const STEERED = `steer 你好，世界 $(echo pwned) "double" 'single' — read this now`;

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: a message while Claude works', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });
  /** Claude in manual mode with Bash allowed, its first turn ("hello") sent. */
  const claudeAtWork = async () => {
    world = await startClaudeWorld({ askPermissions: false, settings: BASH_ALLOWED });
    return { home: world.home, chat: await claudeInManualMode(world.rig) };
  };

  it('waits by default and goes after the turn; "Interrupt and send" stops the turn and delivers it once', async () => {
    const { home, chat } = await claudeAtWork();
    const { fake, appId, chatId } = chat;

    // Wait (the default): the message goes once the turn ended, and its card says so; both choices were offered.
    const shortTurn = await busyTurn(chat, 25);
    const waited = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'waited for the turn' });
    const waitedCard = await waitingCard(chat, waited.messageId);
    expect(buttons(waitedCard.content)).toEqual(expect.arrayContaining(['Steer now', 'Interrupt and send']));
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: waited for the turn')), 180_000, 'the answer to the waiting message');
    expect(markdownText(waitedCard.content)).toContain('Sent after the turn ended');
    expect(buttons(waitedCard.content)).not.toContain('Interrupt and send');

    // Interrupt and send: the command would run for minutes; the tap stops it and the message goes next.
    const longTurn = await busyTurn(chat, 600);
    const urgent = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'stop and read this' });
    const urgentCard = await waitingCard(chat, urgent.messageId);
    await fake.tapButton(urgentCard.messageId, 'Interrupt and send');
    // The next turn: Claude records the message, and answers (the fake model answers the rejected tool call first).
    await until('the urgent message in the transcript', () => transcriptPrompts(home).some((p) => p.trim() === 'stop and read this'), 120_000);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes("FAKE-REPLY: tool said: The user doesn't want to proceed")), 120_000, 'the answer after the interrupt');
    expect(markdownText(urgentCard.content)).toContain('Interrupted');

    // Transcript proof: each prompt reached Claude exactly once, in order, the interrupted one not again.
    const prompts = transcriptPrompts(home).filter((p) => [shortTurn, 'waited for the turn', longTurn, 'stop and read this'].includes(p.trim()));
    expect(prompts.map((p) => p.trim())).toEqual([shortTurn, 'waited for the turn', longTurn, 'stop and read this']);
  }, 600_000);

  it('types the waiting message into the working Claude, which reads it within the running turn; the card says steered', async () => {
    const { home, chat } = await claudeAtWork();
    const { fake, appId, chatId } = chat;

    const running = await busyTurn(chat, 40);
    const steer = await fake.injectMessage({ chatType: 'p2p', chatId, text: STEERED });
    const card = await waitingCard(chat, steer.messageId);
    expect(buttons(card.content)).toEqual(expect.arrayContaining(['Steer now', 'Interrupt and send']));
    await fake.tapButton(card.messageId, 'Steer now');
    await fake.waitFor(() => markdownText(card.content).includes('Steered'), 30_000, 'the card says steered');

    // Delivered only on the transcript's word: the delivered reaction comes once Claude recorded exactly this text.
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === steer.messageId), 150_000, 'delivered reaction on the steered message');
    expect(absorbedPrompts(home)).toEqual([STEERED]);
    const absorbed = claudeRecords(home).find((r) => r.type === 'queue-operation' && r.operation === 'remove');
    expect(absorbed).toMatchObject({ reason: 'absorbed_mid_turn', content: STEERED });

    // The model read it beside the tool result, in the running turn (the fake says back what it was handed).
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-READ-BESIDE')), 120_000, 'the answer of the steered turn');
    const answers = textsIn(fake, appId, chatId).filter((t) => t.includes('FAKE-READ-BESIDE'));
    expect(answers).toHaveLength(1);
    expect(answers[0]).toContain('FAKE-REPLY: tool said: Exit code 124');
    expect(answers[0]).toContain('你好，世界 $(echo pwned) "double" \'single\'');
    expect(markdownText(card.content)).toContain('Steered');
    expect(markdownText(card.content)).not.toContain('Sent after the turn ended');
    expect(buttons(card.content)).not.toContain('Steer now');

    // Steered in, not sent again as a prompt of its own; the next message is a turn of its own with its own answer.
    const after = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'after the steer' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: after the steer')), 120_000, 'the answer to the next message');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === after.messageId), 30_000, 'delivered reaction on the next message');
    const prompts = transcriptPrompts(home).map((p) => p.trim()).filter((p) => [running, STEERED, 'after the steer'].includes(p));
    expect(prompts).toEqual([running, 'after the steer']);
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes('FAKE-READ-BESIDE'))).toHaveLength(1);
  }, 600_000);
});
