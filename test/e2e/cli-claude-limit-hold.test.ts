// Issue 30 item 3 end to end with Claude Code: the real daemon, the fake Feishu and the real Claude Code against its
// fake model server, which refuses the first prompt with the 5-hour usage limit (cue `USAGE-LIMIT 90`: a 429 with the
// unified limiter's headers, resetting 90 real seconds later). Claude retries a 429 ten times over about 2½ minutes by
// default; `CLAUDE_CODE_MAX_RETRIES` (read by the pinned 2.1.332, a test-only setting here, in the bot's `env`) makes
// it give up after three. The daemon holds the session: a prompt sent during the hold is not in Claude's transcript
// and its person is told it waits; after the reset (the end of the minute Claude shows, plus the hold's jitter) the
// one "continue" goes, then the held prompt, exactly once each.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cardsFor, markdownText, textsIn } from '../support/cards.js';
import { transcriptPrompts } from '../support/claude-busy.js';
import { disposeClaudeWorld, startClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: a usage limit holds prompts', () => {
  it('says limited until hh:mm and mentions the asker; a prompt during the hold waits, then reaches Claude once after one "continue"', async () => {
    const world = await startClaudeWorld({ askPermissions: false, bot: { locale: 'en' }, cliEnv: { CLAUDE_CODE_MAX_RETRIES: '3' } });
    onTestFinished(() => disposeClaudeWorld(world));
    await world.rig.start();
    const { rig: { fake, appIds: [appId] }, home } = world;
    if (!appId) throw new Error('the rig has no bot');
    const prompts = () => transcriptPrompts(home);
    const hit = 'please USAGE-LIMIT 90 now';
    const first = await fake.injectMessage({ chatType: 'p2p', text: hit });
    const { chatId } = first;
    // A wait that times out says what the chat, the card, Claude's transcript and the daemon's log had by then.
    const waitFor = <T>(pred: () => T, ms: number, what: string) =>
      fake.waitFor(pred, ms, what).catch((e: Error) => {
        const cards = fake.messages.filter((m) => m.appId === appId && m.msgType === 'interactive').map((m) => markdownText(m.content));
        const log = world.rig.logText().split('\n').filter((l) => /limit|hold|selection|usage|transition|input|deliver/i.test(l)).slice(-40);
        throw new Error(`${e.message}\ntexts: ${JSON.stringify(textsIn(fake, appId, chatId))}\ncards: ${JSON.stringify(cards)}\ntranscript: ${JSON.stringify(prompts())}\nlog:\n${log.join('\n')}`);
      });
    const cardSays = (needle: string) => cardsFor(fake, appId, first.messageId).some((c) => c.history.some((v) => markdownText(v).includes(needle)));
    await waitFor(() => cardSays('Limited until'), 120_000, 'the turn card says limited');
    expect(cardsFor(fake, appId, first.messageId).map((c) => markdownText(c.content)).join('\n')).toMatch(/Limited until (?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}/);
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => /<at user_id="[^"]+"><\/at>/.test(t) && t.includes('usage limit')), 30_000, 'the asker mentioned');
    // The setting took: Claude counts its attempts out of 3, not its default 10 (the worker logs the line it read).
    expect(world.rig.logText()).toMatch(/5-hour limit reached · retrying in \d+s \(\d{1,2}:\d{2}[ap]m\) · attempt \d\/3\b/);
    expect(world.rig.logText()).not.toMatch(/attempt \d+\/10\b/);

    const held = `held prompt ${randomBytes(6).toString('hex')}`;
    const second = await fake.injectMessage({ chatType: 'p2p', chatId, text: held });
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Waits for the usage limit')), 30_000, 'the person told it waits');
    // While held: not in Claude's own record, and no delivered reaction on it.
    expect(prompts()).not.toContain(held);
    expect(fake.reactions.some((r) => r.messageId === second.messageId)).toBe(false);

    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('The hold is over')), 240_000, 'the hold is over');
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`FAKE-REPLY: ${held}`)), 180_000, 'the held prompt answered');
    expect(prompts().filter((t) => t === hit)).toHaveLength(1);
    expect(prompts().filter((t) => t === held)).toHaveLength(1);
    expect(prompts().filter((t) => t === 'continue')).toHaveLength(1);
    expect(prompts().indexOf('continue')).toBeLessThan(prompts().indexOf(held));
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes(`FAKE-REPLY: ${held}`))).toHaveLength(1);
  }, 600_000);
});
