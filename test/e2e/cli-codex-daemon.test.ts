// The real daemon, the fake Feishu and the real Codex (issue 30 item 4): "Steer now" on a message that waits behind a
// working Codex types it in; Codex holds it ("Messages to be submitted after next tool call") and submits it after
// the running tool call's output, in the same turn. Its rollout records exactly that text as a UserMessage of the
// running turn (the delivery proof), one task_complete ends both, and the next message is a turn of its own.
import { describe, expect, it, onTestFinished } from 'vitest';
import { buttons, cardsFor, headerColour, markdownText, textsIn } from '../support/cards.js';
import { waitingCard } from '../support/claude-busy.js';
import { disposeClaudeWorld, startCodexWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { codexPrompts } from '../support/codex-rollout.js';

const STEERED = `codex steer 你好，世界 $(echo pwned) "double" 'single'`;

describe.skipIf(skipWithoutCli('codex'))('daemon + real Codex: Steer now', () => {
  it('types the waiting message into the working Codex, which submits it after the tool output in the same turn', async () => {
    const world = await startCodexWorld();
    onTestFinished(() => disposeClaudeWorld(world));
    await world.rig.start();
    const { rig: { fake, appIds: [appId] }, home } = world;
    if (!appId) throw new Error('the rig has no bot');
    const { chatId } = await fake.injectMessage({ chatType: 'p2p', text: 'hello codex' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: hello codex')), 120_000, 'the first answer');

    // Codex's exec_command hands back a still-running command after about 10 s: the turn works that long.
    const running = 'RUN_TOOL: timeout 40 tail -f /dev/null';
    const busy = await fake.injectMessage({ chatType: 'p2p', chatId, text: running });
    await fake.waitFor(() => cardsFor(fake, appId, busy.messageId).some((c) => headerColour(c.content) === 'orange'), 60_000, 'working');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === busy.messageId), 30_000, 'the running prompt delivered');
    const steer = await fake.injectMessage({ chatType: 'p2p', chatId, text: STEERED });
    const card = await waitingCard({ fake, appId }, steer.messageId);
    expect(buttons(card.content)).toEqual(expect.arrayContaining(['Steer now', 'Interrupt and send']));
    await fake.tapButton(card.messageId, 'Steer now');
    await fake.waitFor(() => markdownText(card.content).includes('Steered'), 30_000, 'the card says steered');

    // Delivered on the rollout's word: the same turn as the running prompt, exactly this text.
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === steer.messageId), 120_000, 'delivered reaction on the steered message');
    const prompts = codexPrompts(home);
    const runningTurn = prompts.find((p) => p.text === running)?.turnId;
    expect(runningTurn).toBeDefined();
    expect(prompts.filter((p) => p.text === STEERED)).toEqual([{ text: STEERED, turnId: runningTurn }]);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`FAKE-REPLY: ${STEERED}`)), 120_000, 'the answer of the steered turn');
    expect(markdownText(card.content)).not.toContain('Sent after the turn ended');

    // The next message: a turn of its own, answered once.
    const after = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'after the codex steer' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: after the codex steer')), 120_000, 'the answer to the next message');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === after.messageId), 30_000, 'delivered reaction on the next message');
    expect(codexPrompts(home).map((p) => p.text).filter((t) => [running, STEERED, 'after the codex steer'].includes(t))).toEqual([running, STEERED, 'after the codex steer']);
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes(`FAKE-REPLY: ${STEERED}`))).toHaveLength(1);
  }, 600_000);
});
